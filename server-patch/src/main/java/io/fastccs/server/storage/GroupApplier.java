package io.fastccs.server.storage;

import io.fastccs.replication.NamedThreads;
import io.fastccs.replication.ReplicaApplier;
import org.apache.cassandra.cql3.QueryProcessor;
import org.apache.cassandra.cql3.UntypedResultSet;
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
import org.apache.cassandra.utils.ByteBufferUtil;
import org.apache.cassandra.utils.FBUtilities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Applies one replica group's committed log entries to this node's local FastCCS tables, on every member of the group,
 * the leader included: the only writer of the group's rows (docs/design.md, "The pitfalls of replicated partitions").
 *
 * <p>Entries are applied to the memtables without Cassandra's commit log: the group's log is the durable copy, and
 * after a crash it is replayed from the last snapshot, which is taken only after the tables were flushed. Replaying
 * is idempotent, since every mutation carries the timestamp its leader gave it.
 *
 * <p>A snapshot file holds the group's live rows and the largest timestamp applied. Installing another member's
 * snapshot first deletes what this member holds of the group (tombstones just below that timestamp) and rewrites the
 * snapshot's rows at it, so rows the group has deleted meanwhile do not survive here, and every later entry (whose
 * timestamps are above it) still wins. A member restarting from its own snapshot keeps its tables, which hold at least
 * what the snapshot does.
 *
 * <p>Replaying is idempotent but not free: snapshots come every {@code raft_snapshot_interval} entries, and a member
 * restarted a minute before could win an election and then serve only once it had replayed everything since the last
 * one (failovers of 20 s were measured so). So every {@code raft_flush_interval} entries the tables are flushed in
 * the background and the index applied before the flush began, with the largest timestamp up to it, is recorded in a
 * marker file beside Cassandra's data (after the flush completed, synced and renamed into place); a restart skips
 * every entry up to it without decoding it, since its writes are on disk in sstables already.
 */
public final class GroupApplier implements ReplicaApplier {
    private static final Logger logger = LoggerFactory.getLogger(GroupApplier.class);
    private static final int MAGIC = 0x46434753; // "FCGS"
    private static final byte END = 0;
    private static final String[] TABLES = {StorageSchema.TRANSACTIONS, StorageSchema.DECISIONS, StorageSchema.SNAPSHOTS,
            StorageSchema.REPLICA_VERSIONS};

    /** What the host does when this member's leadership changes (called on the group's apply thread). */
    public interface Leadership {
        void onLeaderReady(int group, long term);

        void onSteppedDown(int group, long term);
    }

    private final int group;
    private final String nodeId;
    private final Leadership leadership;
    private volatile long appliedTimestamp;
    private volatile long appliedEntries;
    /** The flushed-entries marker (null: none kept), the entries between two flushes, and who flushes. */
    private final Path flushedMarker;
    private final long flushEveryEntries;
    /** Entries up to this index are in sstables: a replay skips their writes. */
    private volatile long flushedIndex;
    /** The index of the last entry whose flush was asked for (apply thread only). */
    private long flushAskedAt;
    private long skippedOnReplay;
    private static final ExecutorService flusher = NamedThreads.single("fastccs-group-flush");

    /** Without a flushed-entries marker: a restart replays every entry since the last snapshot. */
    public GroupApplier(int group, String nodeId, Leadership leadership) {
        this(group, nodeId, leadership, null, Long.MAX_VALUE);
    }

    /**
     * @param markerDir where the flushed-entries marker lives: Cassandra's data directory, so that losing the tables
     *                  loses the marker too
     */
    public GroupApplier(int group, String nodeId, Leadership leadership, Path markerDir, long flushEveryEntries) {
        this.group = group;
        this.nodeId = nodeId;
        this.leadership = leadership;
        this.flushedMarker = markerDir == null ? null : markerDir.resolve("fastccs-group-" + group + ".flushed");
        this.flushEveryEntries = flushEveryEntries;
        this.flushedIndex = -1;
        readMarker();
        this.flushAskedAt = Math.max(0, flushedIndex);
    }

    /**
     * Takes the marker's index and largest timestamp if it is this member's (a replacement has a new id and replays
     * everything): a replay then skips those entries without even decoding them.
     */
    private void readMarker() {
        if (flushedMarker == null || !Files.exists(flushedMarker)) return;
        try {
            String[] parts = Files.readString(flushedMarker).trim().split(" ");
            if (parts.length == 3 && parts[0].equals(nodeId)) {
                long timestamp = Long.parseLong(parts[2]);
                flushedIndex = Long.parseLong(parts[1]);
                appliedTimestamp = Math.max(appliedTimestamp, timestamp);
                return;
            }
            logger.info("FastCCS group {}: ignoring flushed-entries marker {} (not member {}'s)", group, flushedMarker, nodeId);
        } catch (IOException | RuntimeException e) {
            logger.warn("FastCCS group {}: unreadable flushed-entries marker {} ({}); replaying everything", group, flushedMarker, e.toString());
        }
    }

    /** Records that entries up to {@code index}, whose largest timestamp is {@code timestamp}, are on disk. */
    private synchronized void writeMarker(long index, long timestamp) throws IOException {
        if (index <= flushedIndex && Files.exists(flushedMarker)) return;
        Path tmp = flushedMarker.resolveSibling(flushedMarker.getFileName() + ".tmp");
        Files.writeString(tmp, nodeId + " " + index + " " + timestamp + "\n");
        try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            c.force(true);
        }
        Files.move(tmp, flushedMarker, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel c = FileChannel.open(flushedMarker.getParent(), StandardOpenOption.READ)) {
            c.force(true);
        }
        flushedIndex = Math.max(flushedIndex, index);
    }

    /** Flushes the tables in the background, then records that entries up to {@code index} are on disk. */
    private void flushThenMark(long index) {
        flushAskedAt = index;
        long timestamp = appliedTimestamp;
        try {
            flusher.execute(() -> {
                try {
                    flushTables();
                    writeMarker(index, timestamp);
                } catch (IOException | RuntimeException e) {
                    logger.warn("FastCCS group {}: could not record the flushed entries ({}); a restart replays more", group, e.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            // shutting down
        }
    }

    private static void flushTables() {
        Keyspace local = Keyspace.open(StorageSchema.LOCAL_KEYSPACE);
        for (String table : TABLES)
            local.getColumnFamilyStore(table).forceBlockingFlush(ColumnFamilyStore.FlushReason.INTERNALLY_FORCED);
    }

    /** Entries up to this index are known to be on disk (-1: none). */
    public long flushedIndex() {
        return flushedIndex;
    }

    /** Makes the local tables ready for appliers: call once the node is started, before the groups' logs replay. */
    public static void prepare() {
        if (!Keyspace.isInitialized()) throw new IllegalStateException("the Cassandra node is not started");
        LocalKeyspace.ensureRegistered();
        // Unused for data at replication factor > 1 (versions live in the local keyspace), but the FastCCS port checks
        // permissions on fastccs.versions, and Cassandra grants only on keyspaces and tables that exist.
        StorageSchema.ensureReplicatedKeyspace();
    }

    /**
     * Whether this node's local FastCCS tables hold any record: of its groups, or of an earlier run at replication
     * factor 1 (the same tables). Call after {@link #prepare}.
     */
    public static boolean localTablesHoldRecords() {
        for (String table : TABLES)
            if (!QueryProcessor.executeInternal("SELECT * FROM " + StorageSchema.LOCAL_KEYSPACE + "." + table + " LIMIT 1").isEmpty())
                return true;
        return false;
    }

    /** The largest write timestamp applied: a new leader's store starts above it. */
    public long appliedTimestamp() {
        return appliedTimestamp;
    }

    public long appliedEntries() {
        return appliedEntries;
    }

    @Override
    public void apply(long index, byte[] batch) {
        appliedEntries++;
        if (index <= flushedIndex) { // a replay after a restart, of writes on disk already (the marker has their timestamps)
            if (++skippedOnReplay == 1 || index == flushedIndex)
                logger.info("FastCCS group {}: replaying entry {}; writes up to entry {} are on disk already, skipped ({} so far)",
                        group, index, flushedIndex, skippedOnReplay);
            return;
        }
        long max = appliedTimestamp;
        for (Mutation m : MutationBatch.decode(batch)) {
            m.apply(false); // the group's log is the durable copy; see the class comment
            for (PartitionUpdate u : m.getPartitionUpdates()) max = Math.max(max, u.maxTimestamp());
        }
        appliedTimestamp = max;
        if (flushedMarker != null && index - flushAskedAt >= flushEveryEntries) flushThenMark(index);
    }

    @Override
    public void onLeaderReady(long term) {
        leadership.onLeaderReady(group, term);
    }

    @Override
    public void onSteppedDown(long term) {
        leadership.onSteppedDown(group, term);
    }

    @Override
    public void takeSnapshot(Path file) throws IOException {
        Keyspace local = Keyspace.open(StorageSchema.LOCAL_KEYSPACE);
        for (String table : TABLES)
            local.getColumnFamilyStore(table).forceBlockingFlush(ColumnFamilyStore.FlushReason.INTERNALLY_FORCED);
        long rows = 0;
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
            out.writeInt(MAGIC);
            out.writeUTF(nodeId);
            out.writeLong(appliedTimestamp);
            for (int t = 0; t < TABLES.length; t++) {
                ColumnFamilyStore table = local.getColumnFamilyStore(TABLES[t]);
                for (DecoratedKey key : partitionsOfGroup(table)) {
                    byte code = (byte) (t + 1);
                    long[] count = new long[1];
                    readLive(table, key, row -> {
                        try {
                            writeRow(out, code, key, row);
                            count[0]++;
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
                    rows += count[0];
                }
            }
            out.writeByte(END);
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
        logger.info("FastCCS group {}: snapshot of {} rows written to {}", group, rows, file.getFileName());
    }

    @Override
    public void installSnapshot(long index, Path file) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            if (in.readInt() != MAGIC) throw new IOException(file + " is not a FastCCS group snapshot");
            String writer = in.readUTF();
            long timestamp = in.readLong();
            if (writer.equals(nodeId)) {
                // Our own, after a restart: the tables were flushed before it was written, so they hold it already.
                appliedTimestamp = Math.max(appliedTimestamp, timestamp);
                logger.info("FastCCS group {}: restarting from our own snapshot at log index {}", group, index);
                return;
            }
            Keyspace local = Keyspace.open(StorageSchema.LOCAL_KEYSPACE);
            long deleted = 0;
            for (String name : TABLES) {
                ColumnFamilyStore table = local.getColumnFamilyStore(name);
                for (DecoratedKey key : partitionsOfGroup(table)) {
                    new Mutation(PartitionUpdate.simpleBuilder(table.metadata(), key).timestamp(timestamp - 1).delete().build()).apply(false);
                    deleted++;
                }
            }
            long rows = 0;
            for (byte code = in.readByte(); code != END; code = in.readByte()) {
                readRow(in, local.getColumnFamilyStore(TABLES[code - 1]), timestamp).apply(false);
                rows++;
            }
            // Flushed, so that a restart from this snapshot (which names another writer) finds it on disk.
            flushTables();
            appliedTimestamp = Math.max(appliedTimestamp, timestamp);
            if (flushedMarker != null) {
                flushedIndex = -1; // what the marker said described the rows just replaced
                writeMarker(index, appliedTimestamp);
                flushAskedAt = index;
            }
            logger.info("FastCCS group {}: installed {}'s snapshot at log index {} ({} rows; {} partitions of ours replaced)",
                    group, writer, index, rows, deleted);
        }
    }

    /** This group's partitions of a local table: one per table, but one per key in {@code replica_versions}. */
    private List<DecoratedKey> partitionsOfGroup(ColumnFamilyStore table) {
        if (!table.name.equals(StorageSchema.REPLICA_VERSIONS))
            return List.of(table.decorateKey(Int32Type.instance.decompose(group)));
        List<DecoratedKey> keys = new ArrayList<>();
        for (UntypedResultSet.Row row : QueryProcessor.executeInternalWithPaging("SELECT DISTINCT partition, key FROM "
                + StorageSchema.LOCAL_KEYSPACE + "." + StorageSchema.REPLICA_VERSIONS, 1000)) {
            if (row.getInt("partition") != group) continue;
            keys.add(table.decorateKey(StorageSchema.replicaVersionsKey(group, row.getBytes("key"))));
        }
        return keys;
    }

    private static void writeRow(DataOutputStream out, byte table, DecoratedKey key, Row row) throws IOException {
        out.writeByte(table);
        writeBytes(out, key.getKey());
        out.writeShort(row.clustering().size());
        for (int i = 0; i < row.clustering().size(); i++) writeBytes(out, row.clustering().bufferAt(i));
        List<Cell<?>> cells = new ArrayList<>();
        for (Cell<?> c : row.cells()) if (c.isLive(FBUtilities.nowInSeconds())) cells.add(c);
        out.writeShort(cells.size());
        for (Cell<?> c : cells) {
            out.writeUTF(c.column().name.toString());
            writeBytes(out, c.buffer());
        }
    }

    private static Mutation readRow(DataInputStream in, ColumnFamilyStore table, long timestamp) throws IOException {
        DecoratedKey key = table.decorateKey(readBytes(in));
        Object[] clustering = new Object[in.readShort()];
        for (int i = 0; i < clustering.length; i++) clustering[i] = readBytes(in);
        PartitionUpdate.SimpleBuilder update = PartitionUpdate.simpleBuilder(table.metadata(), key).timestamp(timestamp);
        Row.SimpleBuilder row = update.row(clustering);
        for (int cells = in.readShort(); cells > 0; cells--) row.add(in.readUTF(), readBytes(in));
        return new Mutation(update.build());
    }

    private static void writeBytes(DataOutputStream out, ByteBuffer b) throws IOException {
        out.writeInt(b.remaining());
        out.write(ByteBufferUtil.getArray(b));
    }

    private static ByteBuffer readBytes(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) throw new IOException("negative length " + n + " in a FastCCS group snapshot");
        byte[] b = new byte[n];
        in.readFully(b);
        return ByteBuffer.wrap(b);
    }

    private static void readLive(ColumnFamilyStore table, DecoratedKey key, Consumer<Row> rows) {
        long nowInSec = FBUtilities.nowInSeconds();
        SinglePartitionReadCommand command = SinglePartitionReadCommand.fullPartitionRead(table.metadata(), nowInSec, key);
        try (ReadExecutionController controller = command.executionController();
             UnfilteredRowIterator partition = command.queryMemtableAndDisk(table, controller)) {
            RowIterator live = UnfilteredRowIterators.filter(partition, nowInSec);
            while (live.hasNext()) rows.accept(live.next());
        }
    }
}
