package io.fastccs.check;

/**
 * How long a check (and a simulation, {@code bin/fastccs sim}) took: the one place the checker and the simulator read
 * {@link System#nanoTime()}, as Cassandra's code reads it through {@code Clock.Global}. Histories carry their own
 * times; this clock only reports the wall time a run took.
 */
public final class MonotonicClock {
    private MonotonicClock() {
    }

    /** Nanoseconds from an arbitrary origin; only differences between two readings mean anything. */
    public static long nanoTime() {
        return System.nanoTime();
    }
}
