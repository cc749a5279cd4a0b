package io.fastccs.server.node;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one thread a partition host runs every handler and tick on, so the protocol's state machine needs no locks. A
 * step that throws is counted and logged and the thread goes on serving; after {@link #close()} steps are dropped.
 */
final class ProtocolThread implements AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(ProtocolThread.class);

    private final String name;
    private final ScheduledThreadPoolExecutor executor;
    private final AtomicLong failedSteps = new AtomicLong();

    ProtocolThread(String name) {
        this.name = name;
        this.executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
    }

    /** Runs {@code step} on the thread, after every step queued before it. */
    void execute(Runnable step) {
        try {
            executor.execute(() -> guarded(step));
        } catch (RejectedExecutionException e) {
            // closed
        }
    }

    /** Runs {@code step} on the thread every {@code intervalMicros} (from the end of one run to the start of the next). */
    ScheduledFuture<?> every(long intervalMicros, Runnable step) {
        return executor.scheduleWithFixedDelay(() -> guarded(step), intervalMicros, intervalMicros, TimeUnit.MICROSECONDS);
    }

    private void guarded(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            failedSteps.incrementAndGet();
            logger.error("{}: unexpected failure", name, e);
        }
    }

    /** Runs {@code work} on the thread and hands its result back (recovery, monitoring and tests wait on it). */
    <T> Future<T> submit(Callable<T> work) {
        return executor.submit(work);
    }

    /** Steps that threw. */
    long failedSteps() {
        return failedSteps.get();
    }

    /** Stops the thread, letting the step under way finish (up to 10 s). */
    @Override
    public void close() {
        executor.shutdown();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
