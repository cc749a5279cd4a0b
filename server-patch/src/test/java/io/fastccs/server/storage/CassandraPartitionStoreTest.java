package io.fastccs.server.storage;

import io.fastccs.protocol.primitives.CommitOrder;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.protocol.api.PartitionStore.Decision;
import io.fastccs.protocol.api.PartitionStore.Recovered;
import io.fastccs.protocol.api.PartitionStore.TxnRecord;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import org.apache.cassandra.cql3.QueryProcessor;
import org.apache.cassandra.cql3.UntypedResultSet;
import org.apache.cassandra.db.ConsistencyLevel;
import org.apache.cassandra.db.Keyspace;
import org.apache.cassandra.locator.LocalStrategy;
import org.apache.cassandra.schema.Schema;
import org.apache.cassandra.schema.TableMetadata;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link CassandraPartitionStore} on a real Cassandra node in this JVM ({@link EmbeddedCassandra}). */
class CassandraPartitionStoreTest {
    private static final int N = 3;
    /** Each test stores its records under its own partition index, so tests do not see each other's records. */
    private static final AtomicInteger nextSelf = new AtomicInteger();

    @BeforeAll
    static void startNode() throws Exception {
        EmbeddedCassandra.startFresh();
    }

    private static CassandraPartitionStore open(int self, int cacheCapacity) {
        // Records are per partition index; a wide cluster gives each test its own index.
        return CassandraPartitionStore.open(CassandraPartitionStore.Settings.of(self, 64, cacheCapacity));
    }

    private static int newSelf() {
        return nextSelf.getAndIncrement();
    }

    private static Key uniqueKey(String name) {
        return Key.of(name + "-" + UUID.randomUUID());
    }

    private static Version version(long sequence, long... clock) {
        return new Version(sequence, VectorClock.of(clock), 0, ("v" + sequence).getBytes(StandardCharsets.UTF_8));
    }

    private static void await(CompletableFuture<Void> f) throws Exception {
        f.get(30, TimeUnit.SECONDS);
    }

    /** Compares version lists by content (Version holds a byte array, so records do not compare by value). */
    private static void assertSameVersions(List<Version> actual, List<Version> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i).sequence()).as("sequence at %d", i).isEqualTo(expected.get(i).sequence());
            assertThat(actual.get(i).commitClock()).as("clock at %d", i).isEqualTo(expected.get(i).commitClock());
            assertThat(actual.get(i).commitTime()).as("commit time at %d", i).isEqualTo(expected.get(i).commitTime());
            assertThat(actual.get(i).value()).as("value at %d", i).isEqualTo(expected.get(i).value());
        }
    }

    @Test
    void schemaCreationIsIdempotent() {
        assertThat(LocalKeyspace.registeredBeforeReplay()).isTrue();
        try (CassandraPartitionStore first = open(newSelf(), 10)) {
            assertThat(first.stats().cachedKeys()).isZero();
            UUID version = Schema.instance.getVersion();
            StorageSchema.ensureReplicatedKeyspace();
            LocalKeyspace.ensureRegistered();
            try (CassandraPartitionStore again = open(newSelf(), 10)) {
                assertThat(again.stats().cachedKeys()).isZero();
            }
            assertThat(Schema.instance.getVersion()).as("schema version after creating it again").isEqualTo(version);
        }
        TableMetadata versions = Schema.instance.getTableMetadata(StorageSchema.KEYSPACE, StorageSchema.VERSIONS);
        assertThat(versions.id).isEqualTo(StorageSchema.VERSIONS_ID);
        assertThat(Schema.instance.getTableMetadata(StorageSchema.LOCAL_KEYSPACE, StorageSchema.TRANSACTIONS).id)
                .isEqualTo(StorageSchema.TRANSACTIONS_ID);
        assertThat(Schema.instance.getTableMetadata(StorageSchema.LOCAL_KEYSPACE, StorageSchema.DECISIONS).id)
                .isEqualTo(StorageSchema.DECISIONS_ID);
        assertThat(Schema.instance.getTableMetadata(StorageSchema.LOCAL_KEYSPACE, StorageSchema.SNAPSHOTS).id)
                .isEqualTo(StorageSchema.SNAPSHOTS_ID);
        assertThat(Keyspace.open(StorageSchema.LOCAL_KEYSPACE).getReplicationStrategy()).isInstanceOf(LocalStrategy.class);
        // Local, so never part of the replicated (gossiped) schema.
        assertThat(Schema.instance.distributedKeyspaces().containsKeyspace(StorageSchema.LOCAL_KEYSPACE)).isFalse();
        assertThat(Schema.instance.distributedKeyspaces().containsKeyspace(StorageSchema.KEYSPACE)).isTrue();
    }

    /** What an operator sees through CQL (the coordinator's read path, as cqlsh would use). */
    @Test
    void tablesAreReadableThroughCql() throws Exception {
        int self = newSelf();
        Key key = uniqueKey("cql");
        try (CassandraPartitionStore store = open(self, 10)) {
            store.putVersion(key, version(5, 5, 0, 1));
            store.savePrepared(record(self, 9, new TxnId(1, 2), List.of(kv("a", "b"))));
            await(store.whenDurable());
        }
        UntypedResultSet versions = QueryProcessor.execute("SELECT sequence, clock, value FROM fastccs.versions WHERE key = ?",
                ConsistencyLevel.ONE, java.nio.ByteBuffer.wrap(key.toBytes()));
        assertThat(versions.size()).isEqualTo(1);
        assertThat(versions.one().getLong("sequence")).isEqualTo(5);
        assertThat(RecordCodec.decodeCommit(versions.one().getBytes("clock"))).isEqualTo(new CommitOrder(0, VectorClock.of(5, 0, 1)));
        UntypedResultSet records = QueryProcessor.execute("SELECT sequence, txn_client FROM fastccs_local.transactions WHERE partition = ?",
                ConsistencyLevel.ONE, self);
        assertThat(records.one().getLong("sequence")).isEqualTo(9);
    }

    @Test
    void versionsRoundTripNewestFirstByCommitClock() throws Exception {
        Key key = uniqueKey("round-trip");
        // Sequence order differs from arbitration order: sums 5, 4, 7, 7, the tie broken lexicographically.
        List<Version> written = List.of(version(1, 1, 4, 0), version(2, 2, 1, 1), version(3, 3, 4, 0), version(4, 4, 1, 2));
        List<Version> expected = List.of(written.get(3), written.get(2), written.get(0), written.get(1));
        try (CassandraPartitionStore store = open(newSelf(), 100)) {
            assertThat(store.versions(key)).isEmpty();
            for (Version v : written) store.putVersion(key, v);
            assertSameVersions(store.versions(key), expected);
            store.putVersion(key, written.get(1)); // the same (key, sequence) again is harmless
            assertSameVersions(store.versions(key), expected);
            await(store.whenDurable());
            assertThat(store.countVersionRows(key)).isEqualTo(4);
            assertThat(store.stats().versionsWritten()).isEqualTo(4);
        }
        try (CassandraPartitionStore fresh = open(newSelf(), 100)) {
            assertSameVersions(fresh.versions(key), expected);
            assertThat(fresh.stats().cacheMisses()).isEqualTo(1);
        }
    }

    @Test
    void commitTimeOrdersVersionsBeforeTheirClocksAndSurvivesARestart() throws Exception {
        Key key = uniqueKey("commit-time");
        // The clock sums say 2 < 1 < 3; the commit times say 3 < 1 < 2, and win.
        List<Version> written = List.of(
                new Version(1, VectorClock.of(1, 4, 0), 2_000_000, bytes("v1")),
                new Version(2, VectorClock.of(2, 0, 0), 3_000_000, bytes("v2")),
                new Version(3, VectorClock.of(3, 9, 9), 1_000_000, bytes("v3")));
        List<Version> expected = List.of(written.get(1), written.get(0), written.get(2));
        try (CassandraPartitionStore store = open(newSelf(), 100)) {
            for (Version v : written) store.putVersion(key, v);
            assertSameVersions(store.versions(key), expected);
            await(store.whenDurable());
        }
        try (CassandraPartitionStore fresh = open(newSelf(), 100)) {
            List<Version> read = fresh.versions(key);
            assertSameVersions(read, expected);
            assertThat(read).extracting(Version::commitTime).containsExactly(3_000_000L, 2_000_000L, 1_000_000L);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void cachedReadIsAHitAndSeesWritesAtOnce() {
        Key key = uniqueKey("cached");
        try (CassandraPartitionStore store = open(newSelf(), 100)) {
            assertThat(store.versions(key)).isEmpty(); // a miss, which caches the empty list
            store.putVersion(key, version(7, 0, 0, 7));
            List<Version> first = store.versions(key);
            List<Version> second = store.versions(key);
            assertThat(first).hasSize(1).isSameAs(second);
            CassandraPartitionStore.Stats stats = store.stats();
            assertThat(stats.cacheMisses()).isEqualTo(1);
            assertThat(stats.cacheHits()).isEqualTo(2);
            assertThat(stats.cachedKeys()).isEqualTo(1);
            assertThatThrownBy(() -> first.add(version(8, 0, 0, 8))).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    void cachedReadAllocatesNothing() {
        Key key = uniqueKey("allocation");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        try (CassandraPartitionStore store = open(newSelf(), 100)) {
            store.putVersion(key, version(1, 1, 0, 0));
            long sizes = 0;
            for (int i = 0; i < 200_000; i++) sizes += store.versions(key).size(); // warm up the JIT
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) sizes += store.versions(key).size();
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertThat(sizes).isEqualTo(300_000);
            assertThat(allocated / 100_000).as("bytes allocated per cached read").isLessThan(8);
        }
    }

    @Test
    void missReadsTheTableAndWritesNotYetApplied() throws Exception {
        Key a = uniqueKey("miss-a");
        Key b = uniqueKey("miss-b");
        try (CassandraPartitionStore store = open(newSelf(), 1)) {
            store.putVersion(a, version(1, 1, 0, 0));
            await(store.whenDurable());
            store.versions(b); // evicts a
            assertThat(store.stats().cachedKeys()).isEqualTo(1);
            // Written while a is not cached, and read back at once: from the table plus the unapplied change.
            store.putVersion(a, version(2, 2, 0, 0));
            assertSameVersions(store.versions(a), List.of(version(2, 2, 0, 0), version(1, 1, 0, 0)));
            assertThat(store.stats().cacheMisses()).isEqualTo(2);
            await(store.whenDurable());
        }
        try (CassandraPartitionStore fresh = open(newSelf(), 1)) {
            assertSameVersions(fresh.versions(a), List.of(version(2, 2, 0, 0), version(1, 1, 0, 0)));
        }
    }

    @Test
    void removeVersionsOlderThanDeletesTheRows() throws Exception {
        Key key = uniqueKey("gc");
        // By clock sum: 9 (seq 5), 8 (seq 4), 7 (seq 6: newer sequence but older clock), 3, 2, 1.
        List<Version> written = List.of(version(1, 1, 0, 0), version(2, 2, 0, 0), version(3, 3, 0, 0),
                version(4, 4, 4, 0), version(5, 5, 4, 0), version(6, 6, 0, 1));
        try (CassandraPartitionStore store = open(newSelf(), 100)) {
            for (Version v : written) store.putVersion(key, v);
            await(store.whenDurable());
            assertThat(store.countVersionRows(key)).isEqualTo(6);

            Version newestKept = written.get(3); // keeps seq 5 and 4; removes 6 (a row deletion) and 3, 2, 1 (a range)
            store.removeVersionsOlderThan(key, newestKept);
            List<Version> expected = List.of(written.get(4), written.get(3));
            assertSameVersions(store.versions(key), expected);
            await(store.whenDurable());
            assertThat(store.countVersionRows(key)).isEqualTo(2);
            assertThat(store.stats().versionsRemoved()).isEqualTo(4);

            store.removeVersionsOlderThan(key, newestKept); // nothing older left
            assertThat(store.stats().versionsRemoved()).isEqualTo(4);

            // A version older than the range deletion, written later (as recovery re-installs), is stored again.
            store.putVersion(key, written.get(1));
            await(store.whenDurable());
            assertThat(store.countVersionRows(key)).isEqualTo(3);
        }
        try (CassandraPartitionStore fresh = open(newSelf(), 100)) {
            assertSameVersions(fresh.versions(key), List.of(written.get(4), written.get(3), written.get(1)));
        }
        assertThat(CassandraPartitionStore.countVersionRows()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void recordsDecisionsAndSnapshotSurviveANewStore() throws Exception {
        int self = newSelf();
        InMemoryPartitionStore reference = new InMemoryPartitionStore();
        List<TxnRecord> prepared = List.of(
                record(self, 1, new TxnId(0xABCDEFL, 1), List.of(kv("x", "1"), kv("y", "2"))),
                record(self, 2, new TxnId(-5L, 7), List.of(kv("z", "")), 1, 2),
                record(self, 3, new TxnId(42L, Long.MAX_VALUE), List.of()));
        VectorClock commitClock = VectorClock.of(0, 0, 0).with(0, 9).with(1, 300);
        try (CassandraPartitionStore store = open(self, 10)) {
            assertThat(store.recover()).isEqualTo(new Recovered(null, List.of(), List.of()));
            for (TxnRecord r : prepared) {
                store.savePrepared(r);
                reference.savePrepared(r);
            }
            store.saveOutcome(prepared.get(0).txnId(), 1, Outcome.COMMITTED, commitClock, 1_234_567L);
            reference.saveOutcome(prepared.get(0).txnId(), 1, Outcome.COMMITTED, commitClock, 1_234_567L);
            store.saveOutcome(prepared.get(1).txnId(), 2, Outcome.ABORTED, null, 0);
            reference.saveOutcome(prepared.get(1).txnId(), 2, Outcome.ABORTED, null, 0);
            // A wrong id for a stored sequence number is ignored, as by the reference.
            store.saveOutcome(new TxnId(1, 1), 3, Outcome.COMMITTED, commitClock, 1_234_567L);
            reference.saveOutcome(new TxnId(1, 1), 3, Outcome.COMMITTED, commitClock, 1_234_567L);

            List<Decision> decisions = List.of(
                    new Decision(new TxnId(3, 3), Outcome.COMMITTED, commitClock, 1_234_567L, List.of(0, 1, 2), 3_000),
                    new Decision(new TxnId(1, 1), Outcome.ABORTED, null, 0, List.of(), 1_000),
                    new Decision(new TxnId(2, 2), Outcome.ABORTED, null, 0, List.of(self), 2_000),
                    new Decision(new TxnId(4, 4), Outcome.COMMITTED, commitClock, 1_234_567L, List.of(0), 4_000));
            for (Decision d : decisions) {
                store.saveDecision(d);
                reference.saveDecision(d);
            }
            store.forgetDecision(new TxnId(4, 4));
            reference.forgetDecision(new TxnId(4, 4));
            VectorClock snapshot = VectorClock.of(new long[64]).with(self, 0).with(63, 12);
            store.saveSnapshot(snapshot, self);
            reference.saveSnapshot(snapshot, self);
            await(store.whenDurable());
        }
        Recovered expected = reference.recover();
        try (CassandraPartitionStore restarted = open(self, 10)) {
            Recovered recovered = restarted.recover();
            assertThat(recovered.snapshot()).isEqualTo(expected.snapshot());
            assertThat(recovered.transactions()).isEqualTo(expected.transactions());
            // The reference keeps decisions in decision order; we return them by decision time, here the same.
            assertThat(recovered.decisions()).containsExactlyElementsOf(
                    expected.decisions().stream().sorted(java.util.Comparator.comparingLong(Decision::decidedAt)).toList());
            assertThat(recovered.transactions().get(2).outcome()).isEqualTo(Outcome.UNDECIDED);
            // Records recovered are known again: an outcome for the undecided one is saved.
            restarted.saveOutcome(prepared.get(2).txnId(), 3, Outcome.COMMITTED, commitClock, 1_234_567L);
            assertThat(restarted.recover().transactions().get(2).outcome()).isEqualTo(Outcome.COMMITTED);
        }
    }

    @Test
    void aStoreReopenedWithItsClockSteppedBackStillWritesAfterItsEarlierRows() throws Exception {
        int self = newSelf();
        long now = System.currentTimeMillis() * 1000;
        try (CassandraPartitionStore store = CassandraPartitionStore.open(
                CassandraPartitionStore.Settings.of(self, 64, 10).withClock(() -> now + 60_000_000))) {
            store.saveSnapshot(VectorClock.zero(64).with(self, 3), self);
            await(store.whenDurable());
        }
        // Restarted with its clock a minute behind what it wrote with.
        try (CassandraPartitionStore restarted = CassandraPartitionStore.open(
                CassandraPartitionStore.Settings.of(self, 64, 10).withClock(() -> now))) {
            restarted.saveSnapshot(VectorClock.zero(64).with(self, 5), self);
            await(restarted.whenDurable());
        }
        try (CassandraPartitionStore again = open(self, 10)) {
            assertThat(again.recover().snapshot()).as("the later snapshot wins").isEqualTo(VectorClock.zero(64).with(self, 5));
        }
    }

    @Test
    void saveSnapshotDropsSettledRecords() throws Exception {
        int self = newSelf();
        try (CassandraPartitionStore store = open(self, 10)) {
            for (long s = 1; s <= 5; s++) store.savePrepared(record(self, s, new TxnId(100, s), List.of(kv("k" + s, "v"))));
            store.saveOutcome(new TxnId(100, 2), 2, Outcome.COMMITTED, VectorClock.zero(64).with(self, 2), 1_234_567L);
            store.saveSnapshot(VectorClock.zero(64).with(self, 3), self);
            // An outcome for a dropped record is not saved and must not bring back part of its row.
            store.saveOutcome(new TxnId(100, 1), 1, Outcome.ABORTED, null, 0);
            await(store.whenDurable());
        }
        try (CassandraPartitionStore restarted = open(self, 10)) {
            Recovered recovered = restarted.recover();
            assertThat(recovered.snapshot()).isEqualTo(VectorClock.zero(64).with(self, 3));
            assertThat(recovered.transactions()).extracting(TxnRecord::sequence).containsExactly(4L, 5L);
            // Unchanged snapshot and nothing to drop: no write at all.
            restarted.saveSnapshot(VectorClock.zero(64).with(self, 3), self);
            assertThat(restarted.whenDurable()).isDone();
            restarted.saveSnapshot(VectorClock.zero(64).with(self, 5), self);
            await(restarted.whenDurable());
            assertThat(restarted.recover().transactions()).isEmpty();
        }
    }

    @Test
    void saveSnapshotKeepsTheRecordsACoordinatorMayStillAskAboutAndTheirProposedTimes() throws Exception {
        int self = newSelf();
        try (CassandraPartitionStore store = open(self, 10)) {
            for (long s = 1; s <= 5; s++) store.savePrepared(record(self, s, new TxnId(101, s), List.of(kv("k" + s, "v"))));
            store.saveSnapshot(VectorClock.zero(64).with(self, 5), self, 2); // records 3.. retained
            await(store.whenDurable());
        }
        try (CassandraPartitionStore restarted = open(self, 10)) {
            Recovered recovered = restarted.recover();
            assertThat(recovered.snapshot()).isEqualTo(VectorClock.zero(64).with(self, 5));
            assertThat(recovered.transactions()).extracting(TxnRecord::sequence).containsExactly(3L, 4L, 5L);
            assertThat(recovered.transactions()).extracting(TxnRecord::proposedTime).containsExactly(1_003L, 1_004L, 1_005L);
        }
    }

    @Test
    void whenDurableCompletesAfterWritesAndIsImmediateWhenIdle() throws Exception {
        Key key = uniqueKey("durable");
        try (CassandraPartitionStore store = open(newSelf(), 100)) {
            assertThat(store.whenDurable()).isDone();
            for (int i = 1; i <= 50; i++) store.putVersion(key, version(i, i, 0, 0));
            CompletableFuture<Void> durable = store.whenDurable();
            await(durable);
            // Everything issued before the call is applied, hence readable from the table.
            assertThat(store.countVersionRows(key)).isEqualTo(50);
            assertThat(store.stats().pendingWrites()).isZero();
            assertThat(store.whenDurable()).isDone();
        }
    }

    @Test
    void closedStoreRejectsWrites() {
        CassandraPartitionStore store = open(newSelf(), 10);
        store.putVersion(uniqueKey("closed"), version(1, 1, 0, 0));
        store.close();
        assertThat(store.stats().pendingWrites()).isZero();
        assertThatThrownBy(() -> store.putVersion(uniqueKey("closed"), version(2, 2, 0, 0)))
                .isInstanceOf(IllegalStateException.class);
        store.close(); // idempotent
    }

    /**
     * Random puts, removals and reads on a few keys with a cache smaller than the key set, checked after every
     * step against the reference store: exercises eviction, misses with writes still in flight, and range deletions.
     */
    @Test
    void matchesTheReferenceStoreUnderRandomOperations() throws Exception {
        Random random = new Random(7);
        String prefix = "random-" + UUID.randomUUID() + "-";
        Key[] keys = new Key[6];
        for (int i = 0; i < keys.length; i++) keys[i] = Key.of(prefix + i);
        InMemoryPartitionStore reference = new InMemoryPartitionStore();
        List<Version> issued = new ArrayList<>(); // a sequence number always comes with the same clock and value
        try (CassandraPartitionStore store = open(newSelf(), 2)) {
            for (int step = 0; step < 1500; step++) {
                Key key = keys[random.nextInt(keys.length)];
                int op = random.nextInt(10);
                if (op < 5) {
                    Version v;
                    if (!issued.isEmpty() && random.nextInt(10) == 0) { // again, as recovery re-installs
                        v = issued.get(random.nextInt(issued.size()));
                    } else {
                        long s = issued.size() + 1;
                        v = version(s, s, random.nextInt(50), random.nextInt(50)); // arbitration order is not sequence order
                        issued.add(v);
                    }
                    store.putVersion(key, v);
                    reference.putVersion(key, v);
                } else if (op < 7) {
                    List<Version> current = reference.versions(key);
                    if (!current.isEmpty()) {
                        Version kept = current.get(random.nextInt(current.size()));
                        store.removeVersionsOlderThan(key, kept);
                        reference.removeVersionsOlderThan(key, kept);
                    }
                } else if (op == 7 && random.nextBoolean()) {
                    await(store.whenDurable());
                }
                assertSameVersions(store.versions(key), new ArrayList<>(reference.versions(key)));
            }
            await(store.whenDurable());
        }
        try (CassandraPartitionStore fresh = open(newSelf(), 100)) {
            for (Key key : keys) {
                assertSameVersions(fresh.versions(key), new ArrayList<>(reference.versions(key)));
                assertThat(fresh.countVersionRows(key)).isEqualTo(reference.versions(key).size());
            }
        }
    }

    /** A protocol thread the test drives: loaded lists rejoin only when the test runs what is queued. */
    private static final class ManualThread implements java.util.concurrent.Executor {
        private final java.util.concurrent.ConcurrentLinkedQueue<Runnable> queued = new java.util.concurrent.ConcurrentLinkedQueue<>();

        @Override
        public void execute(Runnable task) {
            queued.add(task);
        }

        /** Runs what is queued until every future is done (loader threads queue their results as they finish). */
        void runUntilDone(List<CompletableFuture<Void>> futures) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!futures.stream().allMatch(CompletableFuture::isDone)) {
                Runnable task = queued.poll();
                if (task != null) task.run();
                else if (System.nanoTime() > deadline) throw new AssertionError("loads never rejoined");
                else Thread.sleep(1);
            }
        }

        void awaitQueued() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (queued.isEmpty()) {
                if (System.nanoTime() > deadline) throw new AssertionError("the loader never finished");
                Thread.sleep(1);
            }
        }
    }

    @Test
    void missesAreLoadedOffTheProtocolThreadWithWritesIssuedMeanwhile() throws Exception {
        Key a = uniqueKey("load-a");
        Key b = uniqueKey("load-b");
        ManualThread protocol = new ManualThread();
        try (CassandraPartitionStore store = open(newSelf(), 1)) {
            store.rejoinOn(protocol);
            store.putVersion(a, version(1, 1, 0, 0));
            await(store.whenDurable());
            store.versions(b); // evicts a
            long synchronousBefore = store.stats().synchronousMisses();
            assertThat(store.notInMemory(List.of(a, b))).containsExactly(a);

            CompletableFuture<Void> loaded = store.load(List.of(a));
            store.putVersion(a, version(2, 2, 0, 0)); // issued while a is being read: must not be lost
            protocol.awaitQueued();
            assertThat(loaded).as("completes only on the protocol thread").isNotDone();
            assertThat(store.notInMemory(List.of(a))).containsExactly(a);
            protocol.runUntilDone(List.of(loaded));

            assertThat(store.notInMemory(List.of(a))).isEmpty();
            assertSameVersions(store.versions(a), List.of(version(2, 2, 0, 0), version(1, 1, 0, 0)));
            assertThat(store.stats().synchronousMisses()).as("no disk read on the protocol thread").isEqualTo(synchronousBefore);
            assertThat(store.stats().keysLoaded()).isEqualTo(1);
            assertThat(store.versionsInMemory(a)).isTrue();
            await(store.whenDurable());
        }
    }

    @Test
    void aSecondLoadOfTheSameKeyJoinsTheFirst() throws Exception {
        Key a = uniqueKey("join-a");
        ManualThread protocol = new ManualThread();
        try (CassandraPartitionStore store = open(newSelf(), 4)) {
            store.rejoinOn(protocol);
            CompletableFuture<Void> first = store.load(List.of(a));
            CompletableFuture<Void> second = store.load(List.of(a));
            protocol.runUntilDone(List.of(first, second));
            assertThat(store.stats().keysLoaded()).isEqualTo(1);
            assertThat(store.versions(a)).isEmpty();
            assertThat(store.load(List.of(a))).as("cached: nothing to load").isDone();
        }
    }

    /** Loads, writes and GC deletions interleaved at random: what is in memory always equals the reference store. */
    @Test
    void loadsInterleavedWithWritesMatchTheReferenceStore() throws Exception {
        Random random = new Random(11);
        String prefix = "loads-" + UUID.randomUUID() + "-";
        Key[] keys = new Key[6];
        for (int i = 0; i < keys.length; i++) keys[i] = Key.of(prefix + i);
        InMemoryPartitionStore reference = new InMemoryPartitionStore();
        ManualThread protocol = new ManualThread();
        List<CompletableFuture<Void>> loads = new ArrayList<>();
        long issued = 0;
        try (CassandraPartitionStore store = open(newSelf(), 2)) {
            store.rejoinOn(protocol);
            for (int step = 0; step < 1500; step++) {
                Key key = keys[random.nextInt(keys.length)];
                int op = random.nextInt(10);
                if (op < 4) {
                    long s = ++issued;
                    Version v = version(s, s, random.nextInt(50), random.nextInt(50));
                    store.putVersion(key, v);
                    reference.putVersion(key, v);
                } else if (op < 5 && store.versionsInMemory(key)) { // as GC does: only keys in memory
                    List<Version> current = reference.versions(key);
                    if (!current.isEmpty()) {
                        Version kept = current.get(random.nextInt(current.size()));
                        store.removeVersionsOlderThan(key, kept);
                        reference.removeVersionsOlderThan(key, kept);
                    }
                } else if (op < 8) {
                    loads.add(store.load(List.of(key, keys[random.nextInt(keys.length)])));
                } else if (op == 8) {
                    protocol.runUntilDone(loads);
                    loads.clear();
                } else if (random.nextBoolean()) {
                    await(store.whenDurable());
                }
                for (Key k : keys)
                    if (store.notInMemory(List.of(k)).isEmpty())
                        assertSameVersions(store.versions(k), new ArrayList<>(reference.versions(k)));
            }
            protocol.runUntilDone(loads);
            for (Key k : keys) assertSameVersions(store.versions(k), new ArrayList<>(reference.versions(k)));
            await(store.whenDurable());
        }
    }

    private static KeyValue kv(String key, String value) {
        return new KeyValue(Key.of(key), value.getBytes(StandardCharsets.UTF_8));
    }

    private static TxnRecord record(int self, long sequence, TxnId id, List<KeyValue> writes, Integer... otherParticipants) {
        List<Integer> participants = new ArrayList<>(List.of(self));
        participants.addAll(List.of(otherParticipants));
        return new TxnRecord(id, sequence, self, participants, writes, VectorClock.zero(64).with(N, sequence),
                1_000 + sequence, Outcome.UNDECIDED, null, 0);
    }
}
