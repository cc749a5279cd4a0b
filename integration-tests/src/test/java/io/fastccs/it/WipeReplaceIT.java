package io.fastccs.it;

import io.fastccs.check.CheckResult;
import io.fastccs.client.FastCcsClient;
import io.fastccs.testkit.CheckedWorkload;
import io.fastccs.tools.cluster.ClusterException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.fastccs.it.TestCluster.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A node whose disk was wiped comes back as a replacement of itself (docs/design/replication-replacement.md, "A replica
 * whose disk was wiped"), on three real nodes at replication factor 3 (subnet 62), under a checked workload: first a
 * node that lost only its consensus storage is refused (under its old id it would vote with a forgotten term and log);
 * then the node is wiped and replaced (Cassandra's replace_address_first_boot at its own address), rejoins its groups
 * under a new member id, is caught up by snapshots and leads its own range again; then another node is killed, so every
 * group needs the replacement's copy, and the workload goes on. The history must be TCC-clean, no acknowledged write
 * lost, every written key readable; finally the replacement restarts as a plain member under its new id.
 */
class WipeReplaceIT {
    private static final int SUBNET = 62;
    private static final int NODES = 3;
    private static final int WIPED = 2;
    private static final int KILLED_AFTER = 3;
    /** Small, so the groups snapshot and the replacement is caught up by a snapshot install, not the whole log. */
    private static final int SNAPSHOT_INTERVAL = 50;
    private static final Duration NODE_START = Duration.ofMinutes(6);

    private static SubnetCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = SubnetCluster.start("wipe-replace", SUBNET, NODES,
                Map.of("replication_factor", "3", "raft_snapshot_interval", Integer.toString(SNAPSHOT_INTERVAL)));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) cluster.close();
    }

    private static FastCcsClient newClient() {
        return cluster.newClient();
    }

    @Test
    void aWipedNodeRejoinsAsANewMemberAndTheGroupsLiveOnItsCopy() throws Exception {
        int ownPartition = cluster.view().partitionOfNode(WIPED);
        Path nodeDir = cluster.local().dir().resolve("node" + WIPED);
        try (FastCcsClient first = newClient(); FastCcsClient second = newClient()) {
            long seed = Long.getLong("fastccs.it.seed", ThreadLocalRandom.current().nextLong());
            log("workload seed " + seed + " (-Dfastccs.it.seed=" + seed + " repeats its choice of keys and operations)");
            CheckedWorkload workload = new CheckedWorkload(cluster.view(), List.of(first, second), "w:", 8, 300, 5, 0.3, seed);
            AtomicLong okSinceMark = new AtomicLong();
            workload.observe(new CheckedWorkload.TxnObserver() {
                @Override
                public void ended(boolean write, long[] keys, long startedNanos, String error) {
                    if (error == null) okSinceMark.incrementAndGet();
                }
            });
            workload.start();
            Thread.sleep(15_000);

            // Only the consensus storage lost, Cassandra's data kept: not a replacement, so the node must refuse.
            cluster.local().kill(WIPED);
            deleteTree(nodeDir.resolve("fastccs-raft"));
            assertThatThrownBy(() -> restart(WIPED, NODE_START))
                    .as("a node whose consensus storage is lost, restarted as itself")
                    .isInstanceOf(ClusterException.class)
                    .hasMessageContaining("plugin FAILED")
                    .hasMessageContaining("replace_address_first_boot=127.0." + SUBNET + "." + WIPED);
            log("node " + WIPED + " without its consensus storage refused to start its groups, as it must");

            long replaceStarted = System.nanoTime();
            var report = cluster.local().replace(WIPED, NODE_START);
            log(String.format("node %d wiped and replaced: serving %.1f s after its start (%.1f s for the whole replacement)",
                    WIPED, report.toServing().toMillis() / 1000.0, (System.nanoTime() - replaceStarted) / 1e9));
            String replacementLog = sinceLast(Files.readString(cluster.local().systemLog(WIPED)), "FastCCS consensus start:");
            Matcher start = Pattern.compile("FastCCS consensus start: REPLACE as member (\\S+) in place of (\\S+) in groups").matcher(replacementLog);
            assertThat(start.find()).as("the replacement's start line in:%n%s", head(replacementLog)).isTrue();
            assertThat(start.group(1)).as("never the old id").isNotEqualTo(start.group(2)).isEqualTo(start.group(2) + ".2");

            okSinceMark.set(0);
            Thread.sleep(15_000);
            String afterCatchUp = sinceLast(Files.readString(cluster.local().systemLog(WIPED)), "FastCCS consensus start:");
            for (int group = 0; group < NODES; group++)
                assertThat(afterCatchUp).as("group %d caught the replacement up with a snapshot", group)
                        .containsPattern("FastCCS group " + group + ": installed \\S+'s snapshot");
            assertThat(okSinceMark.get()).as("transactions succeeded after the replacement").isPositive();

            // Every group now needs the replacement's copy for a majority.
            cluster.local().kill(KILLED_AFTER);
            log("SIGKILLed node " + KILLED_AFTER + ": every group's majority includes the replacement");
            okSinceMark.set(0);
            Thread.sleep(20_000);
            long okWithoutThird = okSinceMark.get();
            workload.stop();

            CheckedWorkload.Result result = workload.finish(first, Duration.ofSeconds(6), null, TestCluster::log);
            CheckResult check = result.check();
            log(String.format("transactions: reads %d (%d ok), writes %d (%d acknowledged, %d aborted as known, %d unconfirmed:"
                            + " %d committed, %d aborted, %d unsettled); %d succeeded with node %d down",
                    result.readsAttempted(), result.readsOk(), result.writesAttempted(), result.writesAcknowledged(),
                    result.writesAbortedKnown(), result.unknown(), result.unknownCommitted(), result.unknownAborted(),
                    result.unknownUnsettled(), okWithoutThird, KILLED_AFTER));
            result.errors().forEach((type, n) -> log("errors " + type + ": " + n));
            log("checker: " + check.summary() + "; lost acknowledged writes: " + result.lostAcknowledged()
                    + "; newest-write violations: " + result.violations().size());

            assertThat(check.ok()).as("TCC anomalies: %s", check.anomalies().stream().limit(20).toList()).isTrue();
            assertThat(result.violations()).as("lost, misplaced or unreadable writes").isEmpty();
            assertThat(result.lostAcknowledged()).isZero();
            assertThat(result.writesAcknowledged()).isPositive();
            assertThat(okWithoutThird).as("transactions that succeeded on the replacement and one other node").isPositive();
        }

        // Its priority kept, the replacement leads its own range again: Ratis hands leadership to a higher-priority
        // member once that member's log matches the leader's last entry, which under steady writes can take a while.
        long waitFrom = System.nanoTime();
        while (!sinceLast(Files.readString(cluster.local().systemLog(WIPED)), "FastCCS consensus start:")
                .contains("FastCCS group " + ownPartition + ": serving as leader")) {
            assertThat(System.nanoTime() - waitFrom).as("the replacement leads its own range (group %d) again within 60 s of "
                    + "the workload's end", ownPartition).isLessThan(Duration.ofSeconds(60).toNanos());
            Thread.sleep(500);
        }
        log(String.format("node %d leads its own range again (%.1f s after the workload ended)", WIPED, (System.nanoTime() - waitFrom) / 1e9));

        // A later start of the replacement is a plain restart: no replacement asked of Cassandra, its groups resumed
        // under the id it rejoined with.
        cluster.local().kill(WIPED);
        restart(WIPED, NODE_START);
        String launches = Files.readString(nodeDir.resolve("logs/stdout.log"));
        String lastLaunch = launches.substring(launches.lastIndexOf("node " + WIPED + ": "));
        assertThat(lastLaunch.lines().findFirst().orElseThrow()).doesNotContain("replace_address");
        assertThat(sinceLast(Files.readString(cluster.local().systemLog(WIPED)), "FastCCS consensus start:"))
                .containsPattern("FastCCS consensus start: RESUME as member \\S+\\.2\\b");
    }

    /** Restarts a node, waiting while a SIGKILLed JVM's ports are still bound (for up to a minute). */
    private static void restart(int node, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (true) {
            try {
                cluster.local().restart(node, timeout);
                return;
            } catch (ClusterException e) {
                if (!String.valueOf(e.getMessage()).contains("in use") || System.nanoTime() - deadline > 0) throw e;
                Thread.sleep(1_000);
            }
        }
    }

    private static String sinceLast(String text, String marker) {
        int at = text.lastIndexOf(marker);
        return at < 0 ? "" : text.substring(at);
    }

    private static String head(String text) {
        return text.length() < 2_000 ? text : text.substring(0, 2_000);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
