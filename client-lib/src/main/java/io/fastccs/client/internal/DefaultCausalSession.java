package io.fastccs.client.internal;

import io.fastccs.client.CausalSession;
import io.fastccs.client.CausalToken;
import io.fastccs.client.InvalidRequestException;
import io.fastccs.client.ReadResult;
import io.fastccs.client.SessionInDoubtException;
import io.fastccs.client.WriteBuilder;
import io.fastccs.client.WriteResult;
import io.fastccs.client.WriteTimeoutException;
import io.fastccs.client.internal.cache.ClientCache;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.spi.CausalContext;
import io.fastccs.core.spi.ProtocolSession;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * A session: the protocol's {@link ProtocolSession} (its causal context: FastCCS's vector clock, Eiger's dependencies,
 * Wren's stable time and write cache), a FIFO queue so its transactions run one at a time, and the unconfirmed-write
 * state. The session object itself is the lock that guards the protocol session and the running transaction's state.
 */
final class DefaultCausalSession implements CausalSession {
    private final DefaultFastCcsClient client;
    private final ProtocolSession protocol;
    private final long ringFingerprint;
    /** Completes when the last queued transaction has finished. Guarded by this. */
    private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);
    /** The write that left the session in doubt, if any. Guarded by this. */
    private WriteTimeoutException unconfirmedWrite;

    DefaultCausalSession(DefaultFastCcsClient client, ProtocolSession protocol, long ringFingerprint) {
        this.client = client;
        this.protocol = protocol;
        this.ringFingerprint = ringFingerprint;
    }

    Object lock() {
        return this;
    }

    /** The protocol session; only touched under {@link #lock()}. */
    ProtocolSession protocol() {
        return protocol;
    }

    /** The word of the protocol the session speaks, for messages. */
    String protocolWord() {
        return client.config().protocol().word();
    }

    /** The client's cache, shared by its sessions. */
    ClientCache cache() {
        return client.cache();
    }

    Duration requestTimeout() {
        return client.config().requestTimeout();
    }

    @Override
    public CompletionStage<ReadResult> readAsync(Collection<String> keys) {
        return read(() -> client.validator().readKeys(keys));
    }

    @Override
    public CompletionStage<ReadResult> readBytesAsync(Collection<byte[]> keys) {
        return read(() -> client.validator().readKeyBytes(keys));
    }

    @Override
    public CompletionStage<WriteResult> writeAsync(Map<String, String> writes) {
        return write(() -> puts(client.validator().writes(writes)));
    }

    @Override
    public CompletionStage<WriteResult> writeBytesAsync(Map<byte[], byte[]> writes) {
        return write(() -> puts(client.validator().writeBytes(writes)));
    }

    @Override
    public WriteBuilder newWrite() {
        return new DefaultWriteBuilder(client.validator(), client.protocolFactory(), this::writeOperations);
    }

    /** Runs a {@link WriteBuilder}'s operations, checked as they were added, as one transaction. */
    private CompletionStage<WriteResult> writeOperations(List<KeyValue> operations) {
        return write(() -> {
            if (operations.isEmpty())
                throw new InvalidRequestException("a transaction needs at least one key; the write has no operations");
            return operations;
        });
    }

    /** Checked puts as operations, in the map's order. */
    private static List<KeyValue> puts(Map<Key, byte[]> writes) {
        List<KeyValue> out = new ArrayList<>(writes.size());
        for (Map.Entry<Key, byte[]> e : writes.entrySet()) out.add(new KeyValue(e.getKey(), e.getValue()));
        return out;
    }

    private CompletionStage<ReadResult> read(Supplier<List<Key>> validKeys) {
        long start = MonotonicClock.nanoTime();
        DefaultOperationMetrics metrics = client.metricsInternal().reads();
        metrics.started();
        List<Key> keys;
        try {
            client.checkOpen();
            keys = validKeys.get();
        } catch (InvalidRequestException | IllegalStateException e) {
            metrics.failed(e);
            return CompletableFuture.failedFuture(e);
        }
        return enqueue(metrics, () -> new ReadExecution(this, client.cluster(), client.sender(), client.metricsInternal(), keys, start).start());
    }

    private CompletionStage<WriteResult> write(Supplier<List<KeyValue>> validWrites) {
        long start = MonotonicClock.nanoTime();
        DefaultOperationMetrics metrics = client.metricsInternal().writes();
        metrics.started();
        List<KeyValue> writes;
        try {
            client.checkOpen();
            writes = validWrites.get();
        } catch (InvalidRequestException | IllegalStateException e) {
            metrics.failed(e);
            return CompletableFuture.failedFuture(e);
        }
        return enqueue(metrics, () -> WriteExecution.run(this, client.cluster(), client.sender(), client.metricsInternal(), writes, start));
    }

    /**
     * Runs {@code transaction} once every transaction queued before it has finished. The returned future is the
     * caller's alone: completing or cancelling it does not disturb the queue.
     */
    private <T> CompletableFuture<T> enqueue(DefaultOperationMetrics metrics, Supplier<CompletableFuture<T>> transaction) {
        CompletableFuture<T> caller = new CompletableFuture<>();
        CompletableFuture<Void> finished = new CompletableFuture<>();
        CompletableFuture<Void> previous;
        synchronized (this) {
            previous = tail;
            tail = finished;
        }
        Runnable run = () -> {
            CompletableFuture<T> running;
            WriteTimeoutException doubt;
            synchronized (this) {
                doubt = unconfirmedWrite;
            }
            if (doubt != null) {
                SessionInDoubtException e = new SessionInDoubtException("the session has an unconfirmed write ("
                        + doubt.transactionId() + ", " + doubt.outcome() + "); call continueWithoutUnconfirmedWrite() "
                        + "to go on without it, or use a new session", doubt);
                metrics.failed(e);
                running = CompletableFuture.failedFuture(e);
            } else {
                try {
                    running = transaction.get();
                } catch (RuntimeException e) {
                    metrics.failed(e);
                    running = CompletableFuture.failedFuture(e);
                }
            }
            running.whenComplete((r, e) -> {
                if (e != null) caller.completeExceptionally(Failures.unwrap(e));
                else caller.complete(r);
                finished.complete(null);
            });
        };
        if (previous.isDone()) run.run();
        else previous.whenComplete((r, e) -> run.run());
        return caller;
    }

    void markInDoubt(WriteTimeoutException e) {
        synchronized (this) {
            unconfirmedWrite = e;
        }
    }

    /** @throws UnsupportedOperationException unless the protocol has causal tokens (see {@link CausalSession#exportToken()}) */
    @Override
    public CausalToken exportToken() {
        synchronized (this) {
            CausalContext context = protocol.causalContext().orElseThrow(() -> noTokens(client.config().protocol()));
            return CausalToken.of(context.clock().toArray(), context.commitTime(), ringFingerprint);
        }
    }

    /** Why a client of {@code protocol}, one without causal tokens, cannot export or resume sessions. */
    static UnsupportedOperationException noTokens(Protocol protocol) {
        return new UnsupportedOperationException("causal tokens are FastCCS's (a vector clock); this client speaks "
                + protocol.word() + ", whose sessions cannot be exported or resumed");
    }

    @Override
    public boolean hasUnconfirmedWrite() {
        synchronized (this) {
            return unconfirmedWrite != null;
        }
    }

    @Override
    public void continueWithoutUnconfirmedWrite() {
        synchronized (this) {
            unconfirmedWrite = null;
        }
    }

    @Override
    public String toString() {
        synchronized (this) {
            String context = protocol.causalContext().map(c -> "clock=" + c.clock())
                    .orElse("protocol=" + client.config().protocol().word());
            return "CausalSession[" + context + (unconfirmedWrite != null ? ", in doubt" : "") + "]";
        }
    }
}
