package io.fastccs.sim;

import io.fastccs.check.PlumeText;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** One seed decides everything: the same seed gives the same history and the same measurements. */
class DeterminismTest {
    @Test
    void sameSeedGivesSameHistory() throws Exception {
        for (long seed : new long[]{7, 42, 1234567}) {
            SimResult a = new Simulation(BurnConfigs.forSeed(seed), seed).run();
            SimResult b = new Simulation(BurnConfigs.forSeed(seed), seed).run();
            assertThat(text(b)).as("seed %d", seed).isEqualTo(text(a));
            assertThat(b.stats().messages()).as("seed %d", seed).isEqualTo(a.stats().messages());
            assertThat(b.stats().workloadMicros()).as("seed %d", seed).isEqualTo(a.stats().workloadMicros());
        }
    }

    @Test
    void differentSeedsGiveDifferentHistories() throws Exception {
        SimConfig config = SimConfig.builder().transactions(500).build();
        assertThat(text(new Simulation(config, 1).run())).isNotEqualTo(text(new Simulation(config, 2).run()));
    }

    private static String text(SimResult r) throws Exception {
        StringWriter w = new StringWriter();
        PlumeText.write(r.history(), w);
        return w.toString();
    }
}
