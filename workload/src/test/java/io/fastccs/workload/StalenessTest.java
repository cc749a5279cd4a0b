package io.fastccs.workload;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StalenessTest {
    private static final long MS = 1_000; // microseconds
    private static final long[] KEY = {7};

    @Test
    void aReadIsStaleByHowLongANewerAcknowledgedWriteWasThereBeforeIt() {
        Staleness s = new Staleness();
        s.written(KEY, new long[]{1}, 0, 10 * MS);
        s.read(KEY, new long[]{1}, 20 * MS); // the newest: fresh
        s.written(KEY, new long[]{2}, 30 * MS, 40 * MS); // begun after value 1 was acknowledged: newer
        s.read(KEY, new long[]{1}, 35 * MS); // value 2 not acknowledged yet when the read began: fresh
        s.read(KEY, new long[]{1}, 100 * MS); // 60 ms behind value 2
        s.read(KEY, new long[]{2}, 100 * MS);
        Staleness.Summary r = s.summary();
        assertThat(r.keyReads()).isEqualTo(4);
        assertThat(r.staleKeyReads()).isEqualTo(1);
        assertThat(r.meanMs()).isBetween(59.0, 61.0);
    }

    @Test
    void concurrentWritesToOneKeyAreNotCountedAgainstEachOther() {
        Staleness s = new Staleness();
        s.written(KEY, new long[]{1}, 0, 10 * MS);
        s.written(KEY, new long[]{2}, 5 * MS, 12 * MS); // begun before value 1 was acknowledged: either may be newer
        s.read(KEY, new long[]{1}, 50 * MS);
        s.read(KEY, new long[]{2}, 50 * MS);
        assertThat(s.summary().staleKeyReads()).isZero();
    }

    @Test
    void aValueOlderThanEveryKeptWriteIsStaleByTheOldestAcknowledgedBeforeTheRead() {
        Staleness s = new Staleness();
        s.written(KEY, new long[]{1}, 0, 10 * MS);
        s.read(KEY, new long[]{0}, 30 * MS); // the populated value (or one too old to be kept)
        s.read(new long[]{8}, new long[]{0}, 30 * MS); // a key nobody wrote in the run
        Staleness.Summary r = s.summary();
        assertThat(r.staleKeyReads()).isEqualTo(1);
        assertThat(r.maxMs()).isBetween(19.0, 21.0);
    }

    @Test
    void theWarmUpIsForgottenButItsWritesAreKnown() {
        Staleness s = new Staleness();
        s.written(KEY, new long[]{1}, 0, 10 * MS);
        s.written(KEY, new long[]{2}, 20 * MS, 30 * MS);
        s.read(KEY, new long[]{1}, 40 * MS);
        s.reset();
        assertThat(s.summary().keyReads()).isZero();
        s.read(KEY, new long[]{1}, 50 * MS);
        assertThat(s.summary().staleKeyReads()).isEqualTo(1);
    }

    @Test
    void aValueNotAcknowledgedYetIsFresh() {
        Staleness s = new Staleness();
        s.written(KEY, new long[]{1}, 0, 10 * MS);
        s.read(KEY, new long[]{2}, 30 * MS); // value 2's write is on its way: the read saw it before its acknowledgement
        assertThat(s.summary().staleKeyReads()).isZero();
    }
}
