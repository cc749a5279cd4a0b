package io.fastccs.sim;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many seeds per run, each a random configuration (2-16 partitions, 1-8 keys per transaction, 5-50% writes,
 * uniform/gaussian/zipf keys, FIFO or reordering links, with or without faults), every history checked by the
 * TCC checker and the simulator's own invariants. Each CI run explores new seeds; a failure names its seed and the
 * command that replays it.
 *
 * <p>{@code -Dburn.seed=S} starts from seed S, {@code -Dburn.count=C} runs C seeds.
 */
class BurnTest {
    @Test
    void randomConfigurationsStayCausallyConsistent() {
        long first = Long.getLong("burn.seed", new SplittableRandom().nextLong());
        int count = Integer.getInteger("burn.count", 200);
        System.out.printf("burn: %d seeds from %d (replay one with: bin/fastccs sim --burn-seed SEED)%n", count, first);
        long txns = 0, checked = 0, faults = 0;
        long started = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long seed = first + i;
            SimResult result = run(seed);
            List<String> problems = result.problems();
            assertThat(problems)
                    .as("burn seed %d (%s) failed; replay: bin/fastccs sim --burn-seed %d", seed, result.config(), seed)
                    .isEmpty();
            txns += result.history().transactions().size();
            checked++;
            if (result.config().faults().any()) faults++;
        }
        System.out.printf(Locale.ROOT, "burn: %d histories (%d with faults), %,d transactions checked in %.1f s%n",
                checked, faults, txns, (System.nanoTime() - started) / 1e9);
    }

    static SimResult run(long seed) {
        try {
            return new Simulation(BurnConfigs.forSeed(seed), seed).run();
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError("burn seed " + seed + " crashed; replay: bin/fastccs sim --burn-seed " + seed, e);
        }
    }
}
