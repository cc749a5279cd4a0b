package io.fastccs.replication.ratis;

/** The one place the consensus code reads the monotonic clock: deadlines and rates, never wall time. */
final class MonotonicClock {
    private MonotonicClock() {
    }

    static long nanoTime() {
        return System.nanoTime();
    }
}
