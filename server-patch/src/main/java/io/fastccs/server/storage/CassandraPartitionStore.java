package io.fastccs.server.storage;

import io.fastccs.protocol.primitives.CommitOrder;
import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.protocol.primitives.WriteKind;
import io.fastccs.protocol.messages.Outcome;
import io.fastccs.replication.ReplicatedLog;
import org.apache.cassandra.cql3.QueryProcessor;
import org.apache.cassandra.cql3.UntypedResultSet;
import org.apache.cassandra.config.Config;
import org.apache.cassandra.config.DatabaseDescriptor;
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
import org.apache.cassandra.utils.JVMStabilityInspector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A partition's durable state in the Cassandra node it runs in (tables in {@link StorageSchema}).
 *
 * <p><b>Writes</b> are {@link Mutation}s applied directly to the local storage engine, never through the
 * coordinator, on a small pool of writer threads: with {@code commitlog_sync: batch} or {@code group}, applying a
 * mutation blocks until the commit log is synced, and mutations applied concurrently share a sync. A step's writes
 * are handed over together at its end ({@link #endOfStep}, see {@link MutationWriter}). The calling
 * (protocol) thread never waits; {@link #whenDurable()} tells when everything issued so far is applied. Every
 * mutation carries a timestamp from {@link #nextTimestamp()}, strictly increasing in issue order, so a later
 * write to the same row (an outcome after its prepared record, a deletion after a version) wins however the
 * writer threads or commit log replay order them.
 *
 * <p><b>Reads</b> of versions come from an LRU cache of whole version lists, updated on every write, so a cached
 * read allocates nothing and touches no disk. A miss reads the key's partition locally and replays the key's
 * changes that are not applied yet ({@link PendingWrites}), so a read sees every write made through the store.
 * Misses are meant to be read off the protocol thread: the host asks {@link #notInMemory} before it hands a read to
 * the partition and {@link #load}s those keys first, on loader threads; the lists rejoin the protocol thread and
 * are completed there with every change issued since (docs/design.md, "Cache misses off the protocol thread").
 * {@link #versions} still reads synchronously if a key is missing anyway (counted as a synchronous miss).
 *
 * <p>Every method but {@link #whenDurable()}'s futures, {@link #stats()} and the row counts must be called from one
 * thread (the partition's), and one store per partition may be open at a time: the cache assumes it sees every
 * write to its keys. Keys written must be owned by this node: stored elsewhere they would be invisible to
 * coordinated reads and removed by {@code nodetool cleanup}; {@link #putVersion} rejects them.
 */
public final class CassandraPartitionStore implements DurablePartitionStore {
    private static final Logger logger = LoggerFactory.getLogger(CassandraPartitionStore.class);

    /**
     * Writer threads: each blocks for one commit log sync, so this many writes can share one sync. Blocked threads
     * cost no CPU; Cassandra's own mutation stage has 32 ({@code concurrent_writes}).
     */
    public static final int DEFAULT_WRITER_THREADS = 32;

    /** Threads reading versions missing from the cache: a read waits for the disk, never the protocol thread. */
    public static final int DEFAULT_LOADER_THREADS = 4;

    /**
     * How to open a store.
     *
     * @param self                  this node's partition index
     * @param partitionCount        the number of partitions (vector clock size)
     * @param cacheCapacity         how many keys' version lists the cache holds
     * @param writerThreads         threads applying mutations (see {@link #DEFAULT_WRITER_THREADS})
     * @param allowLateLocalKeyspace accept a local keyspace registered after commit log replay (see
     *                              {@link LocalKeyspace}); only for tools and tests that never restart a node
     * @param clockMicros           the node's clock the write timestamps follow (the one the protocol uses)
     */
    public record Settings(int self, int partitionCount, int cacheCapacity, int writerThreads, boolean allowLateLocalKeyspace,
                           int loaderThreads, LongSupplier clockMicros) {
        public Settings(int self, int partitionCount, int cacheCapacity, int writerThreads, boolean allowLateLocalKeyspace) {
            this(self, partitionCount, cacheCapacity, writerThreads, allowLateLocalKeyspace, DEFAULT_LOADER_THREADS,
                    FBUtilities::timestampMicros);
        }

        public Settings {
            if (loaderThreads < 1) throw new IllegalArgumentException("loader threads must be positive, got " + loaderThreads);
            if (partitionCount < 1) throw new IllegalArgumentException("partition count must be positive, got " + partitionCount);
            if (self < 0 || self >= partitionCount)
                throw new IllegalArgumentException("partition index " + self + " outside 0.." + (partitionCount - 1));
            if (cacheCapacity < 1) throw new IllegalArgumentException("cache capacity must be positive, got " + cacheCapacity);
            if (writerThreads < 1) throw new IllegalArgumentException("writer threads must be positive, got " + writerThreads);
            if (clockMicros == null) throw new IllegalArgumentException("no clock");
        }

        public static Settings of(int self, int partitionCount, int cacheCapacity) {
            return new Settings(self, partitionCount, cacheCapacity, DEFAULT_WRITER_THREADS, false);
        }

        public Settings withWriterThreads(int threads) {
            return new Settings(self, partitionCount, cacheCapacity, threads, allowLateLocalKeyspace, loaderThreads, clockMicros);
        }

        public Settings withLoaderThreads(int threads) {
            return new Settings(self, partitionCount, cacheCapacity, writerThreads, allowLateLocalKeyspace, threads, clockMicros);
        }

        public Settings withClock(LongSupplier micros) {
            return new Settings(self, partitionCount, cacheCapacity, writerThreads, allowLateLocalKeyspace, loaderThreads, micros);
        }
    }

    /** Counters for monitoring; a consistent-enough snapshot read from any thread. */
    public record Stats(int cachedKeys, long cacheHits, long cacheMisses, int pendingWrites,
                        long versionsWritten, long versionsRemoved, long keysLoaded, long synchronousMisses) {
    }

    /** A key being read off the protocol thread, and every change to it issued since its unapplied ones were taken. */
    private static final class Loading {
        final List<VersionChange> changes;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Loading(List<VersionChange> unapplied) {
            this.changes = new ArrayList<>(unapplied);
        }
    }

    private static final String CLOCK = "clock";
    private static final String VALUE = "value";
    private static final String TXN_CLIENT = "txn_client";
    private static final String TXN_SEQUENCE = "txn_sequence";
    private static final String COORDINATOR = "coordinator";
    private static final String PARTICIPANTS = "participants";
    private static final String WRITES = "writes";
    private static final String CLIENT_CLOCK = "client_clock";
    private static final String OUTCOME = "outcome";
    private static final String COMMIT_CLOCK = "commit_clock";
    private static final String DECIDED_AT = "decided_at";

    private final int self;
    private final int partitionCount;
    /** Replicated partitions: the group's log, through which every write goes; null at replication factor 1. */
    private final ReplicatedLog log;
    /** Writes of the current protocol step, appended to the log as one entry (replicated only; protocol thread). */
    private List<Mutation> batch = new ArrayList<>();
    private List<PendingWrites.Write> batchWrites = new ArrayList<>();
    /** Entries appended and not yet committed (replicated only; protocol thread). */
    private int appendsInFlight;
    /**
     * Entries a group's leader keeps uncommitted at once; the writes of later steps wait and go together. One, not two:
     * under Table 4.1 at RF 3 a write transaction then costs 2.9 entries instead of 4.1, and the cluster runs 1.37x as
     * many transactions (docs/design.md, "Group commit of entries").
     */
    static final int MAX_APPENDS_IN_FLIGHT = 1;
    private final Keyspace versionsKeyspace;
    private final ColumnFamilyStore versionsTable;
    private final ColumnFamilyStore transactionsTable;
    private final ColumnFamilyStore decisionsTable;
    private final ColumnFamilyStore snapshotsTable;
    /** The partition key of this store's rows in every local table. */
    private final DecoratedKey localKey;

    private final VersionCache cache;
    private final PendingWrites pending = new PendingWrites();
    private final ThreadPoolExecutor writers;
    /** Hands each step's mutations to {@link #writers} (replication factor 1). */
    private final MutationWriter mutationWriter;
    private final ThreadPoolExecutor loaders;
    /** Keys being loaded off the protocol thread (protocol thread only). */
    private final Map<Key, Loading> loading = new HashMap<>();
    /** Where loaded lists rejoin: the protocol thread, set by the host ({@link #rejoinOn}); null: load in place. */
    private volatile Executor protocolThread;

    /** Sequence number to id of the transaction records stored; null until first needed (read from the table). */
    private TreeMap<Long, TxnId> storedTransactions;
    private VectorClock savedSnapshot;
    private long lastTimestamp;
    private final LongSupplier clockMicros;
    /** The clock most recently encoded: the versions of one transaction share it, so it is encoded once. */
    private VectorClock lastEncodedCommitClock;
    private byte[] lastEncodedCommitBytes;
    private long lastEncodedCommitTime;
    private volatile boolean closed;
    private volatile Throwable writeFailure;

    // Written only by the protocol thread; opaque access keeps reads from other threads atomic without fences.
    private final AtomicInteger cachedKeys = new AtomicInteger();
    private final AtomicLong cacheHits = new AtomicLong();
    private final AtomicLong cacheMisses = new AtomicLong();
    private final AtomicLong keysLoaded = new AtomicLong();
    private final AtomicLong synchronousMisses = new AtomicLong();
    private final AtomicLong versionsWritten = new AtomicLong();
    private final AtomicLong versionsRemoved = new AtomicLong();

    private CassandraPartitionStore(Settings settings, ReplicatedLog log, long lastTimestamp) {
        this.self = settings.self();
        this.partitionCount = settings.partitionCount();
        this.log = log;
        this.lastTimestamp = lastTimestamp;
        this.clockMicros = settings.clockMicros();
        Keyspace local = Keyspace.open(StorageSchema.LOCAL_KEYSPACE);
        this.versionsKeyspace = log == null ? Keyspace.open(StorageSchema.KEYSPACE) : local;
        this.versionsTable = log == null ? versionsKeyspace.getColumnFamilyStore(StorageSchema.VERSIONS)
                : local.getColumnFamilyStore(StorageSchema.REPLICA_VERSIONS);
        this.transactionsTable = local.getColumnFamilyStore(StorageSchema.TRANSACTIONS);
        this.decisionsTable = local.getColumnFamilyStore(StorageSchema.DECISIONS);
        this.snapshotsTable = local.getColumnFamilyStore(StorageSchema.SNAPSHOTS);
        this.localKey = transactionsTable.decorateKey(Int32Type.instance.decompose(self));
        this.cache = new VersionCache(settings.cacheCapacity());
        AtomicInteger threadCount = new AtomicInteger();
        this.writers = new ThreadPoolExecutor(settings.writerThreads(), settings.writerThreads(), 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "fastccs-store-" + self + "-writer-" + threadCount.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.mutationWriter = new MutationWriter(writers, pending, this::writeFailed);
        this.loaders = new ThreadPoolExecutor(settings.loaderThreads(), settings.loaderThreads(), 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "fastccs-store-" + self + "-loader-" + threadCount.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Opens the store of partition {@code settings.self()} in this running node (StorageService in NORMAL mode),
     * creating the schema if needed. Called once per start of the partition.
     */
    public static CassandraPartitionStore open(Settings settings) {
        if (!Keyspace.isInitialized()) throw new IllegalStateException("the Cassandra node is not started");
        if (!LocalKeyspace.registeredBeforeReplay() && !settings.allowLateLocalKeyspace())
            throw new IllegalStateException("keyspace " + StorageSchema.LOCAL_KEYSPACE + " was not registered before commit "
                    + "log replay, so replay drops its unflushed records after a crash: call "
                    + StorageStartupHook.class.getName() + ".install() before Cassandra starts (or pass -D"
                    + io.fastccs.server.config.FastCcsProperty.SCHEMA_UPDATE_HANDLER_FACTORY.property + "=" + StorageStartupHook.FACTORY_CLASS + ")");
        LocalKeyspace.ensureRegistered();
        StorageSchema.ensureReplicatedKeyspace();
        Config.CommitLogSync sync = DatabaseDescriptor.getCommitLogSync();
        if (sync != Config.CommitLogSync.batch && sync != Config.CommitLogSync.group)
            logger.warn("commitlog_sync is {}: an applied write is not yet on disk, so a crash can lose what FastCCS "
                    + "acknowledged; use batch or group", sync);
        CassandraPartitionStore store = new CassandraPartitionStore(settings, null, newestTimestampStored());
        logger.info("Opened FastCCS store of partition {} (of {}), cache {} keys, {} writer threads",
                settings.self(), settings.partitionCount(), settings.cacheCapacity(), settings.writerThreads());
        return store;
    }

    /**
     * The largest write timestamp in this node's FastCCS tables, memtables flushed first so that they count: a store
     * opened after a restart writes above it whatever its clock says, so a clock stepped back across the restart (an
     * NTP step, the test clock offset) cannot put a later write below an earlier one, where it would lose (an outcome
     * under its prepared record, a snapshot under the one before).
     */
    private static long newestTimestampStored() {
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

    /**
     * Opens the store of replica group {@code settings.self()} at its leader: every write goes into the group's log
     * (the writes of one protocol step as one entry, see {@link #endOfStep}) and reaches the local tables of every
     * member through {@link GroupApplier}, only once committed; {@link #whenDurable()} completes once the group has
     * committed and this member applied everything written so far. Reads see the leader's own writes at once.
     *
     * @param appliedTimestamp the largest write timestamp the group's log has applied here: this leader's
     *                         timestamps follow it, so they keep increasing in log order across leaders whatever
     *                         their clocks say
     */
    public static CassandraPartitionStore openReplicated(Settings settings, ReplicatedLog log, long appliedTimestamp) {
        if (!Keyspace.isInitialized()) throw new IllegalStateException("the Cassandra node is not started");
        LocalKeyspace.ensureRegistered();
        CassandraPartitionStore store = new CassandraPartitionStore(settings, log, appliedTimestamp);
        logger.info("Opened FastCCS store of replica group {} (of {}) at its leader, cache {} keys",
                settings.self(), settings.partitionCount(), settings.cacheCapacity());
        return store;
    }

    // ---- versions ----

    @Override
    public List<Version> versions(Key key) {
        List<Version> cached = cache.get(key);
        if (cached != null) {
            cacheHits.setOpaque(cacheHits.getPlain() + 1);
            return cached;
        }
        cacheMisses.setOpaque(cacheMisses.getPlain() + 1);
        synchronousMisses.setOpaque(synchronousMisses.getPlain() + 1);
        Loading inFlight = loading.get(key);
        if (inFlight != null) {
            // Read it here after all (the loaded list will find the key cached and step aside).
            List<Version> versions = readStoredVersions(key);
            for (VersionChange change : inFlight.changes) versions = change.applyTo(versions);
            cachePut(key, versions);
            return versions;
        }
        // Take the unapplied changes before reading: a change missing from that list was applied before the read.
        List<VersionChange> unapplied = pending.unappliedChanges(key);
        List<Version> versions = readStoredVersions(key);
        for (VersionChange change : unapplied) versions = change.applyTo(versions);
        cachePut(key, versions);
        return versions;
    }

    @Override
    public void putVersion(Key key, Version version) {
        requireOwned(key);
        List<Version> cached = cache.get(key);
        if (cached != null) {
            if (VersionChange.containsSequence(cached, version.sequence())) return; // stored (or being stored) already
            cachePut(key, VersionChange.insert(cached, version));
        } else {
            Loading inFlight = loading.get(key);
            if (inFlight != null) inFlight.changes.add(new VersionChange.Put(version));
        }
        PartitionUpdate.SimpleBuilder update = versionsUpdate(key);
        update.row(version.sequence())
                .add(CLOCK, ByteBuffer.wrap(version.kind() == WriteKind.PUT ? encodeCommit(version.commitClock(), version.commitTime())
                        : RecordCodec.encodeVersionCommit(version.commitClock(), version.commitTime(), version.kind())))
                .add(VALUE, ByteBuffer.wrap(version.value()));
        submit(new Mutation(update.build()), key, new VersionChange.Put(version));
        versionsWritten.setOpaque(versionsWritten.getPlain() + 1);
    }

    /**
     * Deletes the rows of the versions older than {@code newestKept}. Older by commit clock is not a range of
     * sequence numbers, so those are row deletions, except that the removed versions below the smallest kept
     * sequence number (usually all of them) go with one range deletion from the start of the partition: successive
     * range deletions of a key merge, so a hot key does not pile up a tombstone per collected version.
     */
    @Override
    public void removeVersionsOlderThan(Key key, Version newestKept) {
        List<Version> current = versions(key); // complete: the range deletion below relies on it
        List<Version> kept = new VersionChange.RemoveOlderThan(newestKept).applyTo(current);
        if (kept.size() == current.size()) return;
        cachePut(key, kept);
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
        submit(new Mutation(update.build()), key, new VersionChange.RemoveOlderThan(newestKept));
        Loading inFlight = loading.get(key);
        if (inFlight != null) inFlight.changes.add(new VersionChange.RemoveOlderThan(newestKept));
        versionsRemoved.setOpaque(versionsRemoved.getPlain() + current.size() - kept.size());
    }

    /**
     * One mutation of the key's partition: the folded rows deleted, the base written (over the row of a folded version
     * whose sequence number it takes: a newer write of the same row replaces its cells), so a crash keeps either all the
     * folded versions or the base.
     */
    @Override
    public void replaceVersions(Key key, List<Version> folded, Version base) {
        requireOwned(key);
        VersionChange change = new VersionChange.Replace(List.copyOf(folded), base);
        List<Version> cached = cache.get(key);
        if (cached != null) cachePut(key, change.applyTo(cached));
        PartitionUpdate.SimpleBuilder update = versionsUpdate(key);
        for (Version f : folded) if (f.sequence() != base.sequence()) update.row(f.sequence()).delete();
        update.row(base.sequence())
                .add(CLOCK, ByteBuffer.wrap(RecordCodec.encodeVersionCommit(base.commitClock(), base.commitTime(), base.kind())))
                .add(VALUE, ByteBuffer.wrap(base.value()));
        submit(new Mutation(update.build()), key, change);
        Loading inFlight = loading.get(key);
        if (inFlight != null) inFlight.changes.add(change);
        versionsRemoved.setOpaque(versionsRemoved.getPlain() + folded.size() - 1);
    }

    // ---- loading off the protocol thread ----

    @Override
    public void rejoinOn(Executor protocolThread) {
        this.protocolThread = protocolThread;
    }

    @Override
    public boolean versionsInMemory(Key key) {
        if (cache.get(key) != null) return true;
        load(List.of(key)); // for a later pass
        return false;
    }

    @Override
    public List<Key> notInMemory(Collection<Key> keys) {
        List<Key> out = null;
        for (Key key : keys) {
            if (cache.get(key) != null) continue;
            if (out == null) out = new ArrayList<>(keys.size());
            out.add(key);
        }
        return out == null ? List.of() : out;
    }

    /**
     * Reads the keys' version lists on a loader thread and caches them on the protocol thread. The changes not yet
     * applied are taken now, before the read; changes issued while it runs are added as they are issued; on the
     * protocol thread they are all replayed on what was read, in issue order (see {@link VersionChange}). The
     * future completes on the protocol thread, right after the last of these keys is cached, so a task chained on
     * it finds them all in memory. It never completes exceptionally: a key that could not be read is left out,
     * and {@link #versions} reads it again (and reports the error to the request).
     */
    @Override
    public CompletableFuture<Void> load(Collection<Key> keys) {
        if (protocolThread == null) { // no protocol thread to rejoin: read here, as versions() would
            for (Key key : keys) versions(key);
            return CompletableFuture.completedFuture(null);
        }
        List<Key> toRead = new ArrayList<>();
        List<CompletableFuture<Void>> waits = new ArrayList<>();
        for (Key key : keys) {
            if (cache.get(key) != null) continue;
            Loading inFlight = loading.get(key);
            if (inFlight == null) {
                inFlight = new Loading(pending.unappliedChanges(key)); // before the read: see the class comment
                loading.put(key, inFlight);
                toRead.add(key);
            }
            waits.add(inFlight.done);
        }
        if (!toRead.isEmpty()) {
            try {
                loaders.execute(() -> readAndRejoin(toRead));
            } catch (RejectedExecutionException e) {
                for (Key key : toRead) loading.remove(key).done.complete(null); // closing: versions() reads if asked
            }
        }
        if (waits.isEmpty()) return CompletableFuture.completedFuture(null);
        return waits.size() == 1 ? waits.get(0) : CompletableFuture.allOf(waits.toArray(new CompletableFuture[0]));
    }

    private void readAndRejoin(List<Key> keys) {
        Map<Key, List<Version>> read = new HashMap<>();
        for (Key key : keys) {
            try {
                read.put(key, readStoredVersions(key));
            } catch (Throwable t) {
                logger.warn("FastCCS store {}: reading the versions of {} failed; the request will read it again", self, key, t);
                JVMStabilityInspector.inspectThrowable(t);
            }
        }
        protocolThread.execute(() -> install(keys, read));
    }

    private void install(List<Key> keys, Map<Key, List<Version>> read) {
        List<Loading> finished = new ArrayList<>(keys.size());
        for (Key key : keys) {
            Loading l = loading.remove(key);
            if (l == null) continue;
            finished.add(l);
            List<Version> versions = read.get(key);
            if (versions == null || cache.get(key) != null) continue; // failed, or read synchronously meanwhile
            for (VersionChange change : l.changes) versions = change.applyTo(versions);
            cachePut(key, versions);
            keysLoaded.setOpaque(keysLoaded.getPlain() + 1);
        }
        for (Loading l : finished) l.done.complete(null);
    }

    // ---- transaction records, decisions, snapshot ----

    @Override
    public void savePrepared(TxnRecord record) {
        storedTransactions().put(record.sequence(), record.txnId());
        PartitionUpdate.SimpleBuilder update = localUpdate(transactionsTable);
        Row.SimpleBuilder row = update.row(record.sequence())
                .add(TXN_CLIENT, record.txnId().client())
                .add(TXN_SEQUENCE, record.txnId().sequence())
                .add(COORDINATOR, record.coordinator())
                .add(PARTICIPANTS, ByteBuffer.wrap(RecordCodec.encodeParticipants(record.participants())))
                .add(WRITES, ByteBuffer.wrap(RecordCodec.encodeWrites(record.writes())))
                .add(CLIENT_CLOCK, ByteBuffer.wrap(RecordCodec.encodeClock(record.clientClock())));
        if (record.outcome() != Outcome.UNDECIDED) addOutcome(row, record.outcome(), record.commitClock(), record.commitTime());
        submit(new Mutation(update.build()), null, null);
    }

    @Override
    public void saveOutcome(TxnId txnId, long sequence, Outcome outcome, VectorClock commitClock, long commitTime) {
        // As the reference store: only for a record we hold (it may be gone already behind the snapshot).
        if (!txnId.equals(storedTransactions().get(sequence))) {
            logger.debug("Outcome {} of {} (sequence {}) has no stored record; not saved", outcome, txnId, sequence);
            return;
        }
        PartitionUpdate.SimpleBuilder update = localUpdate(transactionsTable);
        // No row marker: should the record be dropped first, the outcome alone must not make a row appear.
        addOutcome(update.row(sequence).noPrimaryKeyLivenessInfo(), outcome, commitClock, commitTime);
        submit(new Mutation(update.build()), null, null);
    }

    /**
     * Saves the clock and, in the same mutation (so atomically), drops the transaction records up to its own entry
     * with one range deletion. Does nothing when neither changed, which is common: GC saves it every pass.
     */
    @Override
    public void saveSnapshot(VectorClock snapshot, int self) {
        if (self != this.self) throw new IllegalArgumentException("store of partition " + this.self + " asked to save partition " + self);
        if (snapshot.size() != partitionCount)
            throw new IllegalArgumentException("snapshot has " + snapshot.size() + " entries, expected " + partitionCount);
        long settled = snapshot.get(self);
        SortedMap<Long, TxnId> dropped = storedTransactions().headMap(settled, true);
        if (snapshot.equals(savedSnapshot) && dropped.isEmpty()) return;
        Mutation.SimpleBuilder mutation = Mutation.simpleBuilder(StorageSchema.LOCAL_KEYSPACE, localKey).timestamp(nextTimestamp());
        mutation.update(snapshotsTable.metadata()).row().add(CLOCK, ByteBuffer.wrap(RecordCodec.encodeClock(snapshot)));
        if (!dropped.isEmpty()) mutation.update(transactionsTable.metadata()).addRangeTombstone().start().end(settled).inclEnd();
        submit(mutation.build(), null, null);
        dropped.clear();
        savedSnapshot = snapshot;
    }

    @Override
    public void saveDecision(Decision decision) {
        PartitionUpdate.SimpleBuilder update = localUpdate(decisionsTable);
        update.row(decision.txnId().client(), decision.txnId().sequence())
                .add(OUTCOME, RecordCodec.encodeOutcome(decision.outcome()))
                .add(COMMIT_CLOCK, decision.commitClock() == null ? null
                        : ByteBuffer.wrap(encodeCommit(decision.commitClock(), decision.commitTime())))
                .add(PARTICIPANTS, ByteBuffer.wrap(RecordCodec.encodeParticipants(decision.participants())))
                .add(DECIDED_AT, decision.decidedAt());
        submit(new Mutation(update.build()), null, null);
    }

    @Override
    public void forgetDecision(TxnId txnId) {
        PartitionUpdate.SimpleBuilder update = localUpdate(decisionsTable);
        update.row(txnId.client(), txnId.sequence()).delete();
        submit(new Mutation(update.build()), null, null);
    }

    /**
     * Reads back the snapshot, the transaction records (by sequence number) and the decisions (by decision time,
     * the order the partition expires them in). Waits for this store's pending writes first.
     */
    @Override
    public Recovered recover() {
        awaitPendingWrites();
        VectorClock[] snapshot = new VectorClock[1];
        readPartition(snapshotsTable, localKey, row -> {
            ByteBuffer clock = cellValue(row, snapshotsTable, CLOCK);
            if (clock != null) snapshot[0] = RecordCodec.decodeClock(clock);
        });

        List<TxnRecord> transactions = new ArrayList<>();
        TreeMap<Long, TxnId> stored = new TreeMap<>();
        readPartition(transactionsTable, localKey, row -> {
            TxnRecord record = decodeTransaction(row);
            if (record == null) return;
            transactions.add(record);
            stored.put(record.sequence(), record.txnId());
        });

        List<Decision> decisions = new ArrayList<>();
        readPartition(decisionsTable, localKey, row -> {
            Decision decision = decodeDecision(row);
            if (decision != null) decisions.add(decision);
        });
        decisions.sort(Comparator.comparingLong(Decision::decidedAt)); // stable: ties stay in txn id order

        storedTransactions = stored;
        savedSnapshot = snapshot[0];
        logger.info("Recovered FastCCS partition {}: snapshot {}, {} transaction records, {} decisions",
                self, snapshot[0], transactions.size(), decisions.size());
        return new Recovered(snapshot[0], List.copyOf(transactions), List.copyOf(decisions));
    }

    // ---- durability and life cycle ----

    @Override
    public CompletableFuture<Void> whenDurable() {
        handOver();
        return pending.whenApplied();
    }

    @Override
    public CompletableFuture<Void> durableMark() {
        return pending.whenApplied();
    }

    @Override
    public void endOfStep() {
        handOver();
    }

    /** The writes made so far go: into the group's log (replicated), or to the writer threads. Protocol thread only. */
    private void handOver() {
        if (log != null) {
            appendBatch();
            return;
        }
        try {
            mutationWriter.flush();
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException("FastCCS store " + self + " is closed", e);
        }
    }

    /**
     * Replicated: puts the writes made since the last entry into the group's log as one entry, unless
     * {@link #MAX_APPENDS_IN_FLIGHT} entries are still uncommitted: then they wait, with the steps that follow, for the
     * next entry, appended as soon as one commits (group commit: under load one entry carries many steps' writes, and
     * a group's log needs no more entries per second than it can commit). Protocol thread only.
     */
    private void appendBatch() {
        if (log == null || batch.isEmpty()) return;
        Throwable failed = writeFailure;
        if (failed != null) { // this member lost an append: nothing more is appended, the host stops
            for (PendingWrites.Write w : batchWrites) pending.completed(w, failed);
            batch = new ArrayList<>();
            batchWrites = new ArrayList<>();
            return;
        }
        Executor rejoin = protocolThread;
        if (rejoin != null && appendsInFlight >= MAX_APPENDS_IN_FLIGHT) return;
        byte[] entry = MutationBatch.encode(batch);
        List<PendingWrites.Write> writes = batchWrites;
        batch = new ArrayList<>();
        batchWrites = new ArrayList<>();
        appendsInFlight++;
        log.append(entry).whenComplete((index, error) -> {
            if (error != null && writeFailure == null) {
                writeFailure = error;
                logger.info("FastCCS group {}: an entry did not commit here ({}); this member stops leading it", self, error.toString());
            }
            for (PendingWrites.Write w : writes) pending.completed(w, error);
            if (rejoin == null) return;
            try {
                rejoin.execute(() -> {
                    appendsInFlight--;
                    appendBatch();
                });
            } catch (RejectedExecutionException e) {
                // the host is stopping
            }
        });
    }

    /** Stops accepting writes and waits (up to a minute) for the pending ones to be applied. */
    @Override
    public void close() {
        if (closed) return;
        if (log == null) mutationWriter.flush(); // the writers still run: nothing is refused
        closed = true;
        writers.shutdown();
        loaders.shutdown();
        if (log != null) { // nothing to wait for: what is not committed is the next leader's business
            logger.info("Closed FastCCS store of replica group {} ({} writes uncommitted)", self, pending.unappliedCount());
            return;
        }
        try {
            if (!writers.awaitTermination(1, TimeUnit.MINUTES))
                logger.warn("FastCCS store {}: {} writes still pending after a minute; closing anyway", self, pending.unappliedCount());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        logger.info("Closed FastCCS store of partition {}", self);
    }

    // ---- monitoring ----

    public Stats stats() {
        return new Stats(cachedKeys.getOpaque(), cacheHits.getOpaque(), cacheMisses.getOpaque(), pending.unappliedCount(),
                versionsWritten.getOpaque(), versionsRemoved.getOpaque(), keysLoaded.getOpaque(), synchronousMisses.getOpaque());
    }

    /** Rows of {@code fastccs.versions} on this node (a full local scan: for tests and tools, not the hot path). */
    public static long countVersionRows() {
        long rows = 0;
        for (UntypedResultSet.Row ignored : QueryProcessor.executeInternalWithPaging(
                "SELECT sequence FROM " + StorageSchema.KEYSPACE + "." + StorageSchema.VERSIONS, 1000))
            rows++;
        return rows;
    }

    /** Rows of {@code fastccs.versions} stored for {@code key}, applied writes only. */
    public long countVersionRows(Key key) {
        long[] rows = new long[1];
        readPartition(versionsTable, versionsKey(key), row -> rows[0]++);
        return rows[0];
    }

    // ---- internals ----

    private void submit(Mutation mutation, Key key, VersionChange change) {
        if (closed) throw new IllegalStateException("FastCCS store " + self + " is closed");
        Throwable failure = writeFailure;
        if (failure != null) throw new IllegalStateException("FastCCS store " + self + " lost a write and cannot promise durability", failure);
        PendingWrites.Write write = pending.issue(key, change);
        if (log != null) {
            batch.add(mutation);
            batchWrites.add(write);
            return;
        }
        mutationWriter.add(mutation, write); // handed over at the end of the step, or when whenDurable() asks
    }

    private void writeFailed(Throwable t) {
        if (writeFailure == null) writeFailure = t;
        logger.error("FastCCS store {}: a write failed; durability is lost", self, t);
    }

    private void awaitPendingWrites() {
        try {
            whenDurable().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for pending writes", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a pending write failed", e.getCause());
        }
    }

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

    /** The versions of one transaction share their commit, so it is encoded once. */
    private byte[] encodeCommit(VectorClock clock, long time) {
        if (clock != lastEncodedCommitClock || time != lastEncodedCommitTime) {
            lastEncodedCommitBytes = RecordCodec.encodeCommit(clock, time);
            lastEncodedCommitClock = clock;
            lastEncodedCommitTime = time;
        }
        return lastEncodedCommitBytes; // shared by mutations; never modified
    }

    private void cachePut(Key key, List<Version> versions) {
        cache.put(key, versions);
        cachedKeys.setOpaque(cache.size());
    }

    private void requireOwned(Key key) {
        if (log != null) return; // a group's versions are in the local keyspace, keyed by group
        var token = versionsTable.metadata().partitioner.getToken(keyBuffer(key));
        if (versionsKeyspace.getReplicationStrategy().getNaturalReplicasForToken(token).selfIfPresent() == null)
            throw new IllegalArgumentException("key " + key + " (token " + token + ") is not owned by this node: stored here it "
                    + "would be invisible to coordinated reads and removed by nodetool cleanup");
    }

    private PartitionUpdate.SimpleBuilder versionsUpdate(Key key) {
        PartitionUpdate.SimpleBuilder update = log == null
                ? PartitionUpdate.simpleBuilder(versionsTable.metadata(), keyBuffer(key))
                : PartitionUpdate.simpleBuilder(versionsTable.metadata(), self, keyBuffer(key));
        return update.timestamp(nextTimestamp());
    }

    private DecoratedKey versionsKey(Key key) {
        if (log == null) return versionsTable.decorateKey(keyBuffer(key));
        return versionsTable.decorateKey(StorageSchema.replicaVersionsKey(self, keyBuffer(key)));
    }

    private PartitionUpdate.SimpleBuilder localUpdate(ColumnFamilyStore table) {
        return PartitionUpdate.simpleBuilder(table.metadata(), self).timestamp(nextTimestamp());
    }

    private static void addOutcome(Row.SimpleBuilder row, Outcome outcome, VectorClock commitClock, long commitTime) {
        row.add(OUTCOME, RecordCodec.encodeOutcome(outcome))
                .add(COMMIT_CLOCK, commitClock == null ? null : ByteBuffer.wrap(RecordCodec.encodeCommit(commitClock, commitTime)));
    }

    private List<Version> readStoredVersions(Key key) {
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
        CommitOrder commit = stored == null ? null : RecordCodec.decodeCommit(stored);
        return new TxnRecord(new TxnId(ByteBufferUtil.toLong(client), ByteBufferUtil.toLong(txnSequence)), sequence,
                ByteBufferUtil.toInt(coordinator), RecordCodec.decodeParticipants(participants),
                RecordCodec.decodeWrites(writes), RecordCodec.decodeClock(clientClock),
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

    private TreeMap<Long, TxnId> storedTransactions() {
        if (storedTransactions == null) {
            TreeMap<Long, TxnId> stored = new TreeMap<>();
            readPartition(transactionsTable, localKey, row -> {
                ByteBuffer client = cellValue(row, transactionsTable, TXN_CLIENT);
                ByteBuffer txnSequence = cellValue(row, transactionsTable, TXN_SEQUENCE);
                if (client != null && txnSequence != null)
                    stored.put(ByteBufferUtil.toLong(row.clustering().bufferAt(0)),
                            new TxnId(ByteBufferUtil.toLong(client), ByteBufferUtil.toLong(txnSequence)));
            });
            storedTransactions = stored;
        }
        return storedTransactions;
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
