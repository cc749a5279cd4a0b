package io.fastccs.server.storage;

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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    public GroupApplier(int group, String nodeId, Leadership leadership) {
        this.group = group;
        this.nodeId = nodeId;
        this.leadership = leadership;
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
        long max = appliedTimestamp;
        for (Mutation m : MutationBatch.decode(batch)) {
            m.apply(false); // the group's log is the durable copy; see the class comment
            for (PartitionUpdate u : m.getPartitionUpdates()) max = Math.max(max, u.maxTimestamp());
        }
        appliedTimestamp = max;
        appliedEntries++;
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
            for (String name : TABLES) local.getColumnFamilyStore(name).forceBlockingFlush(ColumnFamilyStore.FlushReason.INTERNALLY_FORCED);
            appliedTimestamp = Math.max(appliedTimestamp, timestamp);
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
