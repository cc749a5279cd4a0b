package io.fastccs.tools.cluster;

/**
 * The clock of the command-line tools (cluster, stress and experiments, nemesis and soak, the command-line client,
 * the test kit): the one place they read the system's time, as Cassandra's code reads it through its
 * {@code Clock.Global}. Here because every {@code bin/fastccs} tool depends on the cluster tool.
 */
public final class ToolClock {
    private ToolClock() {
    }

    /** Monotonic nanoseconds, for elapsed time and deadlines only ({@link System#nanoTime()}). */
    public static long nanoTime() {
        return System.nanoTime();
    }

    /** The wall clock in milliseconds since the epoch, for names and timestamps that must differ between runs. */
    public static long currentTimeMillis() {
        return System.currentTimeMillis();
    }
}
