package io.fastccs.protocol.partition;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The stable bases a partition keeps: a full start, consecutive steps, gaps that wait for a full one, the window. */
class BaseWindowTest {
    @Test
    void epochZeroIsZerosAndNothingElseIsKnownBeforeAFullBase() {
        BaseWindow w = new BaseWindow(3);
        assertThat(w.knows(0)).isTrue();
        assertThat(w.base(0)).containsExactly(0, 0, 0);
        assertThat(w.knows(1)).isFalse();
        assertThat(w.add(1, false, new int[]{0}, new long[]{4})).as("a step needs a full base first").isFalse();
        assertThat(w.base(1)).isNull();
    }

    @Test
    void stepsBuildOnTheFullBaseAndOlderBasesAreRebuilt() {
        BaseWindow w = new BaseWindow(3);
        assertThat(w.add(10, true, new int[]{0, 1, 2}, new long[]{5, 6, 7})).isTrue();
        assertThat(w.add(11, false, new int[]{1}, new long[]{9})).isTrue();
        assertThat(w.add(12, false, new int[]{0, 2}, new long[]{8, 8})).isTrue();
        assertThat(w.newest()).isEqualTo(12);
        assertThat(w.base(12)).containsExactly(8, 9, 8);
        assertThat(w.base(11)).containsExactly(5, 9, 7);
        assertThat(w.base(10)).containsExactly(5, 6, 7);
        assertThat(w.knows(9)).as("before the full base").isFalse();
    }

    @Test
    void aMissedStepStopsTheChainUntilTheNextFullBase() {
        BaseWindow w = new BaseWindow(2);
        w.add(1, true, new int[]{0, 1}, new long[]{1, 1});
        assertThat(w.add(3, false, new int[]{0}, new long[]{3})).isFalse();
        assertThat(w.newest()).isEqualTo(1);
        assertThat(w.add(4, true, new int[]{0, 1}, new long[]{4, 2})).isTrue();
        assertThat(w.knows(1)).as("forgotten at the fresh start").isFalse();
        assertThat(w.base(4)).containsExactly(4, 2);
        assertThat(w.add(4, true, new int[]{0, 1}, new long[]{9, 9})).as("not newer").isFalse();
    }

    @Test
    void onlyTheLastEpochsAreKept() {
        BaseWindow w = new BaseWindow(1);
        w.add(1, true, new int[]{0}, new long[]{1});
        for (int e = 2; e <= BaseWindow.KEPT + 10; e++) w.add(e, false, new int[]{0}, new long[]{e});
        long newest = BaseWindow.KEPT + 10;
        assertThat(w.knows(newest - BaseWindow.KEPT + 1)).isTrue();
        assertThat(w.base(newest - BaseWindow.KEPT + 1)).containsExactly(newest - BaseWindow.KEPT + 1);
        assertThat(w.knows(newest - BaseWindow.KEPT)).isFalse();
        w.clear();
        assertThat(w.knows(newest)).isFalse();
    }
}
