package io.fastccs.workload;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A key population in cassandra-stress's {@code -pop dist=...} syntax: {@code gaussian(1..K)} (mean mid-range, stdev
 * range/6, clamped to the range), {@code uniform(1..K)}, {@code zipf(1..K)} or {@code zipf(1..K,S)} (exponent S,
 * default 0.99; rank 1 is the most frequent key). The stress tool parses the full syntax; the simulator names a
 * {@link Shape} over keys 1..K. One class for both, so a zipf in the simulator is the same zipf as on the cluster.
 */
public abstract class KeyDistribution {
    /** The three shapes, each over 1..K with its default parameters (zipf's exponent 0.99, YCSB's). */
    public enum Shape {
        GAUSSIAN, UNIFORM, ZIPF;

        public static Shape parse(String s) {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        }

        /** YCSB's zipf exponent, what a bare "zipf" means. */
        public static final double DEFAULT_ZIPF_EXPONENT = 0.99;

        /** This shape over keys 1..{@code keys}, zipf with {@link #DEFAULT_ZIPF_EXPONENT}. */
        public KeyDistribution over(long keys) {
            return over(keys, DEFAULT_ZIPF_EXPONENT);
        }

        /** This shape over keys 1..{@code keys}; {@code zipfExponent} counts for zipf only. */
        public KeyDistribution over(long keys, double zipfExponent) {
            return switch (this) {
                case GAUSSIAN -> gaussian(1, keys);
                case UNIFORM -> uniform(1, keys);
                case ZIPF -> zipf(1, keys, zipfExponent);
            };
        }
    }

    private static final Pattern SPEC = Pattern.compile(
            "(gaussian|uniform|zipf)\\((\\d+)\\.\\.(\\d+)(?:,([0-9.]+))?\\)", Pattern.CASE_INSENSITIVE);
    /** Zipf draws from a table of cumulative weights, so its range is bounded. */
    static final long MAX_ZIPF_KEYS = 20_000_000;

    final long min, max;

    KeyDistribution(long min, long max) {
        if (min < 1 || max < min) throw new IllegalArgumentException("bad key range " + min + ".." + max);
        this.min = min;
        this.max = max;
    }

    public long min() { return min; }

    public long max() { return max; }

    public long size() { return max - min + 1; }

    /** One key in [min, max]. */
    public abstract long next(SplittableRandom random);

    public static KeyDistribution parse(String spec) {
        Matcher m = SPEC.matcher(spec.trim());
        if (!m.matches()) throw new IllegalArgumentException("bad distribution '" + spec
                + "' (expected gaussian(1..K), uniform(1..K) or zipf(1..K[,S]))");
        long lo = Long.parseLong(m.group(2)), hi = Long.parseLong(m.group(3));
        switch (m.group(1).toLowerCase(Locale.ROOT)) {
            case "gaussian": if (m.group(4) != null) break; return gaussian(lo, hi);
            case "uniform": if (m.group(4) != null) break; return uniform(lo, hi);
            default: return zipf(lo, hi, m.group(4) == null ? Shape.DEFAULT_ZIPF_EXPONENT : Double.parseDouble(m.group(4)));
        }
        throw new IllegalArgumentException("bad distribution '" + spec + "': only zipf takes a second parameter");
    }

    public static KeyDistribution gaussian(long min, long max) {
        return new KeyDistribution(min, max) {
            final double mean = (min + max) / 2.0, stdev = (max - min) / 6.0;
            @Override public long next(SplittableRandom r) {
                double g = Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
                return Math.max(min, Math.min(max, Math.round(mean + g * stdev)));
            }
            @Override public String toString() { return "gaussian(" + min + ".." + max + ")"; }
        };
    }

    public static KeyDistribution uniform(long min, long max) {
        return new KeyDistribution(min, max) {
            @Override public long next(SplittableRandom r) { return r.nextLong(min, max + 1); }
            @Override public String toString() { return "uniform(" + min + ".." + max + ")"; }
        };
    }

    public static KeyDistribution zipf(long min, long max, double exponent) {
        if (max - min + 1 > MAX_ZIPF_KEYS) throw new IllegalArgumentException("zipf supports at most " + MAX_ZIPF_KEYS + " keys");
        if (!(exponent > 0)) throw new IllegalArgumentException("zipf exponent must be > 0");
        return new KeyDistribution(min, max) {
            double[] cdf;
            private synchronized double[] cdf() {
                if (cdf == null) {
                    double[] c = new double[(int) size()];
                    double sum = 0;
                    for (int i = 0; i < c.length; i++) c[i] = sum += Math.pow(i + 1, -exponent);
                    for (int i = 0; i < c.length; i++) c[i] /= sum;
                    cdf = c;
                }
                return cdf;
            }
            @Override public long next(SplittableRandom r) {
                double[] c = cdf();
                int i = Arrays.binarySearch(c, r.nextDouble());
                if (i < 0) i = -i - 1;
                return min + Math.min(i, c.length - 1);
            }
            @Override public String toString() { return "zipf(" + min + ".." + max + "," + exponent + ")"; }
        };
    }
}
