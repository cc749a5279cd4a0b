package io.fastccs.it;

import io.fastccs.client.FastCcsClient;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.Message;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.testkit.CheckedWorkload;
import io.fastccs.testkit.RawClient;
import io.fastccs.tools.nemesis.NemesisCommand;
import io.fastccs.tools.nemesis.NemesisRun;
import io.fastccs.tools.nemesis.NodeClockOffsets;
import io.fastccs.tools.nemesis.RaftCutOffs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import static io.fastccs.it.TestCluster.log;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leader-specific faults on three real nodes at replication factor 3 (subnet 64), under a checked workload: a
 * group's leader cut off from its followers on the consensus port (the nodes' test-only cut-off, over JMX) while
 * clients still reach it, and node clocks
 * stepped forwards and back by seconds over JMX. The cut-off leader must stop answering once its lease ran out,
 * another member must be elected and take writes, the two must never answer at once, and the history must stay
 * TCC-clean with no acknowledged write lost. Then one nemesis seed with every fault kind. Timings are printed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LeaderFaultsIT {
    private static final int SUBNET = Integer.getInteger("fastccs.it.leaderFaultsSubnet", 64);
    private static final int NODES = 3;
    /** The node whose own partition's group is cut off from its leader (whichever member leads it then). */
    private static final int PARTITION_NODE = 1;
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(800);

    private static SubnetCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = SubnetCluster.start("leader-faults", SUBNET, NODES,
                Map.of("replication_factor", "3", NodeClockOffsets.SETTING, "0ms", RaftCutOffs.SETTING, "none"));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) cluster.close();
    }

    private static FastCcsClient newClient() {
        io.fastccs.client.FastCcsClientBuilder b = FastCcsClient.builder()
                .withRequestTimeout(Duration.ofSeconds(3))
                .withReconnectDelay(Duration.ofMillis(100), Duration.ofSeconds(1));
        cluster.view().fastccsAddresses().forEach(b::addContactPoint);
        return b.build();
    }

    /** Whether {@code node} answers a first-round read of {@code key} for {@code partition} now, or how it refuses. */
    private static String probe(int node, int partition, String key) {
        try (RawClient c = RawClient.openBare(cluster.view().fastccsAddress(node), PROBE_TIMEOUT)) {
            Message hello = c.exchange(Hello.client(null, null).to(partition));
            if (hello instanceof ErrorReply e) return "hello refused " + e.code();
            Message m = c.exchange(new FirstRoundRead(1, List.of(Key.of(key)), VectorClock.zero(NODES)));
            if (m instanceof ReadReply) return "READ";
            return m instanceof ErrorReply e ? "refused " + e.code() : "answered " + m.getClass().getSimpleName();
        } catch (IOException e) {
            return "no answer (" + e.getClass().getSimpleName() + ")";
        }
    }

    @Test
    @Order(1)
    void aCutOffLeaderStopsServingAnotherTakesOverAndSteppedClocksBreakNothing() throws Exception {
        int partition = cluster.view().partitionOfNode(PARTITION_NODE);
        String probeKey = cluster.view().keysOnEveryPartition("probe:", 1).stream()
                .filter(k -> cluster.view().ownerOf(k) == partition).findFirst().orElseThrow();
        NodeClockOffsets clocks = new NodeClockOffsets(cluster.view().ports());
        try (FastCcsClient first = newClient(); FastCcsClient second = newClient();
             RaftCutOffs cutOffs = new RaftCutOffs(cluster.view().ports(), TestCluster::log)) {
            long seed = Long.getLong("fastccs.it.seed", ThreadLocalRandom.current().nextLong());
            log("workload seed " + seed + " (-Dfastccs.it.seed=" + seed + ")");
            CheckedWorkload workload = new CheckedWorkload(cluster.view(), List.of(first, second), "lf:", 8, 300, 4, 0.3, seed);
            int[] ownerOfKey = new int[workload.keyCount()];
            for (int k = 0; k < ownerOfKey.length; k++) ownerOfKey[k] = cluster.view().ownerOf(workload.key(k));
            AtomicLong watchFrom = new AtomicLong(Long.MAX_VALUE);
            AtomicLong firstWriteOnPartition = new AtomicLong();
            workload.observe(new CheckedWorkload.TxnObserver() {
                @Override
                public void ended(boolean write, long[] keys, long startedNanos, String error) {
                    if (!write || error != null || startedNanos - watchFrom.get() < 0) return;
                    for (long k : keys)
                        if (ownerOfKey[(int) k] == partition) firstWriteOnPartition.compareAndSet(0, System.nanoTime());
                }
            });
            workload.start();
            Thread.sleep(8_000);

            // Usually the partition's own node leads; on a loaded machine another member may still lead after the start.
            int leaderBefore = cluster.view().leaderAsSeenBy(PARTITION_NODE, partition, Duration.ofSeconds(3));
            assertThat(leaderBefore).as("a node leads partition %d", partition).isBetween(1, NODES);
            final int cutNode = leaderBefore;
            List<Integer> followers = new ArrayList<>();
            for (int k = 1; k <= NODES; k++) if (k != cutNode) followers.add(k);
            // A loaded machine may miss one probe's short timeout; a healthy leader answers within seconds.
            String before = probe(cutNode, partition, probeKey);
            for (long until = System.nanoTime() + Duration.ofSeconds(30).toNanos(); !before.equals("READ") && System.nanoTime() - until < 0; )
                before = probe(cutNode, partition, probeKey);
            assertThat(before).as("the leader, node %d, answers before the cut", cutNode).isEqualTo("READ");

            long cutRequested = System.nanoTime();
            cutOffs.cutOff(cutNode, followers);
            long cut = System.nanoTime(); // the cut-off node is told last: from here on nothing passes either way
            watchFrom.set(cut);
            log(String.format("node %d (leader of partition %d) cut off on the consensus port (in place %.0f ms after the "
                    + "request; it reports %s)", cutNode, partition, (cut - cutRequested) / 1e6, cutOffs.cutOffAt(cutNode)));
            long lastAnswered = cut, stoppedAnswering = 0, elected = 0;
            int newLeader = -1;
            List<String> answersAfterElection = new ArrayList<>();
            while (System.nanoTime() - cut < Duration.ofSeconds(10).toNanos()) {
                String answer = probe(cutNode, partition, probeKey);
                long now = System.nanoTime();
                if (answer.equals("READ")) {
                    lastAnswered = now;
                    if (elected != 0) answersAfterElection.add(String.format("%.2f s", (now - cut) / 1e9));
                } else if (stoppedAnswering == 0) {
                    stoppedAnswering = now;
                    log(String.format("the cut-off leader stopped answering %.2f s after the cut: %s", (now - cut) / 1e9, answer));
                }
                if (elected == 0) {
                    int seen = cluster.view().leaderAsSeenBy(followers.get(0), partition, PROBE_TIMEOUT);
                    if (seen > 0 && seen != cutNode) {
                        elected = System.nanoTime();
                        newLeader = seen;
                        log(String.format("node %d names node %d leader of partition %d %.2f s after the cut", followers.get(0),
                                seen, partition, (elected - cut) / 1e9));
                    }
                }
                Thread.sleep(100);
            }
            long failover = firstWriteOnPartition.get();
            cutOffs.heal();
            long healed = System.nanoTime();
            log("healed " + String.format("%.1f s", (healed - cut) / 1e9) + " after the cut");
            log(String.format("cut-off leader: last read answered %.2f s after the cut; a new leader known at %.2f s; "
                            + "first write on partition %d committed %.2f s after the cut (the failover window)",
                    (lastAnswered - cut) / 1e9, elected == 0 ? -1 : (elected - cut) / 1e9, partition,
                    failover == 0 ? -1 : (failover - cut) / 1e9));

            // Clock steps under load: forwards and back, up to seconds, one node after the other.
            String[][] steps = {{"2", "+2500ms"}, {"3", "-2500ms"}, {"1", "-700ms"}, {"1", "+1s"}};
            for (String[] step : steps) {
                int node = Integer.parseInt(step[0]);
                clocks.set(node, step[1]);
                log("node " + node + "'s FastCCS clock stepped " + step[1] + " (reports " + clocks.get(node) + ")");
                assertThat(clocks.get(node)).isNotEqualTo("+0us");
                Thread.sleep(4_000);
                clocks.set(node, "0ms");
            }
            long leaderBack = System.nanoTime();
            int leaderAfter = -1;
            while (System.nanoTime() - leaderBack < Duration.ofSeconds(30).toNanos()) {
                leaderAfter = cluster.view().leaderAsSeenBy(followers.get(0), partition, PROBE_TIMEOUT);
                if (leaderAfter == PARTITION_NODE) break;
                Thread.sleep(200);
            }
            log("after healing, partition " + partition + " is led by node " + leaderAfter);
            Thread.sleep(4_000);
            workload.stop();

            CheckedWorkload.Result result = workload.finish(first, Duration.ofSeconds(6), null, TestCluster::log);
            log(String.format("transactions: reads %d (%d ok), writes %d (%d acknowledged, %d unconfirmed: %d committed, %d "
                            + "aborted, %d unsettled)", result.readsAttempted(), result.readsOk(), result.writesAttempted(),
                    result.writesAcknowledged(), result.unknown(), result.unknownCommitted(), result.unknownAborted(),
                    result.unknownUnsettled()));
            result.errors().forEach((type, n) -> log("errors " + type + ": " + n));
            log("checker: " + result.check().summary() + "; lost acknowledged writes: " + result.lostAcknowledged());

            assertThat(newLeader).as("another member was elected leader of partition %d during the cut", partition)
                    .isIn(followers);
            assertThat(stoppedAnswering).as("the cut-off leader stopped answering reads").isNotZero();
            assertThat(answersAfterElection).as("reads the cut-off leader answered after a new leader was known").isEmpty();
            assertThat(failover).as("a write on partition %d committed while its leader was cut off", partition)
                    .isNotZero().isLessThan(healed);
            assertThat(result.check().ok()).as("TCC anomalies: %s", result.check().anomalies().stream().limit(20).toList()).isTrue();
            assertThat(result.check().totalAnomalies()).isZero();
            assertThat(result.violations()).as("lost or misplaced writes").isEmpty();
            assertThat(result.lostAcknowledged()).isZero();
            assertThat(result.unknownUnsettled()).as("writes whose outcome nobody could settle").isZero();
            assertThat(result.writesAcknowledged()).isPositive();
        }
    }

    @Test
    @Order(2)
    void oneNemesisSeedWithEveryFaultKindStaysClean() throws Exception {
        long seed = Long.getLong("fastccs.it.seed", ThreadLocalRandom.current().nextLong(1, 1L << 40));
        Duration duration = Duration.ofSeconds(Long.getLong("fastccs.it.nemesisSeconds", 60));
        log("nemesis seed " + seed + " at replication factor 3 (bin/fastccs nemesis --rf 3 --seed " + seed + ")");
        NemesisRun run = new NemesisRun(cluster.local(), cluster.view(), TestCluster::log);
        assertThat(run.applicableFaults()).as("every fault but the opt-in wipe applies at replication factor 3 with the cut-off and clock controls")
                .isEqualTo(EnumSet.complementOf(EnumSet.of(NemesisRun.Fault.WIPE_REPLACE)));
        NemesisRun.Result r = run.run(NemesisRun.Config.defaults(seed, duration).withThreads(6).withKeys(150));
        NemesisCommand.print(r);
        NemesisChecks.assertClean(r, run.applicableFaults());
    }
}
