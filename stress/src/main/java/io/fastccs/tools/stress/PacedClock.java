package io.fastccs.tools.stress;

import java.util.concurrent.locks.LockSupport;

/** The time source of the workers, replaceable in tests. */
public interface PacedClock {
    long nanoTime();

    /** Returns at or after {@code deadline} (a {@link #nanoTime()} value). */
    void sleepUntil(long deadline) throws InterruptedException;

    PacedClock SYSTEM = new PacedClock() {
        @Override public long nanoTime() { return System.nanoTime(); }
        @Override public void sleepUntil(long deadline) throws InterruptedException {
            long left;
            while ((left = deadline - System.nanoTime()) > 0) {
                LockSupport.parkNanos(left);
                if (Thread.interrupted()) throw new InterruptedException();
            }
        }
    };
}
