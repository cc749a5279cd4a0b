package io.fastccs.sim;

import io.fastccs.workload.KeyDistribution;
import io.fastccs.check.CheckResult;
import io.fastccs.protocol.BrokenVariants;
import io.fastccs.protocol.Bug;
import io.fastccs.core.PartitionConfig;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Round ones held back by the host (as a node does while it loads keys from disk) and answered at their arrival
 * snapshot keep every history TCC-clean; answering them at that snapshot beyond the version retention (the broken
 * variant) does not, since GC may have dropped what the snapshot returns.
 */
class HeldBackReadsTest {
    @Test
    void heldBackReadsStayCausallyConsistent() {
        long first = Long.getLong("burn.seed", new SplittableRandom().nextLong());
        int count = Integer.getInteger("heldback.count", 40);
        System.out.printf("held-back reads: %d burn seeds from %d%n", count, first);
        for (int i = 0; i < count; i++) {
            long seed = first + i;
            SimResult r = new Simulation(BurnConfigs.forSeed(seed), seed).holdBackReads(0.3, 20_000).run();
            assertThat(r.problems()).as("seed %d (%s) with held-back reads", seed, r.config()).isEmpty();
        }
    }

    /** Short retention, long holds, hot keys: the guard matters. The same runs without the bug are clean. */
    @Test
    void pinningBeyondTheRetentionIsCaught() {
        for (int i = 0; i < 40; i++) {
            long seed = 2000 + i;
            SimConfig base = hotKeysShortRetention(seed);
            SimResult correct = new Simulation(base, seed).holdBackReads(0.5, 100_000).run();
            assertThat(correct.problems()).as("seed %d without the bug", seed).isEmpty();
            SimConfig broken = base.toBuilder().partition(BrokenVariants.partitionConfig(base.partition(), Bug.PIN_BEYOND_RETENTION)).build();
            CheckResult check = new Simulation(broken, seed).holdBackReads(0.5, 100_000).run().check();
            if (!check.ok()) {
                System.out.printf("broken variant PIN_BEYOND_RETENTION caught by the checker at seed %d (%d seeds): %s%n",
                        seed, i + 1, check.counts());
                return;
            }
        }
        assertThat(false).as("the checker did not catch PIN_BEYOND_RETENTION within 40 seeds").isTrue();
    }

    private static SimConfig hotKeysShortRetention(long seed) {
        SimConfig base = BurnConfigs.forSeed(seed);
        PartitionConfig p = base.partition().toBuilder().versionRetentionMicros(5_000).gcIntervalMicros(1_000).build();
        return base.toBuilder().faults(SimConfig.Faults.none()).keys(50).distribution(KeyDistribution.Shape.UNIFORM)
                .writeFraction(0.5).transactions(3_000).partition(p).build();
    }
}
