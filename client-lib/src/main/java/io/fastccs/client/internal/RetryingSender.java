package io.fastccs.client.internal;

import dev.failsafe.ExecutionContext;
import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import io.fastccs.client.PartitionUnavailableException;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Message;
import io.netty.channel.EventLoopGroup;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Sends requests to partitions and, while a partition cannot take them, sends them again after a short backoff
 * until the caller's deadline; past it the last failure stands. "Cannot take" means no connection, a connection
 * lost, or a refusal that did nothing: {@code NOT_LEADER} (a replicated partition's failover, 1 to 3 seconds) or
 * {@code OVERLOADED}. Each retry asks for the ring, since the partition may have moved.
 *
 * <p>Which requests may be sent again is the caller's call ({@link Retry}): a read or an outcome query is idempotent;
 * a write request is sent again only if it was never sent or was refused with {@code NOT_LEADER}, never once a node may
 * have taken it.
 *
 * <p>A request's first attempt is sent at once and waits the full request timeout, as without retries; only when it
 * fails in a way that allows a retry does Failsafe take over (its first attempt is that failure, so its backoff
 * applies from the start), and each retry waits only what is left until the deadline.
 */
final class RetryingSender {
    /** The delay before the first retry; doubled after each, up to {@link #MAX_DELAY}, with 25% jitter. */
    static final Duration FIRST_DELAY = Duration.ofMillis(20);
    static final Duration MAX_DELAY = Duration.ofMillis(320);
    private static final double JITTER = 0.25;

    /** Which failures a request may be sent again after. */
    enum Retry {
        /** Any sign that the partition could not take it: for requests that are safe to repeat. */
        WHEN_UNAVAILABLE {
            @Override
            boolean allows(Message reply, Throwable failure) {
                if (reply instanceof ErrorReply e) return e.code() == ErrorCode.NOT_LEADER || e.code() == ErrorCode.OVERLOADED;
                return failure != null && Failures.unwrap(failure) instanceof PartitionUnavailableException;
            }
        },
        /**
         * Only when nothing was done: the request was never sent ({@link NotSentException}) or refused with
         * {@code NOT_LEADER}. For write requests, which are never sent again once a node may have taken them.
         */
        WHEN_NOTHING_DONE {
            @Override
            boolean allows(Message reply, Throwable failure) {
                if (reply instanceof ErrorReply e) return e.code() == ErrorCode.NOT_LEADER;
                return failure != null && Failures.unwrap(failure) instanceof NotSentException;
            }
        };

        abstract boolean allows(Message reply, Throwable failure);
    }

    private final Cluster cluster;
    private final EventLoopGroup scheduler;
    private final DefaultClientMetrics metrics;
    /**
     * Where a retried request's outcome is handed on. Failsafe completes its future while holding the future's
     * monitor, and the callers' handlers take a session's lock: run them elsewhere, or two threads could each hold
     * what the other waits for. Once the client is closed, inline.
     */
    private final Executor handOff;

    RetryingSender(Cluster cluster, EventLoopGroup scheduler, DefaultClientMetrics metrics) {
        this.cluster = cluster;
        this.scheduler = scheduler;
        this.metrics = metrics;
        this.handOff = task -> {
            try {
                scheduler.execute(task);
            } catch (RejectedExecutionException closed) {
                task.run();
            }
        };
    }

    /**
     * Sends a request frame to {@code partition} like {@link Cluster#send(int, long, byte[])}, again while
     * {@code retry} allows, {@code deadlineNanos} (a {@link MonotonicClock#nanoTime()} value) is not reached and
     * {@code stillWanted} says yes. Completes with the last reply or failure.
     */
    CompletableFuture<Message> send(int partition, long requestId, byte[] frame, long deadlineNanos, Retry retry,
                                    BooleanSupplier stillWanted) {
        return withRetries(cluster.send(partition, requestId, frame), deadlineNanos, retry::allows, timeLeft -> {
            if (!stillWanted.getAsBoolean()) return CompletableFuture.failedFuture(new CancellationException("no longer wanted"));
            return cluster.send(partition, requestId, frame, timeLeft);
        });
    }

    /**
     * Runs {@code attempt} and, while it fails with a failure {@code retryable} accepts, runs it again after each
     * backoff until {@code deadlineNanos}; past it the last failure stands. For a whole transaction that failed having
     * done nothing; {@code onRetry} is told of each new attempt.
     */
    <T> CompletableFuture<T> runAgainWhile(Supplier<CompletableFuture<T>> attempt, long deadlineNanos,
                                           Predicate<Throwable> retryable, Runnable onRetry) {
        return withRetries(attempt.get(), deadlineNanos, (result, failure) -> failure != null && retryable.test(Failures.unwrap(failure)),
                timeLeft -> {
                    onRetry.run();
                    return attempt.get();
                });
    }

    /**
     * Completes once every partition in {@code partitions} has a connection, checking again after each backoff;
     * fails with {@link PartitionUnavailableException} naming one that has none at {@code deadlineNanos}.
     */
    CompletableFuture<Void> awaitConnected(Collection<Integer> partitions, long deadlineNanos) {
        BiPredicate<Void, Throwable> unconnected =
                (v, failure) -> failure != null && Failures.unwrap(failure) instanceof PartitionUnavailableException;
        return withRetries(connected(partitions), deadlineNanos, unconnected, timeLeft -> connected(partitions));
    }

    private CompletableFuture<Void> connected(Collection<Integer> partitions) {
        for (int p : partitions) {
            if (!cluster.isConnected(p))
                return CompletableFuture.failedFuture(new PartitionUnavailableException(p, "no connection to partition " + p));
        }
        return CompletableFuture.completedFuture(null);
    }

    /**
     * {@code first}'s outcome if it allows no retry; else what Failsafe makes of it: {@code again} (given the
     * nanoseconds left) after each backoff, until an outcome allows no retry or the deadline passes.
     */
    private <T> CompletableFuture<T> withRetries(CompletableFuture<T> first, long deadlineNanos,
                                                 BiPredicate<T, Throwable> retryable, LongFunction<CompletableFuture<T>> again) {
        BiPredicate<T, Throwable> retryNow = (result, failure) -> !cluster.isClosed()
                && deadlineNanos - MonotonicClock.nanoTime() > 0 && retryable.test(result, failure);
        return first.handle((result, failure) -> {
            long timeLeft = deadlineNanos - MonotonicClock.nanoTime();
            // Failsafe requires more time than the first delay; with less, no retry would run anyway.
            if (timeLeft <= FIRST_DELAY.toNanos() || !retryNow.test(result, failure)) return first;
            RetryPolicy<T> policy = RetryPolicy.<T>builder()
                    .handleIf(retryNow::test)
                    .withBackoff(FIRST_DELAY, MAX_DELAY)
                    .withJitter(JITTER)
                    .withMaxRetries(-1)
                    .withMaxDuration(Duration.ofNanos(timeLeft)) // also shortens the last delay to end at the deadline
                    .onRetry(event -> {
                        metrics.retried();
                        cluster.requestRingRefresh();
                    })
                    .build();
            CompletableFuture<T> retried = Failsafe.with(policy).with(scheduler).getStageAsync(context -> {
                if (context.isFirstAttempt()) return first;
                long left = deadlineNanos - MonotonicClock.nanoTime();
                return left > 0 ? again.apply(left) : lastOutcome(context);
            });
            CompletableFuture<T> handedOff = new CompletableFuture<>();
            retried.whenCompleteAsync((r, e) -> {
                if (e != null) handedOff.completeExceptionally(Failures.unwrap(e));
                else handedOff.complete(r);
            }, handOff);
            return handedOff;
        }).thenCompose(outcome -> outcome);
    }

    private static <T> CompletableFuture<T> lastOutcome(ExecutionContext<T> context) {
        Throwable failure = context.getLastException();
        return failure != null ? CompletableFuture.failedFuture(failure) : CompletableFuture.completedFuture(context.getLastResult());
    }
}
