package io.fastccs.client.internal;

import io.fastccs.client.FastCcsException;
import io.fastccs.client.PartitionUnavailableException;
import io.fastccs.client.ProtocolException;
import io.fastccs.client.ReadResult;
import io.fastccs.client.ReadTimeoutException;
import io.fastccs.client.internal.cache.CachedSnapshot;
import io.fastccs.client.internal.cache.CachedVersion;
import io.fastccs.client.internal.cache.ClientCache;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.spi.CausalContext;
import io.fastccs.core.spi.PartitionAnswer;
import io.fastccs.core.Outgoing;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Message;
import io.fastccs.core.spi.ReadStep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Runs one read-only transaction of a session, whatever its protocol: sends the {@link ReadStep}'s requests to the
 * partitions' nodes and feeds the replies back, sending what each reply calls for next, until it finishes. A read
 * refused with {@code SNAPSHOT_EXPIRED} (FastCCS: its second round came after the snapshot expired) restarts once
 * from round one. All state changes happen under the session's lock; the result is completed outside it.
 *
 * <p>Reads have no effect, so a request of either round that its partition could not take (no connection, the
 * connection lost, {@code NOT_LEADER} during a replicated partition's failover, {@code OVERLOADED}) is sent to that
 * partition again after a short backoff, until the request timeout from the read's start ({@link RetryingSender});
 * only then does the read fail with {@link PartitionUnavailableException}.
 *
 * <p>With the client cache on, a read it answers whole sends nothing, and one it answers in part reads only the other
 * keys (docs/design/client-cache.md); a restart reads every key.
 */
final class ReadExecution extends TransactionExecution<ReadResult> {
    private final List<Key> keys;
    private ReadStep txn;
    /** The attempt's round: 1 for its first requests, one more for each batch a reply called for. */
    private int round;
    private boolean restarted;

    ReadExecution(DefaultCausalSession session, Cluster cluster, RetryingSender sender, DefaultClientMetrics metrics,
                  List<Key> keys, long startNanos) {
        super(session, cluster, sender, metrics, startNanos);
        this.keys = keys;
    }

    CompletableFuture<ReadResult> start() {
        synchronized (session.lock()) {
            startFromCache();
        }
        publishIfDone();
        return result;
    }

    /**
     * Answers the read from the client cache when every key's entry fits one snapshot that includes the session's past,
     * or starts it with the entries that fit served (docs/design/client-cache.md, "Full hits, partial hits, misses").
     * Only for protocols whose context is a vector clock.
     */
    private void startFromCache() {
        ClientCache cache = session.cache();
        Optional<CausalContext> context = session.protocol().causalContext();
        if (!cache.enabled() || context.isEmpty()) {
            startAttempt();
            return;
        }
        long now = cache.nowNanos();
        VectorClock clock = context.get().clock();
        CachedSnapshot.Choice choice = CachedSnapshot.choose(clock, keys, cache.lookup(keys),
                cluster.partitioning()::ownerOf, now);
        cache.recordServed(choice, now);
        if (!choice.fullHit()) {
            List<PartitionAnswer> served = new ArrayList<>(choice.served().size());
            for (CachedVersion e : choice.served().values())
                served.add(new PartitionAnswer(e.partition(), List.of(e.value()), e.newestUpTo(), e.commitClock(),
                        e.commitTime(), e.partitionTime()));
            try {
                txn = session.protocol().read(keys, served);
            } catch (IllegalArgumentException ringMoved) { // an entry's partition now owns a key it did not answer
                startAttempt();
                return;
            }
            round = 1;
            send(txn.start());
            return;
        }
        session.protocol().observe(new CausalContext(choice.servedCommitClock(clock), choice.servedCommitTime()));
        Map<Key, ReadValue> values = new LinkedHashMap<>();
        for (Key k : keys) values.put(k, choice.served().get(k).value());
        finish(new DefaultReadResult(new io.fastccs.core.spi.ReadResult(values, 0, 0), partitionsOwning(keys)));
    }

    private void startAttempt() {
        txn = session.protocol().read(keys);
        round = 1;
        send(txn.start());
    }

    private void send(List<Outgoing> requests) {
        ReadStep attempt = txn;
        sendAll(requests, () -> outcome == null, RetryingSender.Retry.WHEN_UNAVAILABLE,
                (id, partition, m, e) -> onReply(attempt, id, partition, m, e));
    }

    private void onReply(ReadStep attempt, long id, int partition, Message m, Throwable error) {
        synchronized (session.lock()) {
            if (outcome == null && attempt == txn && outstanding.remove(id) != null) {
                try {
                    handle(partition, m, error);
                } catch (RuntimeException e) {
                    // A reply the state machine could not digest (say, a clock of the wrong size): fail, never hang.
                    finish(new ProtocolException("partition " + partition + " sent a reply the read could not use: " + e, e));
                }
            }
        }
        publishIfDone();
    }

    private void handle(int partition, Message m, Throwable error) {
        if (error != null) {
            finish(failure(error, partition));
            return;
        }
        if (!(m instanceof ClientResponse response)) {
            finish(new ProtocolException("partition " + partition + " answered a read with " + m));
            return;
        }
        List<Outgoing> next = txn.onResponse(response);
        if (!txn.isFinished()) {
            if (!next.isEmpty()) round++;
            send(next);
        } else if (txn.succeeded()) {
            io.fastccs.core.spi.ReadResult r = txn.result();
            session.cache().putAll(r.answers());
            finish(new DefaultReadResult(r, partitionsOwning(keys)));
        } else {
            ErrorReply refusal = txn.failure();
            if (refusal.code() == ErrorCode.SNAPSHOT_EXPIRED && !restarted) {
                restarted = true;
                cancelOutstanding();
                metrics.snapshotRestarted();
                startAttempt();
            } else if (refusal.code() == ErrorCode.SNAPSHOT_EXPIRED) {
                finish(new ReadTimeoutException("the read's second round came after partition " + partition
                        + "'s snapshot expired, twice", null));
            } else {
                if (refusal.code() == ErrorCode.NOT_OWNER) cluster.requestRingRefresh();
                finish(Failures.fromErrorReply(refusal, partition));
            }
        }
    }

    private FastCcsException failure(Throwable error, int partition) {
        Throwable t = Failures.unwrap(error);
        if (t instanceof RequestTimedOutException)
            return new ReadTimeoutException("partition " + partition + " did not answer round " + round
                    + " of a read within " + session.requestTimeout(), null);
        if (t instanceof PartitionUnavailableException e)
            return new PartitionUnavailableException(partition, "partition " + partition + " could not serve round "
                    + round + " of a read within " + session.requestTimeout() + ": " + e.getMessage(), e);
        return Failures.asFastCcs(t);
    }

    @Override
    void recordSuccess(ReadResult r) {
        metrics.readSucceeded(startNanos, r.rounds());
    }

    @Override
    void recordFailure(Throwable failure) {
        metrics.reads().failed(failure);
    }
}
