package io.fastccs.server.node;

/**
 * The plugin's monotonic time, for its timeouts, backoffs and how long its start took: the one place it reads
 * {@link System#nanoTime()}, as Cassandra's code reads it through {@code Clock.Global}. The protocol's time is
 * {@link NodeClock}; write timestamps are Cassandra's own ({@code FBUtilities.timestampMicros}). Touches no Cassandra
 * class, so the agent may use it before the node has loaded its configuration.
 */
public final class MonotonicClock {
    private MonotonicClock() {
    }

    /** Nanoseconds from an arbitrary origin; only differences between two readings mean anything. */
    public static long nanoTime() {
        return System.nanoTime();
    }
}
