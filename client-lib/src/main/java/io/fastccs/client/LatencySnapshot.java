package io.fastccs.client;

/**
 * A copy of a latency histogram at one moment, in microseconds. Values are exact to three significant digits.
 * Immutable.
 */
public interface LatencySnapshot {
    /** How many latencies were recorded. */
    long count();

    /** The smallest recorded latency, 0 if none. */
    long minMicros();

    /** The largest recorded latency, 0 if none. */
    long maxMicros();

    /** The mean latency, 0 if none. */
    double meanMicros();

    /**
     * The latency at a percentile, 0 if none.
     *
     * @param percentile between 0 and 100, e.g. 99.9
     */
    long percentileMicros(double percentile);
}
