package io.fastccs.sim;

import java.util.Locale;
import java.util.SplittableRandom;

/** How keys 1..count are drawn, with cassandra-stress's meaning of each name. */
public enum KeyDistribution {
    /** cassandra-stress {@code gaussian(1..K)}: mean in the middle, standard deviation a sixth of the range. */
    GAUSSIAN,
    UNIFORM,
    /** Zipf with exponent 0.99 (YCSB's), hottest key 1. */
    ZIPF;

    public static KeyDistribution parse(String s) {
        return valueOf(s.trim().toUpperCase(Locale.ROOT));
    }

    /** A sampler over keys 1..count. */
    public Sampler sampler(long count) {
        return switch (this) {
            case UNIFORM -> r -> 1 + r.nextLong(count);
            case GAUSSIAN -> {
                double mean = (1 + count) / 2.0, stdev = (count - 1) / 6.0;
                yield r -> {
                    double g = gaussian(r);
                    long k = Math.round(mean + g * stdev);
                    return Math.max(1, Math.min(count, k));
                };
            }
            case ZIPF -> new ZipfSampler(count, 0.99);
        };
    }

    private static double gaussian(SplittableRandom r) {
        // Box-Muller on our own random source, so the sequence depends on the seed alone.
        double u1 = 1.0 - r.nextDouble(), u2 = r.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    @FunctionalInterface
    public interface Sampler {
        long next(SplittableRandom random);
    }

    /** Gray et al.'s rejection-free Zipf generator, as in YCSB. */
    private static final class ZipfSampler implements Sampler {
        private final long n;
        private final double theta, alpha, zetan, eta;

        ZipfSampler(long n, double theta) {
            this.n = n;
            this.theta = theta;
            double z = 0;
            for (long i = 1; i <= n; i++) z += 1 / Math.pow(i, theta);
            this.zetan = z;
            double zeta2 = 1 + 1 / Math.pow(2, theta);
            this.alpha = 1 / (1 - theta);
            this.eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
        }

        @Override
        public long next(SplittableRandom r) {
            double u = r.nextDouble(), uz = u * zetan;
            if (uz < 1) return 1;
            if (uz < 1 + Math.pow(0.5, theta)) return 2;
            return Math.min(n, 1 + (long) (n * Math.pow(eta * u - eta + 1, alpha)));
        }
    }
}
