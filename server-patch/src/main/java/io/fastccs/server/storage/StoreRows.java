package io.fastccs.server.storage;

import io.fastccs.protocol.api.PartitionStore.Decision;
import io.fastccs.protocol.api.PartitionStore.TxnRecord;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.primitives.CommitOrder;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.core.primitives.WriteKind;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.DecoratedKey;
import org.apache.cassandra.db.Keyspace;
import org.apache.cassandra.db.Mutation;
import org.apache.cassandra.db.ReadExecutionController;
import org.apache.cassandra.db.SinglePartitionReadCommand;
import org.apache.cassandra.db.marshal.Int32Type;
import org.apache.cassandra.db.partitions.PartitionUpdate;
import org.apache.cassandra.db.rows.Cell;
import org.apache.cassandra.db.rows.Row;
import org.apache.cassandra.db.rows.RowIterator;
import org.apache.cassandra.db.rows.UnfilteredRowIterator;
import org.apache.cassandra.db.rows.UnfilteredRowIterators;
import org.apache.cassandra.schema.ColumnMetadata;
import org.apache.cassandra.schema.TableMetadata;
import org.apache.cassandra.utils.ByteBufferUtil;
import org.apache.cassandra.utils.FBUtilities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The rows of one store in the four tables of {@link StorageSchema}: the mutations that write them and the reads that
 * decode them (blob encodings in {@link RecordCodec}). The versions have one of two layouts, chosen when the store
 * opens: at replication factor 1 ({@link #ownKeys}) they are in {@code fastccs.versions}, keyed by the key, which this
 * node must own; in a replica group ({@link #group}) they are in {@code fastccs_local.replica_versions}, keyed by
 * (group, key). Transaction records, decisions and the snapshot are in the local keyspace, keyed by the store's
 * partition (or group) index, in both.
 *
 * <p>The mutations are built on the protocol thread only (they draw timestamps, and share the last commit encoded);
 * the reads may run on any thread.
 */
abstract sealed class StoreRows permits StoreRows.OwnKeys, StoreRows.GroupKeys {
    private static final Logger logger = LoggerFactory.getLogger(StoreRows.class);

    private static final String CLOCK = "clock";
    private static final String VALUE = "value";
    private static final String TXN_CLIENT = "txn_client";
    private static final String TXN_SEQUENCE = "txn_sequence";
    private static final String COORDINATOR = "coordinator";
    private static final String PARTICIPANTS = "participants";
    private static final String WRITES = "writes";
    private static final String CLIENT_CLOCK = "client_clock";
    private static final String PROPOSED_TIME = "proposed_time";
    private static final String OUTCOME = "outcome";
    private static final String COMMIT_CLOCK = "commit_clock";
    private static final String DECIDED_AT = "decided_at";

    final int self;
    final ColumnFamilyStore versionsTable;
    private final ColumnFamilyStore transactionsTable;
    private final ColumnFamilyStore decisionsTable;
    private final ColumnFamilyStore snapshotsTable;
    /** The partition key of this store's rows in every local table. */
    private final DecoratedKey localKey;

    private long lastTimestamp;
    private final LongSupplier clockMicros;
    /** The clock most recently encoded: the versions of one transaction share it, so it is encoded once. */
    private VectorClock lastEncodedCommitClock;
    private byte[] lastEncodedCommitBytes;
    private long lastEncodedCommitTime;

    private StoreRows(int self, ColumnFamilyStore versionsTable, long lastTimestamp, LongSupplier clockMicros) {
        Keyspace local = Keyspace.open(StorageSchema.LOCAL_KEYSPACE);
        this.self = self;
        this.versionsTable = versionsTable;
        this.transactionsTable = local.getColumnFamilyStore(StorageSchema.TRANSACTIONS);
        this.decisionsTable = local.getColumnFamilyStore(StorageSchema.DECISIONS);
        this.snapshotsTable = local.getColumnFamilyStore(StorageSchema.SNAPSHOTS);
        this.localKey = transactionsTable.decorateKey(Int32Type.instance.decompose(self));
        this.lastTimestamp = lastTimestamp;
        this.clockMicros = clockMicros;
    }

    /** Replication factor 1: the versions of the keys this node owns, in the replicated {@code fastccs.versions}. */
    static StoreRows ownKeys(int self, long lastTimestamp, LongSupplier clockMicros) {
        return new OwnKeys(self, Keyspace.open(StorageSchema.KEYSPACE), lastTimestamp, clockMicros);
    }

    /** Replica group {@code group}: its versions in the local {@code replica_versions}, written by the group's appliers. */
    static StoreRows group(int group, long lastTimestamp, LongSupplier clockMicros) {
        return new GroupKeys(group, lastTimestamp, clockMicros);
    }

    /** The partition key of {@code key}'s versions. */
    abstract DecoratedKey versionsKey(Key key);

    /** Refuses a key whose versions must not be stored here. */
    abstract void requireOwned(Key key);

    static final class OwnKeys extends StoreRows {
        private final Keyspace versionsKeyspace;

        private OwnKeys(int self, Keyspace versionsKeyspace, long lastTimestamp, LongSupplier clockMicros) {
            super(self, versionsKeyspace.getColumnFamilyStore(StorageSchema.VERSIONS), lastTimestamp, clockMicros);
            this.versionsKeyspace = versionsKeyspace;
        }

        @Override
        DecoratedKey versionsKey(Key key) {
            return versionsTable.decorateKey(keyBuffer(key));
        }

        @Override
        void requireOwned(Key key) {
            var token = versionsTable.metadata().partitioner.getToken(keyBuffer(key));
            if (versionsKeyspace.getReplicationStrategy().getNaturalReplicasForToken(token).selfIfPresent() == null)
                throw new IllegalArgumentException("key " + key + " (token " + token + ") is not owned by this node: stored here it "
                        + "would be invisible to coordinated reads and removed by nodetool cleanup");
        }
    }

    static final class GroupKeys extends StoreRows {
        private GroupKeys(int group, long lastTimestamp, LongSupplier clockMicros) {
            super(group, Keyspace.open(StorageSchema.LOCAL_KEYSPACE).getColumnFamilyStore(StorageSchema.REPLICA_VERSIONS),
                    lastTimestamp, clockMicros);
        }

        @Override
        DecoratedKey versionsKey(Key key) {
            return versionsTable.decorateKey(StorageSchema.replicaVersionsKey(self, keyBuffer(key)));
        }

        @Override
        void requireOwned(Key key) {
            // a group's versions are in the local keyspace, keyed by group
        }
    }

    /**
     * The largest write timestamp in this node's FastCCS tables, memtables flushed first so that they count: a store
     * opened after a restart writes above it whatever its clock says, so a clock stepped back across the restart (an
     * NTP step, the test clock offset) cannot put a later write below an earlier one, where it would lose (an outcome
     * under its prepared record, a snapshot under the one before).
     */
    static long newestTimestampStored() {
        Keyspace local = Keyspace.open(StorageSchema.LOCAL_KEYSPACE);
        List<ColumnFamilyStore> tables = List.of(Keyspace.open(StorageSchema.KEYSPACE).getColumnFamilyStore(StorageSchema.VERSIONS),
                local.getColumnFamilyStore(StorageSchema.TRANSACTIONS), local.getColumnFamilyStore(StorageSchema.DECISIONS),
                local.getColumnFamilyStore(StorageSchema.SNAPSHOTS));
        long newest = 0;
        for (ColumnFamilyStore table : tables) {
            table.forceBlockingFlush(ColumnFamilyStore.FlushReason.STARTUP);
            for (var sstable : table.getLiveSSTables()) newest = Math.max(newest, sstable.getMaxTimestamp());
        }
        return newest;
    }

    // ---- versions ----

    Mutation putVersion(Key key, Version version) {
        PartitionUpdate.SimpleBuilder update = versionsUpdate(key);
        update.row(version.sequence())
                .add(CLOCK, ByteBuffer.wrap(version.kind() == WriteKind.PUT ? encodeCommit(version.commitClock(), version.commitTime())
                        : RecordCodec.encodeVersionCommit(version.commitClock(), version.commitTime(), version.kind())))
                .add(VALUE, ByteBuffer.wrap(version.value()));
        return new Mutation(update.build());
    }

    /**
     * Deletes the rows of {@code current}'s versions missing from {@code kept}. Older by commit clock is not a range
     * of sequence numbers, so those are row deletions, except that the removed versions below the smallest kept
     * sequence number (usually all of them) go with one range deletion from the start of the partition: successive
     * range deletions of a key merge, so a hot key does not pile up a tombstone per collected version. So
     * {@code current} must be the key's complete list.
     */
    Mutation removeVersions(Key key, List<Version> current, List<Version> kept) {
        PartitionUpdate.SimpleBuilder update = versionsUpdate(key);
        if (kept.isEmpty()) {
            update.delete();
        } else {
            long smallestKept = Long.MAX_VALUE;
            for (Version v : kept) smallestKept = Math.min(smallestKept, v.sequence());
            boolean anyBelow = false;
            for (int i = kept.size(); i < current.size(); i++) {
                long sequence = current.get(i).sequence();
                if (sequence < smallestKept) anyBelow = true;
                else update.row(sequence).delete();
            }
            if (anyBelow) update.addRangeTombstone().start().end(smallestKept).exclEnd();
        }
        return new Mutation(update.build());
    }

    /**
     * One mutation of the key's partition: the folded rows deleted, the base written (over the row of a folded version
     * whose sequence number it takes: a newer write of the same row replaces its cells), so a crash keeps either all the
     * folded versions or the base.
     */
    Mutation replaceVersions(Key key, List<Version> folded, Version base) {
        PartitionUpdate.SimpleBuilder update = versionsUpdate(key);
        for (Version f : folded) if (f.sequence() != base.sequence()) update.row(f.sequence()).delete();
        update.row(base.sequence())
                .add(CLOCK, ByteBuffer.wrap(RecordCodec.encodeVersionCommit(base.commitClock(), base.commitTime(), base.kind())))
                .add(VALUE, ByteBuffer.wrap(base.value()));
        return new Mutation(update.build());
    }

    /** The key's stored versions, newest first. Any thread. */
    List<Version> readVersions(Key key) {
        List<Version> out = new ArrayList<>();
        ColumnMetadata clockColumn = column(versionsTable, CLOCK);
        ColumnMetadata valueColumn = column(versionsTable, VALUE);
        readPartition(versionsTable, versionsKey(key), row -> {
            long sequence = ByteBufferUtil.toLong(row.clustering().bufferAt(0));
            ByteBuffer clock = cellValue(row, clockColumn);
            ByteBuffer value = cellValue(row, valueColumn);
            if (clock == null || value == null) {
                logger.warn("Ignoring incomplete row {}/{} of {}.{}", key, sequence, StorageSchema.KEYSPACE, StorageSchema.VERSIONS);
                return;
            }
            RecordCodec.VersionCommit commit = RecordCodec.decodeVersionCommit(clock);
            out.add(new Version(sequence, commit.order().clock(), commit.order().time(), ByteBufferUtil.getArray(value),
                    commit.kind()));
        });
        return VersionChange.sortedNewestFirst(out);
    }

    /** Rows stored for {@code key}'s versions, applied writes only. */
    long countVersionRows(Key key) {
        long[] rows = new long[1];
        readPartition(versionsTable, versionsKey(key), row -> rows[0]++);
        return rows[0];
    }

    // ---- transaction records, decisions, snapshot ----

    Mutation prepared(TxnRecord record) {
        PartitionUpdate.SimpleBuilder update = localUpdate(transactionsTable);
        Row.SimpleBuilder row = update.row(record.sequence())
                .add(TXN_CLIENT, record.txnId().client())
                .add(TXN_SEQUENCE, record.txnId().sequence())
                .add(COORDINATOR, record.coordinator())
                .add(PARTICIPANTS, ByteBuffer.wrap(RecordCodec.encodeParticipants(record.participants())))
                .add(WRITES, ByteBuffer.wrap(RecordCodec.encodeWrites(record.writes())))
                .add(CLIENT_CLOCK, ByteBuffer.wrap(RecordCodec.encodeClock(record.clientClock())))
                .add(PROPOSED_TIME, record.proposedTime());
        if (record.outcome() != Outcome.UNDECIDED) addOutcome(row, record.outcome(), record.commitClock(), record.commitTime());
        return new Mutation(update.build());
    }

    Mutation outcome(long sequence, Outcome outcome, VectorClock commitClock, long commitTime) {
        PartitionUpdate.SimpleBuilder update = localUpdate(transactionsTable);
        // No row marker: should the record be dropped first, the outcome alone must not make a row appear.
        addOutcome(update.row(sequence).noPrimaryKeyLivenessInfo(), outcome, commitClock, commitTime);
        return new Mutation(update.build());
    }

    /**
     * The snapshot clock and, in the same mutation (so atomically), the deletion of the transaction records up to
     * sequence number {@code dropRecordsUpTo} with one range deletion (none when it is below 1).
     */
    Mutation snapshot(VectorClock snapshot, long dropRecordsUpTo) {
        Mutation.SimpleBuilder mutation = Mutation.simpleBuilder(StorageSchema.LOCAL_KEYSPACE, localKey).timestamp(nextTimestamp());
        mutation.update(snapshotsTable.metadata()).row().add(CLOCK, ByteBuffer.wrap(RecordCodec.encodeClock(snapshot)));
        if (dropRecordsUpTo >= 1) mutation.update(transactionsTable.metadata()).addRangeTombstone().start().end(dropRecordsUpTo).inclEnd();
        return mutation.build();
    }

    Mutation decision(Decision decision) {
        PartitionUpdate.SimpleBuilder update = localUpdate(decisionsTable);
        update.row(decision.txnId().client(), decision.txnId().sequence())
                .add(OUTCOME, RecordCodec.encodeOutcome(decision.outcome()))
                .add(COMMIT_CLOCK, decision.commitClock() == null ? null
                        : ByteBuffer.wrap(encodeCommit(decision.commitClock(), decision.commitTime())))
                .add(PARTICIPANTS, ByteBuffer.wrap(RecordCodec.encodeParticipants(decision.participants())))
                .add(DECIDED_AT, decision.decidedAt());
        return new Mutation(update.build());
    }

    Mutation forgetDecision(TxnId txnId) {
        PartitionUpdate.SimpleBuilder update = localUpdate(decisionsTable);
        update.row(txnId.client(), txnId.sequence()).delete();
        return new Mutation(update.build());
    }

    /** The saved snapshot clock, or null. */
    VectorClock readSnapshot() {
        VectorClock[] snapshot = new VectorClock[1];
        readPartition(snapshotsTable, localKey, row -> {
            ByteBuffer clock = cellValue(row, snapshotsTable, CLOCK);
            if (clock != null) snapshot[0] = RecordCodec.decodeClock(clock);
        });
        return snapshot[0];
    }

    /** The complete transaction records, by sequence number. */
    List<TxnRecord> readTransactions() {
        return readLocal(transactionsTable, this::decodeTransaction);
    }

    /** Sequence number to id of the transaction records stored. */
    TreeMap<Long, TxnId> readTransactionIds() {
        TreeMap<Long, TxnId> stored = new TreeMap<>();
        readPartition(transactionsTable, localKey, row -> {
            ByteBuffer client = cellValue(row, transactionsTable, TXN_CLIENT);
            ByteBuffer txnSequence = cellValue(row, transactionsTable, TXN_SEQUENCE);
            if (client != null && txnSequence != null)
                stored.put(ByteBufferUtil.toLong(row.clustering().bufferAt(0)),
                        new TxnId(ByteBufferUtil.toLong(client), ByteBufferUtil.toLong(txnSequence)));
        });
        return stored;
    }

    /** The complete decisions, in txn id order. */
    List<Decision> readDecisions() {
        return readLocal(decisionsTable, this::decodeDecision);
    }

    // ---- internals ----

    /**
     * Strictly increasing microsecond timestamps, close to the wall clock (other writers never touch our rows). A
     * replicated store starts above every timestamp its group applied, so a new leader with a slower clock still
     * writes after its predecessor.
     */
    private long nextTimestamp() {
        long now = clockMicros.getAsLong();
        lastTimestamp = Math.max(now, lastTimestamp + 1);
        return lastTimestamp;
    }

    private PartitionUpdate.SimpleBuilder versionsUpdate(Key key) {
        return PartitionUpdate.simpleBuilder(versionsTable.metadata(), versionsKey(key)).timestamp(nextTimestamp());
    }

    private PartitionUpdate.SimpleBuilder localUpdate(ColumnFamilyStore table) {
        return PartitionUpdate.simpleBuilder(table.metadata(), self).timestamp(nextTimestamp());
    }

    /** The versions of one transaction share their commit, so it is encoded once. */
    private byte[] encodeCommit(VectorClock clock, long time) {
        if (clock != lastEncodedCommitClock || time != lastEncodedCommitTime) {
            lastEncodedCommitBytes = RecordCodec.encodeCommit(clock, time);
            lastEncodedCommitClock = clock;
            lastEncodedCommitTime = time;
        }
        return lastEncodedCommitBytes; // shared by mutations; never modified
    }

    private static void addOutcome(Row.SimpleBuilder row, Outcome outcome, VectorClock commitClock, long commitTime) {
        row.add(OUTCOME, RecordCodec.encodeOutcome(outcome))
                .add(COMMIT_CLOCK, commitClock == null ? null : ByteBuffer.wrap(RecordCodec.encodeCommit(commitClock, commitTime)));
    }

    /** This store's rows of a local table, decoded; {@code decode} returns null for an incomplete row, left out. */
    private <T> List<T> readLocal(ColumnFamilyStore table, Function<Row, T> decode) {
        List<T> out = new ArrayList<>();
        readPartition(table, localKey, row -> {
            T decoded = decode.apply(row);
            if (decoded != null) out.add(decoded);
        });
        return out;
    }

    /** A record, or null for a row holding only an outcome written after its record was dropped. */
    private TxnRecord decodeTransaction(Row row) {
        long sequence = ByteBufferUtil.toLong(row.clustering().bufferAt(0));
        ByteBuffer client = cellValue(row, transactionsTable, TXN_CLIENT);
        ByteBuffer txnSequence = cellValue(row, transactionsTable, TXN_SEQUENCE);
        ByteBuffer coordinator = cellValue(row, transactionsTable, COORDINATOR);
        ByteBuffer participants = cellValue(row, transactionsTable, PARTICIPANTS);
        ByteBuffer writes = cellValue(row, transactionsTable, WRITES);
        ByteBuffer clientClock = cellValue(row, transactionsTable, CLIENT_CLOCK);
        if (client == null || txnSequence == null || coordinator == null || participants == null || writes == null || clientClock == null) {
            logger.debug("Ignoring incomplete transaction record {} of partition {}", sequence, self);
            return null;
        }
        ByteBuffer outcome = cellValue(row, transactionsTable, OUTCOME);
        ByteBuffer stored = cellValue(row, transactionsTable, COMMIT_CLOCK);
        ByteBuffer proposed = cellValue(row, transactionsTable, PROPOSED_TIME);
        CommitOrder commit = stored == null ? null : RecordCodec.decodeCommit(stored);
        return new TxnRecord(new TxnId(ByteBufferUtil.toLong(client), ByteBufferUtil.toLong(txnSequence)), sequence,
                ByteBufferUtil.toInt(coordinator), RecordCodec.decodeParticipants(participants),
                RecordCodec.decodeWrites(writes), RecordCodec.decodeClock(clientClock),
                proposed == null ? 0 : ByteBufferUtil.toLong(proposed),
                outcome == null ? Outcome.UNDECIDED : RecordCodec.decodeOutcome(outcome.get(outcome.position())),
                commit == null ? null : commit.clock(), commit == null ? 0 : commit.time());
    }

    private Decision decodeDecision(Row row) {
        long client = ByteBufferUtil.toLong(row.clustering().bufferAt(0));
        long txnSequence = ByteBufferUtil.toLong(row.clustering().bufferAt(1));
        ByteBuffer outcome = cellValue(row, decisionsTable, OUTCOME);
        ByteBuffer participants = cellValue(row, decisionsTable, PARTICIPANTS);
        ByteBuffer decidedAt = cellValue(row, decisionsTable, DECIDED_AT);
        if (outcome == null || participants == null || decidedAt == null) {
            logger.debug("Ignoring incomplete decision {}:{} of partition {}", Long.toHexString(client), txnSequence, self);
            return null;
        }
        ByteBuffer stored = cellValue(row, decisionsTable, COMMIT_CLOCK);
        CommitOrder commit = stored == null ? null : RecordCodec.decodeCommit(stored);
        return new Decision(new TxnId(client, txnSequence), RecordCodec.decodeOutcome(outcome.get(outcome.position())),
                commit == null ? null : commit.clock(), commit == null ? 0 : commit.time(),
                RecordCodec.decodeParticipants(participants), ByteBufferUtil.toLong(decidedAt));
    }

    private static ByteBuffer cellValue(Row row, ColumnFamilyStore table, String column) {
        return cellValue(row, column(table, column));
    }

    private static ByteBuffer cellValue(Row row, ColumnMetadata column) {
        Cell<?> cell = column == null ? null : row.getCell(column);
        return cell == null ? null : cell.buffer();
    }

    /** The column, or null if an operator dropped it (its cells then read as absent). */
    private static ColumnMetadata column(ColumnFamilyStore table, String name) {
        return table.metadata().getColumn(ByteBufferUtil.bytes(name));
    }

    private static ByteBuffer keyBuffer(Key key) {
        return ByteBuffer.wrap(key.unsafeBytes());
    }

    /**
     * Reads one partition's live rows from the local memtables and sstables. {@code queryMemtableAndDisk} (as
     * Cassandra's own counter and cache code uses) rather than {@code executeLocally}: it skips the tombstone
     * failure threshold, which a partition with many collected versions or forgotten decisions could exceed and
     * then refuse to read at all.
     */
    private static void readPartition(ColumnFamilyStore table, DecoratedKey key, Consumer<Row> rowConsumer) {
        long nowInSec = FBUtilities.nowInSeconds();
        TableMetadata metadata = table.metadata();
        SinglePartitionReadCommand command = SinglePartitionReadCommand.fullPartitionRead(metadata, nowInSec, key);
        try (ReadExecutionController controller = command.executionController();
             UnfilteredRowIterator partition = command.queryMemtableAndDisk(table, controller)) {
            RowIterator rows = UnfilteredRowIterators.filter(partition, nowInSec);
            while (rows.hasNext()) rowConsumer.accept(rows.next());
        }
    }
}
