package io.fastccs.client.internal;

import io.fastccs.client.InvalidRequestException;
import io.fastccs.protocol.Outgoing;
import io.fastccs.protocol.messages.Message;

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
    final long startNanos;
    final CompletableFuture<R> result = new CompletableFuture<>();
    /** Requests still waiting for a reply: request id to partition. Guarded by the session's lock. */
    final Map<Long, Integer> outstanding = new HashMap<>();
    /** The result or the failure, once known. Guarded by the session's lock. */
    Object outcome;
    private boolean published;

    TransactionExecution(DefaultCausalSession session, Cluster cluster, DefaultClientMetrics metrics, long startNanos) {
        this.session = session;
        this.cluster = cluster;
        this.metrics = metrics;
        this.startNanos = startNanos;
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
     * Encodes {@code requests} and sends them, each outstanding until its reply; an encoding failure finishes the
     * execution. Stops as soon as {@code stillSending} says no: a send may fail at once, and its callback, run here,
     * may end the execution.
     */
    void sendAll(List<Outgoing> requests, BooleanSupplier stillSending, ReplyHandler handler) {
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
            cluster.send(partition, id, frames[i]).whenComplete((m, e) -> handler.onReply(id, partition, m, e));
        }
    }

    void cancelOutstanding() {
        outstanding.forEach((id, partition) -> cluster.cancel(partition, id));
        outstanding.clear();
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
