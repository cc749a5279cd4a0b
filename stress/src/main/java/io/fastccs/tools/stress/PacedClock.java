package io.fastccs.tools.stress;

import io.fastccs.tools.cluster.ToolClock;

import java.util.concurrent.locks.LockSupport;

/** The time source of the workers, replaceable in tests. */
public interface PacedClock {
    long nanoTime();

    /** Returns at or after {@code deadline} (a {@link #nanoTime()} value). */
    void sleepUntil(long deadline) throws InterruptedException;

    PacedClock SYSTEM = new PacedClock() {
        @Override public long nanoTime() { return ToolClock.nanoTime(); }
        @Override public void sleepUntil(long deadline) throws InterruptedException {
            long left;
            while ((left = deadline - ToolClock.nanoTime()) > 0) {
                LockSupport.parkNanos(left);
                if (Thread.interrupted()) throw new InterruptedException();
            }
        }
    };
}
