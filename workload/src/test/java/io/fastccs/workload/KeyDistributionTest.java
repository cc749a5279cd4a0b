package io.fastccs.workload;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class KeyDistributionTest {
    private static final int DRAWS = 200_000;

    @Test
    void gaussianHasMidRangeMeanAndSixthStdevAndIsClamped() {
        KeyDistribution d = KeyDistribution.parse("gaussian(1..1000)");
        SplittableRandom r = new SplittableRandom(1);
        double sum = 0, sq = 0;
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        for (int i = 0; i < DRAWS; i++) {
            long k = d.next(r);
            sum += k;
            sq += (double) k * k;
            lo = Math.min(lo, k);
            hi = Math.max(hi, k);
        }
        double mean = sum / DRAWS, stdev = Math.sqrt(sq / DRAWS - mean * mean);
        assertThat(mean).isCloseTo(500.5, within(2.0));
        assertThat(stdev).isCloseTo(999 / 6.0, within(3.0));
        assertThat(lo).isGreaterThanOrEqualTo(1);
        assertThat(hi).isLessThanOrEqualTo(1000);
    }

    @Test
    void uniformCoversTheRangeEvenly() {
        KeyDistribution d = KeyDistribution.parse("uniform(11..20)");
        SplittableRandom r = new SplittableRandom(2);
        int[] counts = new int[10];
        for (int i = 0; i < DRAWS; i++) counts[(int) (d.next(r) - 11)]++;
        for (int c : counts) assertThat(c).isBetween(DRAWS / 10 - 1000, DRAWS / 10 + 1000);
    }

    @Test
    void zipfFavoursTheFirstKeys() {
        KeyDistribution d = KeyDistribution.parse("zipf(1..1000,1.0)");
        SplittableRandom r = new SplittableRandom(3);
        int[] counts = new int[1001];
        for (int i = 0; i < DRAWS; i++) {
            long k = d.next(r);
            assertThat(k).isBetween(1L, 1000L);
            counts[(int) k]++;
        }
        // P(1) / P(2) = 2 with exponent 1; H(1000) ~ 7.485, so P(1) ~ 0.1336
        assertThat(counts[1] / (double) DRAWS).isCloseTo(1 / 7.485, within(0.005));
        assertThat(counts[1] / (double) counts[2]).isCloseTo(2.0, within(0.1));
        assertThat(KeyDistribution.parse("zipf(1..10)").toString()).isEqualTo("zipf(1..10,0.99)");
    }
}
