package io.fastccs.client.internal;

/**
 * The client's monotonic time, for request deadlines, retries and operation latencies: the one place it reads
 * {@link System#nanoTime()}, as Cassandra's code reads it through {@code Clock.Global}.
 */
final class MonotonicClock {
    private MonotonicClock() {
    }

    /** Nanoseconds from an arbitrary origin; only differences between two readings mean anything. */
    static long nanoTime() {
        return System.nanoTime();
    }
}
