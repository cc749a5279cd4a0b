package io.fastccs.client.internal.cache;

/**
 * Kairos's ideal lease (section 3.3, algorithm 1): the lease that maximizes the expected share of fresh hits for a key
 * read every {@code readMean} on average by this client and written every {@code writeMean} by anybody, both times
 * exponentially distributed. Bounded by the staleness setting, so an unknown or rare write gives the bound.
 */
public final class LeaseModel {
    private LeaseModel() {
    }

    /**
     * @param readMeanNanos  mean time between this client's reads of the key; 0 or less: unknown
     * @param writeMeanNanos mean time between writes of the key; 0 or less, or infinite: none observed
     * @param maxNanos       the bound (withMaxStaleness)
     */
    public static long idealLease(double readMeanNanos, double writeMeanNanos, long maxNanos) {
        if (maxNanos <= 0) return 0;
        if (readMeanNanos <= 0 || writeMeanNanos <= 0 || Double.isInfinite(writeMeanNanos)) return maxNanos;
        double writeRate = 1 / writeMeanNanos;
        double best = 0;
        long bestLease = 0;
        for (long hits = 1; ; hits++) {
            double lease = hits * readMeanNanos;
            if (lease >= maxNanos) return maxNanos;
            double fresh = freshHitRate(lease, readMeanNanos, writeRate);
            if (fresh < best) return bestLease;
            best = fresh;
            bestLease = (long) lease;
        }
    }

    /** Equation 5: fresh hits per lease period (its first read is the miss that fetched the key). */
    static double freshHitRate(double lease, double readMean, double writeRate) {
        double noWrite = Math.exp(-writeRate * lease); // equation 2
        double hitsPerLease = lease / readMean; // equation 1
        double x = writeRate * lease;
        // Equation 4; for a write rarely within the lease it is 0/0 in doubles, and its limit is half the lease.
        double freshInStale = x < 1e-6 ? lease / 2 : (1 - (x + 1) * noWrite) / (writeRate * (1 - noWrite));
        return (noWrite * hitsPerLease + (1 - noWrite) * (freshInStale / readMean)) / (hitsPerLease + 1);
    }
}
