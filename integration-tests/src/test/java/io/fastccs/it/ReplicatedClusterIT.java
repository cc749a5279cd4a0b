package io.fastccs.it;

import io.fastccs.check.CheckResult;
import io.fastccs.client.FastCcsClient;
import io.fastccs.testkit.CheckedWorkload;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;

import static io.fastccs.it.TestCluster.log;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replicated partitions on three real nodes (replication factor 3: every partition a Raft group of all three): the
 * preferred leader of one partition is SIGKILLed under a checked workload and stays down for half a minute. Nothing
 * may stop for longer than the failover (another member is elected and serves the partition), no acknowledged write
 * may be lost, and the history must be TCC-clean; then the node comes back and catches up.
 */
class ReplicatedClusterIT {
    private static final int SUBNET = 55;
    private static final int NODES = 3;
    private static final int KILLED_NODE = 1;

    private static SubnetCluster cluster;

    /** The first write, sent the moment the cluster said it serves: committed, and how many times it was run again. */
    private static String firstWrite;
    private static long firstWriteRunAgain;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = SubnetCluster.start("replicated", SUBNET, NODES, Map.of("replication_factor", "3"));
        // At once, as a new user would: one key on every partition (docs/design/one-round-writes.md, "Writes a moving
        // leader aborted").
        Map<String, String> everyPartition = new java.util.TreeMap<>();
        for (int i = 0; everyPartition.size() < NODES && i < 10_000; i++) {
            String key = "first:" + i;
            int owner = cluster.view().ownerOf(key);
            if (everyPartition.keySet().stream().noneMatch(k -> cluster.view().ownerOf(k) == owner)) everyPartition.put(key, "v");
        }
        try (FastCcsClient client = newClient()) {
            firstWrite = client.session().write(everyPartition).transactionId();
            firstWriteRunAgain = client.metrics().writesRunAgain();
        }
        log("first write " + firstWrite + " at once after start, on " + everyPartition.size() + " partitions; run again "
                + firstWriteRunAgain + " times");
    }

    @Test
    void aClusterThatSaysItServesCommitsAWriteAtOnce() {
        assertThat(firstWrite).isNotBlank();
        assertThat(firstWriteRunAgain).as("leaderships had settled: the nodes aborted nothing").isZero();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) cluster.close();
    }

    private static FastCcsClient newClient() {
        return cluster.newClient();
    }

    /** One finished transaction: when it ran, whether it succeeded, and whether it touched the watched partition. */
    private record Ended(long startedNanos, long endedNanos, boolean ok, boolean touchesWatched) {
    }

    @Test
    void aLeaderKilledUnderLoadStopsNothingBeyondTheFailoverAndLosesNothing() throws Exception {
        int watched = cluster.view().partitionOfNode(KILLED_NODE);
        try (FastCcsClient first = newClient(); FastCcsClient second = newClient()) {
            long seed = Long.getLong("fastccs.it.seed", ThreadLocalRandom.current().nextLong());
            log("workload seed " + seed + " (-Dfastccs.it.seed=" + seed + " repeats its choice of keys and operations)");
            CheckedWorkload workload = new CheckedWorkload(cluster.view(), List.of(first, second), "r:", 8, 300, 5, 0.25, seed);
            int[] ownerOfKey = new int[workload.keyCount()];
            for (int k = 0; k < ownerOfKey.length; k++) ownerOfKey[k] = cluster.view().ownerOf(workload.key(k));
            ConcurrentLinkedQueue<Ended> ended = new ConcurrentLinkedQueue<>();
            workload.observe(new CheckedWorkload.TxnObserver() {
                @Override
                public void ended(boolean write, long[] keys, long startedNanos, String error) {
                    boolean touches = false;
                    for (long k : keys) touches |= ownerOfKey[(int) k] == watched;
                    ended.add(new Ended(startedNanos, System.nanoTime(), error == null, touches));
                }
            });
            workload.start();
            Thread.sleep(10_000);

            long killNanos = System.nanoTime();
            cluster.local().kill(KILLED_NODE);
            log("SIGKILLed node " + KILLED_NODE + " (preferred leader of partition " + watched + ")");
            Thread.sleep(30_000);
            long restartNanos = System.nanoTime();
            cluster.local().restart(KILLED_NODE);
            log(String.format("node %d restarted %.1f s after the kill", KILLED_NODE, (System.nanoTime() - killNanos) / 1e9));
            Thread.sleep(10_000);
            workload.stop();

            CheckedWorkload.Result result = workload.finish(first, Duration.ofSeconds(6), null, TestCluster::log);
            CheckResult check = result.check();

            long firstSuccessAfterKill = Long.MAX_VALUE;
            for (Ended e : ended)
                if (e.ok() && e.touchesWatched() && e.startedNanos() - killNanos > 0) firstSuccessAfterKill = Math.min(firstSuccessAfterKill, e.endedNanos());
            double failoverSeconds = (firstSuccessAfterKill - killNanos) / 1e9;
            long downOk = 0, downAll = 0, beforeOk = 0, beforeAll = 0;
            List<Ended> failedWhileDown = new ArrayList<>();
            for (Ended e : ended) {
                if (e.startedNanos() - killNanos < 0) {
                    beforeAll++;
                    if (e.ok()) beforeOk++;
                } else if (e.startedNanos() - firstSuccessAfterKill > 0 && e.startedNanos() - restartNanos < 0) {
                    downAll++;
                    if (e.ok()) downOk++;
                    else failedWhileDown.add(e);
                }
            }
            log(String.format("failover: first transaction on partition %d to succeed after the kill ended %.2f s after it",
                    watched, failoverSeconds));
            log(String.format("before the kill: %d of %d transactions succeeded; with node %d down, after the failover: %d of %d (%.3f%%)",
                    beforeOk, beforeAll, KILLED_NODE, downOk, downAll, downAll == 0 ? 0 : 100.0 * downOk / downAll));
            log(String.format("transactions: reads %d (%d ok, %d in two rounds), writes %d (%d acknowledged, %d aborted as "
                            + "known, %d unconfirmed: %d committed, %d aborted, %d unsettled)", result.readsAttempted(),
                    result.readsOk(), result.readsInTwoRounds(), result.writesAttempted(), result.writesAcknowledged(),
                    result.writesAbortedKnown(), result.unknown(), result.unknownCommitted(), result.unknownAborted(),
                    result.unknownUnsettled()));
            result.errors().forEach((type, n) -> log("errors " + type + ": " + n));
            log("checker: " + check.summary() + "; lost acknowledged writes: " + result.lostAcknowledged()
                    + "; newest-write violations: " + result.violations().size());

            assertThat(check.ok()).as("TCC anomalies: %s", check.anomalies().stream().limit(20).toList()).isTrue();
            assertThat(result.violations()).as("lost or misplaced writes").isEmpty();
            assertThat(result.lostAcknowledged()).isZero();
            assertThat(firstSuccessAfterKill).as("a transaction on partition %d succeeded while its preferred node was down", watched)
                    .isLessThan(restartNanos);
            assertThat(downAll).isPositive();
            assertThat(downOk).as("transactions that succeeded with one node down, after the failover").isGreaterThanOrEqualTo(downAll * 99 / 100);
        }
    }
}
