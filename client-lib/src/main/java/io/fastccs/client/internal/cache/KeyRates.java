package io.fastccs.client.internal.cache;

/**
 * What the cache learned of one key: how often it is read here (also what eviction keeps), the mean time between
 * reads, and the mean time between writes as seen from refetches that came back with a new sequence number (several
 * writes between two fetches count as one, so writes look rarer than they are; the lease bound caps the effect).
 * Guarded by the cache's lock.
 */
final class KeyRates {
    /** Weight of a new sample in the mean time between reads. */
    private static final double READ_WEIGHT = 0.125;

    long reads;
    private long lastReadNanos = -1;
    private double readMeanNanos;
    private long firstFetchNanos = -1;
    private long lastFetchNanos;
    private long lastSequence = -1;
    private long changes;

    void onRead(long nowNanos) {
        reads++;
        if (lastReadNanos >= 0) {
            double sample = Math.max(1, nowNanos - lastReadNanos);
            readMeanNanos = readMeanNanos == 0 ? sample : readMeanNanos + READ_WEIGHT * (sample - readMeanNanos);
        }
        lastReadNanos = nowNanos;
    }

    void onFetched(long sequence, long nowNanos) {
        if (firstFetchNanos < 0) firstFetchNanos = nowNanos;
        else if (sequence != lastSequence) changes++;
        lastSequence = sequence;
        lastFetchNanos = nowNanos;
    }

    /** Halves the read count, so eviction follows what is read now. */
    void age() {
        reads /= 2;
    }

    double readMeanNanos() {
        return readMeanNanos;
    }

    /** Infinite while no write was observed. */
    double writeMeanNanos() {
        return changes == 0 ? Double.POSITIVE_INFINITY : (double) (lastFetchNanos - firstFetchNanos) / changes;
    }
}
