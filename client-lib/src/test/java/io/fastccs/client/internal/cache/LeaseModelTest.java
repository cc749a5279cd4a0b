package io.fastccs.client.internal.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Kairos's ideal lease (section 3.3, algorithm 1), bounded by the staleness setting. */
class LeaseModelTest {
    private static final long MS = 1_000_000;

    @Test
    void theLeaseIsTheBestOfKairossCandidates() {
        // Figure 5's key: read every 1 ms by this client, written every 19 ms.
        long lease = LeaseModel.idealLease(MS, 19 * MS, 1000 * MS);
        double best = 0;
        long bestLease = 0;
        for (int n = 1; n < 1000; n++) {
            double rate = LeaseModel.freshHitRate(n * MS, MS, 1.0 / (19 * MS));
            if (rate > best) {
                best = rate;
                bestLease = n * MS;
            }
        }
        assertThat(lease).isEqualTo(bestLease).isBetween(MS, 19 * MS);
    }

    @Test
    void withoutAWriteTheFreshHitRateIsEveryReadButTheMiss() {
        assertThat(LeaseModel.freshHitRate(9 * MS, MS, 1e-30)).isCloseTo(0.9, within(1e-6));
    }

    @Test
    void theBoundCapsTheLease() {
        assertThat(LeaseModel.idealLease(MS, 19 * MS, 3 * MS)).isEqualTo(3 * MS);
        assertThat(LeaseModel.idealLease(MS, Double.POSITIVE_INFINITY, 100 * MS)).isEqualTo(100 * MS);
        assertThat(LeaseModel.idealLease(0, 19 * MS, 100 * MS)).isEqualTo(100 * MS);
        assertThat(LeaseModel.idealLease(MS, 19 * MS, 0)).isZero();
    }

    @Test
    void aKeyWrittenMoreOftenGetsAShorterLease() {
        assertThat(LeaseModel.idealLease(MS, 5 * MS, 1000 * MS)).isLessThan(LeaseModel.idealLease(MS, 50 * MS, 1000 * MS));
    }
}
