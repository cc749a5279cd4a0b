package io.fastccs.server.storage;

import org.apache.cassandra.cql3.statements.schema.CreateTableStatement;
import org.apache.cassandra.schema.KeyspaceMetadata;
import org.apache.cassandra.schema.KeyspaceParams;
import org.apache.cassandra.schema.Schema;
import org.apache.cassandra.schema.SchemaTransformations;
import org.apache.cassandra.schema.TableId;
import org.apache.cassandra.schema.TableMetadata;
import org.apache.cassandra.schema.Tables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The store's keyspaces and tables. Table ids are fixed, so nodes that create the schema concurrently produce the
 * same definitions and never disagree.
 *
 * <pre>
 * fastccs.versions           -- replicated schema (SimpleStrategy, RF 1); every row is on the node owning its key
 *   (key blob, sequence bigint, clock blob, value blob, PRIMARY KEY (key, sequence))
 *
 * fastccs_local.*            -- LocalStrategy, defined in code like Cassandra's system keyspace (see LocalKeyspace)
 *   transactions (partition int, sequence bigint, txn_client bigint, txn_sequence bigint, coordinator int,
 *                 participants blob, writes blob, client_clock blob, outcome tinyint, commit_clock blob,
 *                 proposed_time bigint, PRIMARY KEY (partition, sequence))
 *   decisions    (partition int, txn_client bigint, txn_sequence bigint, outcome tinyint, commit_clock blob,
 *                 participants blob, decided_at bigint, PRIMARY KEY (partition, txn_client, txn_sequence))
 *   snapshots    (partition int PRIMARY KEY, clock blob)
 *   replica_versions (partition int, key blob, sequence bigint, clock blob, value blob,
 *                 PRIMARY KEY ((partition, key), sequence))   -- replicated partitions only
 * </pre>
 * {@code partition} is the FastCCS partition index of the node that wrote the row; with replicated partitions, the
 * replica group whose log's applier wrote it (a node holds the rows of every group it is a member of, and the
 * versions live in {@code replica_versions} so that Cassandra never replicates, repairs or cleans them up). Blob
 * encodings are in {@link RecordCodec}.
 */
public final class StorageSchema {
    private static final Logger logger = LoggerFactory.getLogger(StorageSchema.class);

    public static final String KEYSPACE = "fastccs";
    public static final String VERSIONS = "versions";

    public static final String LOCAL_KEYSPACE = "fastccs_local";
    public static final String TRANSACTIONS = "transactions";
    public static final String DECISIONS = "decisions";
    public static final String SNAPSHOTS = "snapshots";
    public static final String REPLICA_VERSIONS = "replica_versions";
    public static final String COMPARED_WRITES = "compared_writes";

    static final TableId VERSIONS_ID = TableId.fromUUID(UUID.fromString("c903aafe-247e-4dc0-a433-7b4255174cb8"));
    static final TableId TRANSACTIONS_ID = TableId.fromUUID(UUID.fromString("418750b1-e4a4-4811-a38d-fda532f44d66"));
    static final TableId DECISIONS_ID = TableId.fromUUID(UUID.fromString("11e478f6-7117-4ecb-9204-3fe0792a5fc4"));
    static final TableId SNAPSHOTS_ID = TableId.fromUUID(UUID.fromString("258f72f1-21b7-45eb-85f9-a2d67c4105a1"));
    static final TableId COMPARED_WRITES_ID = TableId.fromUUID(UUID.fromString("3d0a6f2e-91c4-4b7e-8a55-0c7f41e2d913"));
    static final TableId REPLICA_VERSIONS_ID = TableId.fromUUID(UUID.fromString("6b1f0c52-8d0e-4a57-9f43-2c1d5e7a9b30"));

    /**
     * The write timestamp of the replicated schema (2026-01-01T00:00:00Z plus one microsecond), the same on every
     * node, as Cassandra does for its own replicated system keyspaces. Raise it when a definition changes: the newer
     * definition then wins everywhere. An operator's later ALTER (a current timestamp) still wins over it.
     */
    static final long SCHEMA_GENERATION = 1_767_225_600_000_001L;

    private StorageSchema() {
    }

    /** The partition key of {@code key}'s versions in {@code replica_versions}: (group, key). */
    static java.nio.ByteBuffer replicaVersionsKey(int group, java.nio.ByteBuffer key) {
        return org.apache.cassandra.db.marshal.CompositeType.build(org.apache.cassandra.db.marshal.ByteBufferAccessor.instance,
                org.apache.cassandra.db.marshal.Int32Type.instance.decompose(group), key);
    }

    static KeyspaceMetadata replicatedKeyspace() {
        TableMetadata versions = parse(KEYSPACE, VERSIONS, VERSIONS_ID,
                "FastCCS committed versions of the keys this node owns, newest by commit clock (see RecordCodec)",
                "CREATE TABLE %s (key blob, sequence bigint, clock blob, value blob, PRIMARY KEY (key, sequence))");
        return KeyspaceMetadata.create(KEYSPACE, KeyspaceParams.simple(1), Tables.of(versions));
    }

    static KeyspaceMetadata localKeyspace() {
        TableMetadata transactions = parse(LOCAL_KEYSPACE, TRANSACTIONS, TRANSACTIONS_ID,
                "FastCCS prepared write transactions and their outcomes, until the snapshot clock passes them",
                "CREATE TABLE %s (partition int, sequence bigint, txn_client bigint, txn_sequence bigint, "
                        + "coordinator int, participants blob, writes blob, client_clock blob, outcome tinyint, "
                        + "commit_clock blob, proposed_time bigint, PRIMARY KEY (partition, sequence))");
        TableMetadata decisions = parse(LOCAL_KEYSPACE, DECISIONS, DECISIONS_ID,
                "FastCCS coordinator decisions, until forgotten",
                "CREATE TABLE %s (partition int, txn_client bigint, txn_sequence bigint, outcome tinyint, "
                        + "commit_clock blob, participants blob, decided_at bigint, "
                        + "PRIMARY KEY (partition, txn_client, txn_sequence))");
        TableMetadata snapshots = parse(LOCAL_KEYSPACE, SNAPSHOTS, SNAPSHOTS_ID,
                "FastCCS saved snapshot clock",
                "CREATE TABLE %s (partition int PRIMARY KEY, clock blob)");
        TableMetadata replicaVersions = parse(LOCAL_KEYSPACE, REPLICA_VERSIONS, REPLICA_VERSIONS_ID,
                "FastCCS committed versions of the replica groups this node is a member of, written by their logs' appliers",
                "CREATE TABLE %s (partition int, key blob, sequence bigint, clock blob, value blob, "
                        + "PRIMARY KEY ((partition, key), sequence))");
        TableMetadata comparedWrites = parse(LOCAL_KEYSPACE, COMPARED_WRITES, COMPARED_WRITES_ID,
                "The writes the compared protocols (eiger, wren, eventual) took on, newest per key: written through the "
                        + "commit log so a comparison counts the same storage work as FastCCS; not read back yet",
                "CREATE TABLE %s (key blob, protocol text, txn_client bigint, txn_sequence bigint, value blob, "
                        + "PRIMARY KEY (key, protocol))");
        return KeyspaceMetadata.create(LOCAL_KEYSPACE, KeyspaceParams.local(),
                Tables.of(transactions, decisions, snapshots, replicaVersions, comparedWrites));
    }

    /**
     * Creates (or brings up to date) the replicated {@code fastccs} keyspace. Idempotent: with the fixed ids and
     * timestamp, a node that finds the definitions already there changes nothing, and concurrent creations on
     * several nodes produce identical schema mutations.
     */
    static void ensureReplicatedKeyspace() {
        KeyspaceMetadata before = Schema.instance.getKeyspaceMetadata(KEYSPACE);
        Schema.instance.transform(SchemaTransformations.updateSystemKeyspace(replicatedKeyspace(), SCHEMA_GENERATION));
        TableMetadata versions = Schema.instance.getTableMetadata(KEYSPACE, VERSIONS);
        if (versions == null || !versions.id.equals(VERSIONS_ID))
            throw new IllegalStateException(KEYSPACE + "." + VERSIONS + " exists with id "
                    + (versions == null ? null : versions.id) + ", expected " + VERSIONS_ID
                    + ": it was created by something else; drop it (losing its data) or fix the id");
        if (before == null) logger.info("Created keyspace {} (table {} id {})", KEYSPACE, VERSIONS, VERSIONS_ID);
    }

    /**
     * Tombstones may be purged at the first compaction (gc_grace_seconds 0): every table here has one replica,
     * written locally, so no replica can miss a deletion and resurrect data. Memtables are flushed at least
     * hourly, as Cassandra does for its system tables, which bounds commit log replay.
     */
    private static TableMetadata parse(String keyspace, String table, TableId id, String comment, String cql) {
        return CreateTableStatement.parse(String.format(cql, table), keyspace)
                .id(id)
                .gcGraceSeconds(0)
                .memtableFlushPeriod((int) TimeUnit.HOURS.toMillis(1))
                .comment(comment)
                .build();
    }
}
