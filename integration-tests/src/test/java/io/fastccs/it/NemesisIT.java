package io.fastccs.it;

import io.fastccs.core.messages.Outcome;
import io.fastccs.tools.nemesis.NemesisCommand;
import io.fastccs.tools.nemesis.NemesisRun;
import io.fastccs.tools.nemesis.NodeClockOffsets;
import io.fastccs.tools.nemesis.WaitingBound;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.ThreadLocalRandom;

import static io.fastccs.it.TestCluster.log;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bounded form of {@code bin/fastccs nemesis} on a real 3-node cluster of its own (subnet 60): bounded waiting
 * behind a dead client's stuck write, then one seed of faults under a concurrent recorded workload (every fault kind
 * at least once: SIGKILL and restart of a node, SIGSTOP/SIGCONT, clients dying in the middle of a write, every node
 * restarted at once, a node's clock stepped; the leader cut-off needs replicated partitions, see LeaderFaultsIT), the
 * whole history checked. Timings are printed, never asserted.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NemesisIT {
    static final int SUBNET = Integer.getInteger("fastccs.it.nemesisSubnet", 60);

    private static SubnetCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        // Fan-out 1: the three partitions stabilize up and down a chain (2 -> 1 -> 0 and back), so the faults hit the
        // tree that large clusters use; the other clusters here stabilize all-to-all.
        cluster = SubnetCluster.start("nemesis", SUBNET, 3, java.util.Map.of(NodeClockOffsets.SETTING, "0ms",
                "stabilization_fanout", "1"));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) cluster.close();
    }

    @Test
    @Order(1)
    void aWriteStuckBehindADeadClientIsSettledAndTheLaterWriteCompletes() throws Exception {
        WaitingBound wb = new WaitingBound(cluster.local(), cluster.view(), TestCluster::log);
        String tag = Long.toString(System.nanoTime(), 36);
        int trial = 0;
        for (WaitingBound.Variant v : new WaitingBound.Variant[]{WaitingBound.Variant.COORDINATOR_ELSEWHERE,
                WaitingBound.Variant.SELF_COORDINATED, WaitingBound.Variant.COORDINATOR_PAUSED,
                WaitingBound.Variant.COORDINATOR_ELSEWHERE, WaitingBound.Variant.SELF_COORDINATED}) {
            WaitingBound.Trial t = wb.trial(trial++, v, tag);
            for (int redo = 0; redo < 3 && !t.behindStuck() && t.goodCommitted(); redo++) t = wb.trial(trial++, v, tag);
            assertThat(t.goodCommitted()).as("the later write on partition %d committed and reads back (%s)", t.stuckPartition(), v).isTrue();
            assertThat(t.stuckOutcome()).as("the stuck write is settled by its coordinator (%s)", v).isEqualTo(Outcome.ABORTED);
            assertThat(t.stuckVisible()).as("the stuck write is never visible (%s)", v).isFalse();
        }
    }

    @Test
    @Order(2)
    void oneSeedOfFaultsKeepsCausalConsistencyAndLosesNoAcknowledgedWrite() throws Exception {
        long seed = Long.getLong("fastccs.it.seed", ThreadLocalRandom.current().nextLong(1, 1L << 40));
        Duration duration = Duration.ofSeconds(Long.getLong("fastccs.it.nemesisSeconds", 60));
        log("nemesis seed " + seed + " (-Dfastccs.it.seed=" + seed + "; bin/fastccs nemesis --seed " + seed + ")");
        NemesisRun run = new NemesisRun(cluster.local(), cluster.view(), TestCluster::log);
        assertThat(run.applicableFaults()).as("at replication factor 1 every fault but the leader cut-off and the wipe applies")
                .isEqualTo(EnumSet.complementOf(EnumSet.of(NemesisRun.Fault.LEADER_CUT_OFF, NemesisRun.Fault.WIPE_REPLACE)));
        NemesisRun.Result r = run.run(NemesisRun.Config.defaults(seed, duration).withThreads(6).withKeys(150));
        NemesisCommand.print(r);
        NemesisChecks.assertClean(r, run.applicableFaults());
    }
}
