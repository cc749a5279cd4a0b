package io.fastccs.tools.stress;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OpTimerTest {
    /** Time moves only when the worker sleeps or an operation "takes" time. */
    static final class FakeClock implements PacedClock {
        long now;
        @Override public long nanoTime() { return now; }
        @Override public void sleepUntil(long deadline) { now = Math.max(now, deadline); }
    }

    private static final long MS = 1_000_000;

    @Test
    void openLoopCountsFromTheIntendedStartSoQueueingShows() throws Exception {
        FakeClock clock = new FakeClock();
        OpTimer t = new OpTimer(clock, 0, 100, 0); // every 10 ms
        long[] latencies = new long[4];
        for (int i = 0; i < 4; i++) {
            long began = t.begin();
            assertThat(began).isEqualTo(i * 10 * MS);
            clock.now += 30 * MS; // each operation takes 30 ms: the schedule falls behind
            latencies[i] = t.end(began);
        }
        // 30, then 30 + 20 queued, 30 + 40, 30 + 60: a closed-loop measure would report 30 ms each time
        assertThat(latencies).containsExactly(30 * MS, 50 * MS, 70 * MS, 90 * MS);
    }

    @Test
    void openLoopWaitsWhenAheadOfSchedule() throws Exception {
        FakeClock clock = new FakeClock();
        OpTimer t = new OpTimer(clock, 1000 * MS, 10, 0.5); // every 100 ms, phase 50 ms
        long began = t.begin();
        assertThat(clock.now).isEqualTo(1050 * MS);
        clock.now += 2 * MS;
        assertThat(t.end(began)).isEqualTo(2 * MS);
        began = t.begin();
        assertThat(began).isEqualTo(1150 * MS);
        assertThat(clock.now).isEqualTo(1150 * MS);
    }

    @Test
    void closedLoopCountsFromNow() throws Exception {
        FakeClock clock = new FakeClock();
        OpTimer t = new OpTimer(clock, 0, 0, 0);
        assertThat(t.openLoop()).isFalse();
        clock.now = 500 * MS;
        long began = t.begin();
        assertThat(began).isEqualTo(500 * MS);
        clock.now += 7 * MS;
        assertThat(t.end(began)).isEqualTo(7 * MS);
    }
}
