package io.fastccs.replication;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Three real Ratis servers over gRPC on 127.0.70.k: what the host of a replicated partition relies on. */
class ReplicatedLogTest {
    private static final Duration ELECTION = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> appendAll(ReplicatedLog log, String prefix, int n) throws Exception {
        List<CompletableFuture<Long>> futures = new ArrayList<>();
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sent.add(prefix + i);
            futures.add(log.append(bytes(prefix + i)));
        }
        long last = 0;
        for (CompletableFuture<Long> f : futures) {
            long index = f.get(30, TimeUnit.SECONDS);
            assertThat(index).as("log positions grow in the order of appends").isGreaterThan(last);
            last = index;
        }
        return sent;
    }

    @Test
    void everyMemberAppliesTheCommittedBatchesInLogOrder() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST)) {
            int leader = g.awaitLeader(0, ELECTION);
            List<String> sent = appendAll(g.log(leader, 0), "b", 100);

            assertThat(g.appliers[leader][0].applied()).as("the leader applied each before its append completed").containsExactlyElementsOf(sent);
            for (int k = 0; k < 3; k++) {
                int node = k;
                TestGroups.await(() -> g.appliers[node][0].applied().size() == sent.size(), Duration.ofSeconds(20), "node " + node + " applied all");
                assertThat(g.appliers[k][0].applied()).as("node %d", k).containsExactlyElementsOf(sent);
            }
            assertThat(g.appliers[leader][0].leaderReadyTerms).hasSize(1);
        }
    }

    @Test
    void aFollowerRefusesAppendsAndReadsAndNamesTheLeader() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST)) {
            int leader = g.awaitLeader(0, ELECTION);
            int follower = (leader + 1) % 3;
            TestGroups.await(() -> g.log(follower, 0).leaderId().isPresent(), Duration.ofSeconds(10), "the follower knows its leader");

            assertThatThrownBy(() -> g.log(follower, 0).append(bytes("x")).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(NotLeaderException.class)
                    .satisfies(e -> assertThat(((NotLeaderException) e).leaderHint()).contains("n" + (leader + 1)));
            assertThatThrownBy(() -> g.log(follower, 0).readBarrier().get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(NotLeaderException.class);
            g.log(leader, 0).readBarrier().get(10, TimeUnit.SECONDS); // the leader may read
            assertThat(g.appliers[follower][0].applied()).as("the refused append changed nothing").isEmpty();
        }
    }

    @Test
    void whenTheLeaderDiesAnotherLeadsAndNothingCommittedIsLostOrReordered() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST)) {
            int first = g.awaitLeader(0, ELECTION);
            List<String> before = appendAll(g.log(first, 0), "a", 30);
            long firstTerm = g.log(first, 0).term();

            g.stop(first);
            int second = g.awaitLeader(0, ELECTION);
            assertThat(second).isNotEqualTo(first);
            assertThat(g.log(second, 0).term()).isGreaterThan(firstTerm);
            assertThat(g.appliers[second][0].leaderReadyTerms).as("the new leader was told it leads").isNotEmpty();
            assertThat(g.appliers[second][0].applied()).as("the new leader has applied all that was committed")
                    .containsExactlyElementsOf(before);
            List<String> after = appendAll(g.log(second, 0), "c", 30);

            g.start(first); // the old leader comes back from its storage and catches up
            List<String> all = new ArrayList<>(before);
            all.addAll(after);
            TestGroups.await(() -> g.appliers[first][0].applied().size() >= all.size(), Duration.ofSeconds(30), "the old leader caught up");
            assertThat(g.appliers[first][0].applied()).as("replayed from its log, then the rest").endsWith(after.toArray(String[]::new));
            assertThat(g.appliers[first][0].applied()).containsSubsequence(all);
        }
    }

    @Test
    void aMemberFarBehindIsCaughtUpBySnapshot() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST.withSnapshotEvery(10))) {
            int leader = g.awaitLeader(0, ELECTION);
            int lagging = (leader + 2) % 3;
            List<String> before = appendAll(g.log(leader, 0), "a", 5);
            TestGroups.await(() -> g.appliers[lagging][0].applied().size() == 5, Duration.ofSeconds(10), "all have the first five");
            g.stop(lagging);
            List<String> meanwhile = appendAll(g.log(leader, 0), "m", 60); // snapshots and purges the log behind it

            g.start(lagging);
            List<String> all = new ArrayList<>(before);
            all.addAll(meanwhile);
            TestGroups.await(() -> g.appliers[lagging][0].applied().equals(all), Duration.ofSeconds(30), "the lagging member has everything");
            assertThat(g.appliers[lagging][0].restoredAt).as("it got a snapshot, not the purged log").isPositive();
            TestGroups.await(() -> g.snapshotFiles(leader, 0).size() <= 2, Duration.ofSeconds(10),
                    "the leader keeps its two newest snapshots of six");
        }
    }

    @Test
    void aMemberWhoseDiskWasWipedRejoinsAsANewMemberAndCatchesUp() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST.withSnapshotEvery(10))) {
            int leader = g.awaitLeader(0, ELECTION);
            int wiped = (leader + 1) % 3;
            List<String> before = appendAll(g.log(leader, 0), "a", 40);
            String oldId = g.nodes.get(wiped).nodeId();

            // Restarted on an empty disk under its old id it would vote with a forgotten term: refused.
            g.stop(wiped);
            assertThatThrownBy(() -> ReplicaServer.startReplacing(g.nodes.get(wiped), oldId, dir.resolve("other"),
                    g.settings, Map.of())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("new node id");
            g.start(wiped); // a plain restart on its own storage is fine...
            assertThatThrownBy(() -> {
                g.stop(wiped);
                ReplicaServer.startReplacing(new GroupMember(oldId + "b", "127.0.70.9", 1, 0), oldId,
                        dir.resolve("node" + (wiped + 1)), g.settings, Map.of());
            }).as("...but a replacement must start from an empty disk").isInstanceOf(IOException.class)
                    .hasMessageContaining("not a replacement");

            g.replaceWiped(wiped, oldId + "b");
            List<String> after = appendAll(g.log(g.awaitLeader(0, ELECTION), 0), "c", 20);
            List<String> all = new ArrayList<>(before);
            all.addAll(after);
            TestGroups.await(() -> g.appliers[wiped][0].applied().equals(all), Duration.ofSeconds(30),
                    "the replacement holds everything");
            assertThat(g.appliers[wiped][0].restoredAt).as("it started from a snapshot").isPositive();
            assertThat(g.log(wiped, 0).group().hasMember(oldId)).isFalse();
        }
    }

    /**
     * The replacement takes the old member's address while every group keeps appending. Ratis routes a request to a
     * server by group only, so while a group still names the old id, its leader's log appender for that id would reach
     * the new server and be taken as addressed to it (a snapshot install that set a configuration without the new
     * member, after which its group shut itself down). The groups drop the old member before the new server listens,
     * and add the new one after; each group of the replacement must end up holding exactly what the others hold.
     */
    @Test
    void aReplacementWhileAppendsGoOnTakesTheOldIdsAddressButNeverItsTraffic() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 3, TestGroups.FAST.withSnapshotEvery(10))) {
            for (int r = 0; r < 3; r++) g.awaitLeader(r, ELECTION);
            int wiped = 1;
            String oldId = g.nodes.get(wiped).nodeId();
            List<List<String>> acknowledged = new ArrayList<>();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int range = 0; range < 3; range++) {
                int r = range;
                List<String> acks = Collections.synchronizedList(new ArrayList<>());
                acknowledged.add(acks);
                Thread t = new Thread(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        try {
                            ReplicatedLog log = leaderLog(g, r);
                            if (log == null) {
                                Thread.sleep(20);
                                continue;
                            }
                            String entry = "w" + r + "-" + i;
                            log.append(bytes(entry)).get(5, TimeUnit.SECONDS);
                            acks.add(entry);
                        } catch (InterruptedException e) {
                            return;
                        } catch (Exception e) {
                            // not the leader any more, a timeout while the group changes: try the next entry
                        }
                    }
                }, "writer-" + r);
                t.start();
                writers.add(t);
            }
            TestGroups.await(() -> acknowledged.stream().allMatch(a -> a.size() > 50), Duration.ofSeconds(30),
                    "every group snapshotted a few times");

            g.replaceWiped(wiped, oldId + ".2");
            int before = acknowledged.stream().mapToInt(List::size).sum();
            TestGroups.await(() -> acknowledged.stream().mapToInt(List::size).sum() > before + 60, Duration.ofSeconds(30),
                    "appends go on after the replacement");
            stop.set(true);
            for (Thread t : writers) t.join(30_000);

            for (int range = 0; range < 3; range++) {
                int r = range;
                ReplicatedLog leader = g.log(g.awaitLeader(r, ELECTION), r);
                leader.append(bytes("end" + r)).get(30, TimeUnit.SECONDS);
                GroupSpec now = ReplicaServer.currentMembers(g.groups.get(r), g.settings).orElseThrow();
                assertThat(now.members()).as("group %d: the new member in place of the old one", r).hasSize(3);
                assertThat(now.hasMember(oldId + ".2")).as("group %d has the new member", r).isTrue();
                assertThat(now.hasMember(oldId)).as("group %d dropped the old one", r).isFalse();
                for (int k = 0; k < 3; k++) {
                    int node = k;
                    TestGroups.await(() -> g.appliers[node][r].applied().contains("end" + r), Duration.ofSeconds(30),
                            "node " + (node + 1) + " applied group " + r + " to its end");
                }
                List<String> reference = g.appliers[(wiped + 1) % 3][r].applied();
                assertThat(reference).as("group %d: every acknowledged append, in order", r)
                        .containsSubsequence(acknowledged.get(r).toArray(String[]::new));
                for (int k = 0; k < 3; k++)
                    assertThat(g.appliers[k][r].applied()).as("node %d, group %d", k + 1, r).isEqualTo(reference);
                assertThat(g.appliers[wiped][r].restoredAt).as("group %d caught the replacement up with a snapshot", r).isPositive();
            }
            TestGroups.await(() -> g.log(wiped, wiped).isLeaderReady(), Duration.ofSeconds(30),
                    "the replacement leads the group that prefers it again");
        }
    }

    /**
     * A replacement that stopped between its two steps (here: a second group never answered, after the first had
     * dropped the old member) leaves that group with the members it kept; it goes on committing with them, and the
     * next attempt, which finds no member at its address to replace, only adds itself.
     */
    @Test
    void aReplacementStoppedBetweenItsTwoStepsIsFinishedByTheNext() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST.withSnapshotEvery(10))) {
            int leader = g.awaitLeader(0, ELECTION);
            List<String> all = new ArrayList<>(appendAll(g.log(leader, 0), "a", 30));
            int wiped = (leader + 1) % 3;
            GroupMember old = g.nodes.get(wiped);
            g.stop(wiped);
            GroupSpec formed = g.groups.get(0);
            GroupMember fresh = new GroupMember(old.nodeId() + ".2", old.host(), old.port(), formed.members().get(wiped).priority());
            List<GroupMember> members = new ArrayList<>(formed.members());
            members.set(wiped, fresh);
            GroupSpec zero = new GroupSpec(0, members);
            Map<GroupSpec, ReplicaApplier> both = new LinkedHashMap<>();
            both.put(zero, new RecordingApplier());
            both.put(new GroupSpec(1, members), new RecordingApplier()); // never formed: nobody answers for it
            assertThatThrownBy(() -> ReplicaServer.startReplacing(fresh, old.nodeId(), dir.resolve("half"), g.settings, both))
                    .isInstanceOf(IOException.class).hasMessageContaining("group 1 did not remove member " + old.nodeId());
            GroupSpec kept = ReplicaServer.currentMembers(formed, g.settings).orElseThrow();
            assertThat(kept.members()).as("group 0 dropped the old member and has not added the new one").hasSize(2);
            assertThat(kept.hasMember(old.nodeId())).isFalse();
            all.addAll(appendAll(g.log(g.awaitLeader(0, ELECTION), 0), "b", 20)); // both kept members commit

            RecordingApplier applier = new RecordingApplier();
            g.servers[wiped] = ReplicaServer.startReplacing(fresh, null, dir.resolve("again"), g.settings, Map.of(zero, applier));
            g.nodes.set(wiped, fresh);
            g.groups.set(0, zero);
            g.appliers[wiped][0] = applier;
            all.addAll(appendAll(g.log(g.awaitLeader(0, ELECTION), 0), "c", 10));
            TestGroups.await(() -> applier.applied().equals(all), Duration.ofSeconds(30), "the new member holds everything");
            GroupSpec now = ReplicaServer.currentMembers(formed, g.settings).orElseThrow();
            assertThat(now.members()).hasSize(3);
            assertThat(now.hasMember(fresh.nodeId())).isTrue();
        }
    }

    private static ReplicatedLog leaderLog(TestGroups g, int range) {
        for (int k = 0; k < g.servers.length; k++) {
            ReplicaServer s = g.servers[k];
            if (s != null && s.log(range).isLeaderReady()) return s.log(range);
        }
        return null;
    }

    @Test
    void aGroupReportsItsCurrentMembersAndRefusesAReplacementMadeOnAStaleView() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST)) {
            GroupSpec formed = g.groups.get(0);
            g.awaitLeader(0, ELECTION);
            assertThat(ReplicaServer.currentMembers(formed, g.settings)).get()
                    .satisfies(now -> assertThat(now.members()).containsExactlyInAnyOrderElementsOf(formed.members()));
            assertThat(ReplicaServer.currentMembers(new GroupSpec(7, formed.members()), g.settings))
                    .as("a group never formed").isEmpty();

            int wiped = 2;
            String oldId = g.nodes.get(wiped).nodeId();
            g.replaceWiped(wiped, oldId + ".2");
            g.awaitLeader(0, ELECTION);
            // Asked with the ids of before (as a node that knows only addresses would), the group names the new member.
            GroupSpec now = ReplicaServer.currentMembers(formed, g.settings).orElseThrow();
            assertThat(now.hasMember(oldId + ".2")).isTrue();
            assertThat(now.hasMember(oldId)).isFalse();
            GroupMember replacement = now.members().stream().filter(m -> m.nodeId().equals(oldId + ".2")).findFirst().orElseThrow();
            assertThat(replacement.address()).isEqualTo(g.nodes.get(wiped).address());
            assertThat(replacement.priority()).as("the replacement keeps the priority of the member it replaced")
                    .isEqualTo(formed.members().get(wiped).priority());

            // Wiped again, but replacing the first id (a stale view): the group no longer has it and refuses the change.
            g.stop(wiped);
            GroupMember third = new GroupMember(oldId + ".3", replacement.host(), replacement.port(), replacement.priority());
            List<GroupMember> stale = new ArrayList<>(formed.members());
            stale.set(wiped, third);
            assertThatThrownBy(() -> ReplicaServer.startReplacing(third, oldId, dir.resolve("stale"), g.settings,
                    Map.of(new GroupSpec(0, stale), new RecordingApplier())))
                    .isInstanceOf(IOException.class).hasMessageContaining("did not remove member " + oldId);
            GroupSpec after = ReplicaServer.currentMembers(formed, g.settings).orElseThrow();
            assertThat(after.hasMember(oldId + ".2")).as("the member the group has is kept").isTrue();
            assertThat(after.hasMember(oldId + ".3")).isFalse();
        }
    }

    @Test
    void runningNodesJoinAGroupFormedAfterTheyStarted() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST)) {
            GroupSpec later = new GroupSpec(1, g.groups.get(0).members());
            RecordingApplier[] appliers = new RecordingApplier[3];
            for (int k = 0; k < 3; k++) {
                appliers[k] = new RecordingApplier();
                g.servers[k].join(later, appliers[k]);
            }
            int leader = g.awaitLeader(1, ELECTION);
            List<String> sent = appendAll(g.log(leader, 1), "j", 20);
            for (int k = 0; k < 3; k++) {
                int node = k;
                TestGroups.await(() -> appliers[node].applied().equals(sent), Duration.ofSeconds(20), "node " + node + " applied all");
                assertThat(g.appliers[k][0].applied()).as("the other group is untouched").isEmpty();
            }

            assertThatThrownBy(() -> g.servers[0].join(later, new RecordingApplier()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already hosts group 1");
            GroupSpec elsewhere = new GroupSpec(2, g.groups.get(0).members().subList(1, 3));
            assertThatThrownBy(() -> g.servers[0].join(elsewhere, new RecordingApplier()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a member of group 2");

            // After a restart the joined group resumes from storage, so it must be named at start.
            g.stop(0);
            assertThatThrownBy(() -> ReplicaServer.start(g.nodes.get(0), dir.resolve("node1"), g.settings,
                    Map.of(g.groups.get(0), new RecordingApplier()))).isInstanceOf(IOException.class)
                    .hasMessageContaining("name every group it is a member of at start");
            RecordingApplier restarted = new RecordingApplier();
            g.servers[0] = ReplicaServer.start(g.nodes.get(0), dir.resolve("node1"), g.settings,
                    Map.of(g.groups.get(0), new RecordingApplier(), later, restarted));
            TestGroups.await(() -> restarted.applied().equals(sent), Duration.ofSeconds(20), "node 0 replayed group 1");
        }
    }

    @Test
    void eachGroupEndsUpLedByItsPreferredNode() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 3, TestGroups.FAST)) {
            for (int range = 0; range < 3; range++) {
                int preferred = range;
                int r = range;
                TestGroups.await(() -> g.log(preferred, r).isLeaderReady(), Duration.ofSeconds(30),
                        "node " + (preferred + 1) + " leads group " + r);
            }
        }
    }

    /**
     * Appends at whichever node leads group 0, a few in flight at a time (like a partition's group commit), until
     * stopped; remembers the batches acknowledged, in order.
     */
    private static final class Writer implements AutoCloseable {
        private final TestGroups g;
        private final Thread thread;
        private final AtomicBoolean running = new AtomicBoolean(true);
        final List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());

        Writer(TestGroups g) {
            this.g = g;
            this.thread = new Thread(this::run, "test-writer");
            thread.start();
        }

        private void run() {
            int n = 0;
            while (running.get()) {
                ReplicatedLog leader = null;
                for (int k = 0; k < g.servers.length && leader == null; k++)
                    if (g.servers[k] != null && g.servers[k].log(0).isLeaderReady()) leader = g.servers[k].log(0);
                if (leader == null) {
                    sleep(20);
                    continue;
                }
                List<String> batch = new ArrayList<>();
                List<CompletableFuture<Long>> futures = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    String b = "w" + n++;
                    batch.add(b);
                    futures.add(leader.append(bytes(b)));
                }
                for (int i = 0; i < futures.size(); i++) {
                    try {
                        futures.get(i).get(10, TimeUnit.SECONDS);
                        acknowledged.add(batch.get(i));
                    } catch (Exception e) {
                        sleep(20); // not the leader any more, or it stepped down: look again
                    }
                }
            }
        }

        int count() {
            return acknowledged.size();
        }

        private static void sleep(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(30_000);
        }
    }

    /** An applier that applies nothing until opened: a member with a backlog to apply. */
    private static final class GatedApplier extends RecordingApplier {
        private final java.util.concurrent.CountDownLatch open = new java.util.concurrent.CountDownLatch(1);

        @Override
        public void apply(long index, byte[] batch) {
            try {
                open.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            super.apply(index, batch);
        }

        void open() {
            open.countDown();
        }
    }

    @Test
    void leadershipReturnsToThePreferredMemberWhileWritesGoOn() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST)) {
            TestGroups.await(() -> g.log(0, 0).isLeaderReady(), ELECTION, "node 1, the preferred member, leads");
            Writer writer = new Writer(g);
            TestGroups.await(() -> writer.count() > 100, ELECTION, "writes commit");
            g.stop(0);
            int other = g.awaitLeader(0, ELECTION);
            assertThat(other).isNotEqualTo(0);
            int beforeRestart = writer.count();
            TestGroups.await(() -> writer.count() > beforeRestart + 100, ELECTION, "writes commit at the new leader");

            g.start(0);
            TestGroups.await(() -> g.log(0, 0).isLeaderReady(), Duration.ofSeconds(40),
                    "the preferred member leads again while writes go on");
            int returned = writer.count();
            TestGroups.await(() -> writer.count() > returned + 100, ELECTION, "writes commit after the return");
            writer.close();

            List<String> acknowledged = List.copyOf(writer.acknowledged);
            for (int k = 0; k < 3; k++) {
                int node = k;
                TestGroups.await(() -> g.appliers[node][0].applied().containsAll(acknowledged), Duration.ofSeconds(30),
                        "node " + (node + 1) + " applied every acknowledged batch");
                assertThat(g.appliers[k][0].applied()).as("node %d: acknowledged batches applied in order", k + 1)
                        .containsSubsequence(acknowledged);
            }
            assertThat(g.appliers[1][0].applied()).as("every member applied the same log").isEqualTo(g.appliers[2][0].applied());
        }
    }

    /**
     * A leadership transfer that cannot complete (to the preferred member, which is down) makes Ratis refuse writes until
     * it times out; those appends must wait it out and commit, not fail: a failed append stops the leader's partition.
     */
    @Test
    void appendsWaitOutALeadershipTransferThatTimesOut() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST)) {
            TestGroups.await(() -> g.log(0, 0).isLeaderReady(), ELECTION, "node 1, the preferred member, leads");
            g.stop(0);
            int leaderNode = g.awaitLeader(0, ELECTION);
            List<String> before = appendAll(g.log(leaderNode, 0), "before", 5);
            RaftGroup group = RaftGroup.valueOf(RaftGroupId.valueOf(g.groups.get(0).groupUuid()),
                    g.groups.get(0).members().stream().map(m -> RaftPeer.newBuilder().setId(m.nodeId()).setAddress(m.address())
                            .setPriority(m.priority()).build()).toList());
            RaftPeerId leader = RaftPeerId.valueOf(g.nodes.get(leaderNode).nodeId());
            CompletableFuture<String> transfer;
            List<String> during;
            try (RaftClient client = RaftClient.newBuilder().setRaftGroup(group).setLeaderId(leader)
                    .setProperties(new RaftProperties()).setRetryPolicy(RetryPolicies.noRetry()).build()) {
                transfer = CompletableFuture.supplyAsync(() -> {
                    try {
                        return "reply " + client.admin().transferLeadership(RaftPeerId.valueOf(g.nodes.get(0).nodeId()), leader, 1000);
                    } catch (IOException e) {
                        return e.toString();
                    }
                });
                Thread.sleep(200); // the transfer is under way: Ratis refuses writes while it lasts
                during = appendAll(g.log(leaderNode, 0), "during", 20); // fails on a refused append
                assertThat(transfer.join()).as("the transfer to a member that is down timed out").contains("TIMED_OUT");
            }
            assertThat(g.log(leaderNode, 0).isLeaderReady()).as("the leader still leads").isTrue();
            List<String> after = appendAll(g.log(leaderNode, 0), "after", 5);
            List<String> all = new ArrayList<>(before);
            all.addAll(during);
            all.addAll(after);
            TestGroups.await(() -> g.appliers[leaderNode][0].applied().containsAll(all), Duration.ofSeconds(20),
                    "the leader applied every batch");
            assertThat(g.appliers[leaderNode][0].applied()).as("applied once each, in the order appended").containsSubsequence(all)
                    .doesNotHaveDuplicates();
        }
    }

    @Test
    void aPreferredMemberWithABacklogToApplyDoesNotTakeLeadershipUntilItHasAppliedIt() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST)) {
            TestGroups.await(() -> g.log(0, 0).isLeaderReady(), ELECTION, "node 1, the preferred member, leads");
            Writer writer = new Writer(g);
            TestGroups.await(() -> writer.count() > 100, ELECTION, "writes commit");
            g.stop(0);
            g.awaitLeader(0, ELECTION);

            GatedApplier gated = new GatedApplier();
            try {
                g.appliers[0][0] = gated;
                g.servers[0] = ReplicaServer.start(g.nodes.get(0), dir.resolve("node1"), g.settings, Map.of(g.groups.get(0), gated));
                TestGroups.await(() -> g.log(0, 0).leaderId().isPresent(), ELECTION, "node 1 follows the leader");
                // With its applier stuck, node 1 could serve nothing as leader: the group must keep committing meanwhile.
                for (int second = 0; second < 8; second++) {
                    int before = writer.count();
                    TestGroups.await(() -> writer.count() > before, Duration.ofSeconds(5),
                            "writes keep committing while node 1 has a backlog to apply");
                    Thread.sleep(1000);
                }
                gated.open();
                TestGroups.await(() -> g.log(0, 0).isLeaderReady(), Duration.ofSeconds(40),
                        "node 1 leads again once it has applied its backlog");
            } finally {
                gated.open(); // a failed check must fail the test, not hang closing a member stuck in its applier
                writer.close();
            }
        }
    }

    @Test
    void aMemberElectedWithABacklogToApplyHandsLeadershipToACaughtUpOne() throws Exception {
        try (TestGroups g = new TestGroups(dir, 3, 1, TestGroups.FAST.withStepDownBacklog(50))) {
            TestGroups.await(() -> g.log(0, 0).isLeaderReady(), ELECTION, "node 1, the preferred member, leads");
            Writer writer = new Writer(g);
            TestGroups.await(() -> writer.count() > 100, ELECTION, "writes commit");
            g.stop(1);
            GatedApplier gated = new GatedApplier();
            try {
                g.appliers[1][0] = gated;
                g.servers[1] = ReplicaServer.start(g.nodes.get(1), dir.resolve("node2"), g.settings, Map.of(g.groups.get(0), gated));
                TestGroups.await(() -> g.log(1, 0).leaderId().isPresent(), ELECTION, "node 2 follows the leader");
                int restarted = writer.count();
                TestGroups.await(() -> writer.count() > restarted + 200, ELECTION, "node 2's backlog grows");

                // Node 2's log is complete, so it may win the election; stuck applying, it could serve nothing as leader.
                g.stop(0);
                int stopped = writer.count();
                TestGroups.await(() -> g.log(2, 0).isLeaderReady() && writer.count() > stopped + 50, Duration.ofSeconds(40),
                        "node 3, caught up, leads and writes commit again");
                assertThat(g.log(1, 0).isLeaderReady()).isFalse();
            } finally {
                writer.close();
                gated.open(); // a failed check must fail the test, not hang closing a member stuck in its applier
            }
        }
    }
}
