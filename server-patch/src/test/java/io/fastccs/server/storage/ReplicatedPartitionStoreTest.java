package io.fastccs.server.storage;

import io.fastccs.protocol.api.PartitionStore.Decision;
import io.fastccs.protocol.api.PartitionStore.Recovered;
import io.fastccs.protocol.api.PartitionStore.TxnRecord;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.replication.GroupMember;
import io.fastccs.replication.GroupSpec;
import io.fastccs.replication.ReplicaServer;
import io.fastccs.replication.ReplicaSettings;
import io.fastccs.replication.ReplicatedLog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replicated store's write path on a real Cassandra node in this JVM and a real one-member Ratis group: writes reach
 * the tables only through the group's log and its applier, a new leader's store recovers them, and a snapshot installed
 * from another member replaces what this member held of the group.
 */
class ReplicatedPartitionStoreTest {
    private static final int GROUP = 41; // a partition index no other storage test uses
    private static final int PARTITIONS = 64;
    private static final String NODE = "node-a";

    @TempDir
    static Path raftDir;
    private static ReplicaServer server;
    private static ReplicatedLog log;
    private static GroupApplier applier;

    @BeforeAll
    static void start() throws Exception {
        EmbeddedCassandra.startFresh();
        GroupApplier.prepare();
        int port;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            port = s.getLocalPort();
        }
        GroupMember self = new GroupMember(NODE, "127.0.0.1", port, 1);
        applier = new GroupApplier(GROUP, NODE, new GroupApplier.Leadership() {
            @Override public void onLeaderReady(int group, long term) { }
            @Override public void onSteppedDown(int group, long term) { }
        });
        server = ReplicaServer.start(self, raftDir.resolve("raft"), ReplicaSettings.DEFAULT,
                Map.of(new GroupSpec(GROUP, List.of(self)), applier));
        log = server.log(GROUP);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!log.isLeaderReady()) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("the one-member group elected no leader");
            Thread.sleep(50);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) server.close();
    }

    private static CassandraPartitionStore openAtLeader() {
        return CassandraPartitionStore.openReplicated(CassandraPartitionStore.Settings.of(GROUP, PARTITIONS, 1000), log,
                applier.appliedTimestamp());
    }

    private static Version version(long sequence, String value) {
        long[] clock = new long[PARTITIONS];
        clock[GROUP] = sequence;
        return new Version(sequence, VectorClock.of(clock), 0, value.getBytes(StandardCharsets.UTF_8));
    }

    private static VectorClock clock(long self) {
        long[] c = new long[PARTITIONS];
        c[GROUP] = self;
        return VectorClock.of(c);
    }

    private static List<String> values(List<Version> versions) {
        return versions.stream().map(v -> new String(v.value(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void writesCommitThroughTheLogAndTheNextLeaderRecoversThemAndASnapshotReplacesTheGroupsRows() throws Exception {
        Key key = Key.of("replicated-" + UUID.randomUUID());
        Key later = Key.of("replicated-later-" + UUID.randomUUID());
        TxnId txn = new TxnId(7, 1);
        long entriesBefore = applier.appliedEntries();
        try (CassandraPartitionStore leader = openAtLeader()) {
            leader.putVersion(key, version(1, "one"));
            leader.savePrepared(new TxnRecord(txn, 5, GROUP, List.of(GROUP),
                    List.of(new KeyValue(key, "two".getBytes(StandardCharsets.UTF_8))), clock(0), 1_234_000L, Outcome.UNDECIDED, null, 0));
            leader.saveDecision(new Decision(txn, Outcome.COMMITTED, clock(5), 1_234_567L, List.of(GROUP), 123));
            // The leader sees its own writes at once, before they commit.
            assertThat(values(leader.versions(key))).containsExactly("one");
            leader.whenDurable().get(30, TimeUnit.SECONDS);
            leader.putVersion(key, version(5, "two"));
            leader.saveOutcome(txn, 5, Outcome.COMMITTED, clock(5), 1_234_567L);
            leader.saveSnapshot(clock(4), GROUP);
            leader.endOfStep(); // no message asked: the step's end puts its writes into the log
            leader.whenDurable().get(30, TimeUnit.SECONDS);
        }
        assertThat(applier.appliedEntries() - entriesBefore).as("entries applied: one per step").isGreaterThanOrEqualTo(2);

        Path snapshot = raftDir.resolve("group-" + GROUP + ".snapshot");
        TxnId kept = new TxnId(7, 2);
        try (CassandraPartitionStore next = openAtLeader()) {
            Recovered recovered = next.recover();
            assertThat(recovered.snapshot()).isEqualTo(clock(4));
            assertThat(recovered.transactions()).hasSize(1);
            assertThat(recovered.transactions().get(0).outcome()).isEqualTo(Outcome.COMMITTED);
            assertThat(recovered.decisions()).hasSize(1);
            assertThat(values(next.versions(key))).as("read from replica_versions, newest first").containsExactly("two", "one");
            next.forgetDecision(txn);
            next.saveDecision(new Decision(kept, Outcome.ABORTED, null, 0, List.of(GROUP), 456));
            next.putVersion(later, version(6, "six"));
            next.whenDurable().get(30, TimeUnit.SECONDS);
        }
        applier.takeSnapshot(snapshot);

        // A lagging member's leftovers: rows its group deleted in entries it never saw (older than the snapshot).
        Key ghost = Key.of("replicated-ghost-" + UUID.randomUUID());
        var versionsTable = org.apache.cassandra.db.Keyspace.open(StorageSchema.LOCAL_KEYSPACE)
                .getColumnFamilyStore(StorageSchema.REPLICA_VERSIONS).metadata();
        var ghostRow = org.apache.cassandra.db.partitions.PartitionUpdate.simpleBuilder(versionsTable, GROUP,
                java.nio.ByteBuffer.wrap(ghost.unsafeBytes())).timestamp(1);
        ghostRow.row(1L).add("clock", java.nio.ByteBuffer.wrap(RecordCodec.encodeClock(clock(1))))
                .add("value", java.nio.ByteBuffer.wrap("ghost".getBytes(StandardCharsets.UTF_8)));
        new org.apache.cassandra.db.Mutation(ghostRow.build()).apply(false);
        try (CassandraPartitionStore before = openAtLeader()) {
            assertThat(values(before.versions(ghost))).as("the leftover is there before the install").containsExactly("ghost");
        }

        Path fromAnother = raftDir.resolve("from-another-member.snapshot");
        Files.copy(snapshot, fromAnother);
        rewriteWriter(fromAnother, "node-b");
        applier.installSnapshot(1, fromAnother);
        try (CassandraPartitionStore afterInstall = openAtLeader()) {
            Recovered recovered = afterInstall.recover();
            assertThat(recovered.decisions()).as("the snapshot's decisions, not the forgotten one")
                    .extracting(Decision::txnId).containsExactly(kept);
            assertThat(recovered.snapshot()).isEqualTo(clock(4));
            assertThat(values(afterInstall.versions(key))).containsExactly("two", "one");
            assertThat(values(afterInstall.versions(later))).containsExactly("six");
            assertThat(afterInstall.versions(ghost)).as("a row the snapshot does not hold is gone").isEmpty();
            // Later entries still win over the rewritten rows.
            afterInstall.putVersion(key, version(9, "nine"));
            afterInstall.removeVersionsOlderThan(key, version(9, "nine"));
            afterInstall.whenDurable().get(30, TimeUnit.SECONDS);
        }
        try (CassandraPartitionStore last = openAtLeader()) {
            assertThat(values(last.versions(key))).containsExactly("nine");
        }
    }

    /** One entry writing a version of {@code key} in group {@code group}'s replica_versions, at {@code timestamp}. */
    private static byte[] entryWriting(int group, String key, long timestamp) {
        var table = org.apache.cassandra.db.Keyspace.open(StorageSchema.LOCAL_KEYSPACE)
                .getColumnFamilyStore(StorageSchema.REPLICA_VERSIONS).metadata();
        var row = org.apache.cassandra.db.partitions.PartitionUpdate.simpleBuilder(table, group,
                java.nio.ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8))).timestamp(timestamp);
        row.row(1L).add("clock", java.nio.ByteBuffer.wrap(RecordCodec.encodeClock(clock(1))))
                .add("value", java.nio.ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8)));
        return MutationBatch.encode(List.of(new org.apache.cassandra.db.Mutation(row.build())));
    }

    private static boolean holds(int group, String key) {
        return !org.apache.cassandra.cql3.QueryProcessor.executeInternal("SELECT value FROM " + StorageSchema.LOCAL_KEYSPACE
                + "." + StorageSchema.REPLICA_VERSIONS + " WHERE partition = ? AND key = ?", group,
                java.nio.ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8))).isEmpty();
    }

    @Test
    void aRestartSkipsTheWritesOfEntriesFlushedBeforeItAndReplaysTheRest(@TempDir Path dataDir) throws Exception {
        int group = 42;
        GroupApplier.Leadership none = new GroupApplier.Leadership() {
            @Override public void onLeaderReady(int g, long term) { }
            @Override public void onSteppedDown(int g, long term) { }
        };
        String run = UUID.randomUUID().toString();
        GroupApplier first = new GroupApplier(group, NODE, none, dataDir, 3);
        for (long index = 1; index <= 4; index++) first.apply(index, entryWriting(group, run + "-" + index, 100 + index));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (first.flushedIndex() < 3 && System.nanoTime() < deadline) Thread.sleep(50);
        assertThat(first.flushedIndex()).as("a flush every 3 entries, recorded once it completed").isEqualTo(3);
        for (long index = 1; index <= 4; index++) assertThat(holds(group, run + "-" + index)).isTrue();

        // The same member restarted: entries up to the marker are on disk, so their writes are skipped; an entry that
        // writes something else at such an index shows it (a real replay writes the same rows again).
        GroupApplier restarted = new GroupApplier(group, NODE, none, dataDir, 3);
        assertThat(restarted.flushedIndex()).isEqualTo(3);
        assertThat(restarted.appliedTimestamp()).as("the largest timestamp up to the marker, from the marker").isEqualTo(103);
        restarted.apply(2, entryWriting(group, run + "-skipped", 500));
        assertThat(holds(group, run + "-skipped")).as("an entry up to the marker is not written again").isFalse();
        restarted.apply(4, entryWriting(group, run + "-replayed", 600));
        assertThat(holds(group, run + "-replayed")).as("an entry after the marker is replayed").isTrue();

        // Another member id (a replacement under a new id) does not trust the marker.
        assertThat(new GroupApplier(group, "node-z", none, dataDir, 3).flushedIndex()).isEqualTo(-1);
    }

    /** The snapshot file as if another member had written it (its writer id follows the magic number). */
    private static void rewriteWriter(Path file, String writer) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        java.io.DataInputStream in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes));
        int magic = in.readInt();
        in.readUTF();
        byte[] rest = in.readAllBytes();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream data = new java.io.DataOutputStream(out);
        data.writeInt(magic);
        data.writeUTF(writer);
        data.write(rest);
        data.flush();
        Files.write(file, out.toByteArray());
    }
}
