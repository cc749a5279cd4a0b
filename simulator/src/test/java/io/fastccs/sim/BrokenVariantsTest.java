package io.fastccs.sim;

import io.fastccs.check.CheckResult;
import io.fastccs.protocol.Bug;
import io.fastccs.protocol.BrokenVariants;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker must be able to fail: each deliberately broken protocol variant is run on burn configurations until
 * the TCC checker reports an anomaly, which must happen within a bounded number of seeds. Seeds are fixed, so the
 * number each variant needs is stable and reported.
 */
class BrokenVariantsTest {
    private static final int MAX_SEEDS = 40;

    @ParameterizedTest
    // PIN_BEYOND_RETENTION needs held-back reads (HeldBackReadsTest); READ_BEYOND_DURABLE, READ_BELOW_CLIENT_CLOCK and
    // the one-round writes' variants need replica groups, whose hosts track the durable part of the settled prefix and
    // whose failovers lose what was not durable (ReplicaGroupsTest)
    @EnumSource(value = Bug.class, mode = EnumSource.Mode.EXCLUDE,
            names = {"PIN_BEYOND_RETENTION", "READ_BEYOND_DURABLE", "READ_BELOW_CLIENT_CLOCK", "VOTE_BEFORE_PREPARE_DURABLE",
                    "ABORT_TOLD_BEFORE_DURABLE", "FORGET_BEFORE_OUTCOMES_DURABLE", "REFUSE_WITHOUT_FENCE"})
    void checkerCatchesBrokenVariant(Bug bug) {
        for (int i = 0; i < MAX_SEEDS; i++) {
            long seed = 1000 + i;
            SimConfig base = BurnConfigs.forSeed(seed);
            SimConfig.Builder b = base.toBuilder().faults(SimConfig.Faults.none())
                    .partition(BrokenVariants.partitionConfig(base.partition(), bug));
            // The commutative operations' variants need typed keys in every run.
            if (bug == Bug.FOLD_IN_SEQUENCE_ORDER || bug == Bug.TYPED_OP_APPLIED_TWICE) b.typedFraction(0.5);
            // A commit time is the largest proposal of its participants, so it falls below the session's dependency
            // time only where every participant's clock is behind: clocks off by the burn's largest skew in every run.
            if (bug == Bug.COMMIT_TIME_IGNORES_DEPENDENCY) b.maxClockSkewMicros(10_000);
            SimConfig broken = b.build();
            SimResult result = new Simulation(broken, seed, BrokenVariants.sessionHook(bug)).run();
            CheckResult check = result.check();
            if (!check.ok()) {
                System.out.printf("broken variant %s caught by the checker at seed %d (%d seeds): %s%n",
                        bug, seed, i + 1, check.counts());
                return;
            }
        }
        assertThat(false).as("the checker did not catch broken variant %s within %d seeds", bug, MAX_SEEDS).isTrue();
    }
}
