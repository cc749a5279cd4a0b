package io.fastccs.client.internal;

import io.fastccs.client.InvalidRequestException;
import io.fastccs.core.Outgoing;
import io.fastccs.core.messages.Message;
import io.fastccs.core.primitives.Key;

import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * What a read and a write execution share: the requests still outstanding, the outcome once known, and completing
 * the caller's future exactly once, outside the session's lock.
 *
 * @param <R> the result type; a failure is any {@link Throwable}
 */
abstract class TransactionExecution<R> {
    final DefaultCausalSession session;
    final Cluster cluster;
    final DefaultClientMetrics metrics;
    final RetryingSender sender;
    final long startNanos;
    /** Until when requests a partition could not take are sent again: the request timeout from the execution's start. */
    final long deadlineNanos;
    final CompletableFuture<R> result = new CompletableFuture<>();
    /** Requests still waiting for a reply: request id to partition. Guarded by the session's lock. */
    final Map<Long, Integer> outstanding = new HashMap<>();
    /** The result or the failure, once known. Guarded by the session's lock. */
    Object outcome;
    private boolean published;

    TransactionExecution(DefaultCausalSession session, Cluster cluster, RetryingSender sender, DefaultClientMetrics metrics,
                         long startNanos) {
        // From now, not from startNanos: time spent queued behind the session's earlier transactions is not the partitions'.
        this(session, cluster, sender, metrics, startNanos, MonotonicClock.nanoTime() + session.requestTimeout().toNanos());
    }

    /** @param deadlineNanos until when requests a partition could not take are sent again */
    TransactionExecution(DefaultCausalSession session, Cluster cluster, RetryingSender sender, DefaultClientMetrics metrics,
                         long startNanos, long deadlineNanos) {
        this.session = session;
        this.cluster = cluster;
        this.sender = sender;
        this.metrics = metrics;
        this.startNanos = startNanos;
        this.deadlineNanos = deadlineNanos;
    }

    /** Records the result or failure (under the lock) and stops waiting for anything else. */
    void finish(Object resultOrFailure) {
        outcome = resultOrFailure;
        cancelOutstanding();
    }

    /** What to do with the reply to one request sent by {@link #sendAll}: a message, or the error instead. */
    interface ReplyHandler {
        void onReply(long requestId, int partition, Message reply, Throwable error);
    }

    /**
     * Encodes {@code requests} and sends them, each outstanding until its reply and sent again as {@code retry}
     * allows until the deadline while it is outstanding; an encoding failure finishes the execution. Stops as soon as
     * {@code stillSending} says no: a send may fail at once, and its callback, run here, may end the execution.
     */
    void sendAll(List<Outgoing> requests, BooleanSupplier stillSending, RetryingSender.Retry retry, ReplyHandler handler) {
        byte[][] frames;
        try {
            frames = Frames.encodeAll(requests);
        } catch (InvalidRequestException e) {
            finish(e);
            return;
        }
        for (int i = 0; i < frames.length && stillSending.getAsBoolean(); i++) {
            int partition = requests.get(i).partition();
            long id = requests.get(i).request().requestId();
            outstanding.put(id, partition);
            sender.send(partition, id, frames[i], deadlineNanos, retry, () -> isOutstanding(id))
                    .whenComplete((m, e) -> handler.onReply(id, partition, m, e));
        }
    }

    private boolean isOutstanding(long requestId) {
        synchronized (session.lock()) {
            return outstanding.containsKey(requestId);
        }
    }

    void cancelOutstanding() {
        outstanding.forEach((id, partition) -> cluster.cancel(partition, id));
        outstanding.clear();
    }

    /** How many partitions own {@code keys}: what a result reports as the partitions touched, whatever the protocol. */
    int partitionsOwning(Collection<Key> keys) {
        BitSet owners = new BitSet(cluster.partitions());
        for (Key k : keys) owners.set(cluster.partitioning().ownerOf(k));
        return owners.cardinality();
    }

    abstract void recordSuccess(R result);

    abstract void recordFailure(Throwable failure);

    /** Completes the result once known, outside the lock; a nested call (under the lock) leaves it to the outer. */
    @SuppressWarnings("unchecked")
    void publishIfDone() {
        if (Thread.holdsLock(session.lock())) return;
        Object o;
        synchronized (session.lock()) {
            if (outcome == null || published) return;
            published = true;
            o = outcome;
        }
        if (o instanceof Throwable t) {
            recordFailure(t);
            result.completeExceptionally(t);
        } else {
            recordSuccess((R) o);
            result.complete((R) o);
        }
    }
}
