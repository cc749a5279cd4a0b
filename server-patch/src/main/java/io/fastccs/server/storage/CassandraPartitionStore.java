package io.fastccs.server.storage;

import io.fastccs.protocol.host.DurablePartitionStore;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.replication.ReplicatedLog;
import org.apache.cassandra.config.Config;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.cql3.QueryProcessor;
import org.apache.cassandra.cql3.UntypedResultSet;
import org.apache.cassandra.db.Keyspace;
import org.apache.cassandra.db.Mutation;
import org.apache.cassandra.utils.FBUtilities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A partition's durable state in the Cassandra node it runs in (tables in {@link StorageSchema}).
 *
 * <p><b>Writes</b> take one of two paths, chosen when the store opens ({@link WritePath}); at replication factor 1
 * they are {@link Mutation}s applied directly to the local storage engine, never through the
 * coordinator, on a small pool of writer threads: with {@code commitlog_sync: batch} or {@code group}, applying a
 * mutation blocks until the commit log is synced, and mutations applied concurrently share a sync. A step's writes
 * are handed over together at its end ({@link #endOfStep}, see {@link MutationWriter}). The calling
 * (protocol) thread never waits; {@link #whenDurable()} tells when everything issued so far is applied. Every
 * mutation carries a timestamp from {@link StoreRows}, strictly increasing in issue order, so a later
 * write to the same row (an outcome after its prepared record, a deletion after a version) wins however the
 * writer threads or commit log replay order them.
 *
 * <p><b>Reads</b> of versions come from an LRU cache of whole version lists, updated on every write, so a cached
 * read allocates nothing and touches no disk. A miss reads the key's partition locally and replays the key's
 * changes that are not applied yet ({@link PendingWrites}), so a read sees every write made through the store.
 * Misses are meant to be read off the protocol thread: the host asks {@link #notInMemory} before it hands a read to
 * the partition and {@link #load}s those keys first, on loader threads; the lists rejoin the protocol thread and
 * are completed there with every change issued since (docs/design/cache-misses.md, "The loaded list equals what a synchronous read would give at install time").
 * {@link #versions} still reads synchronously if a key is missing anyway (counted as a synchronous miss).
 *
 * <p>Every method but {@link #whenDurable()}'s futures, {@link #stats()} and the row counts must be called from one
 * thread (the partition's), and one store per partition may be open at a time: the cache assumes it sees every
 * write to its keys. Keys written must be owned by this node: stored elsewhere they would be invisible to
 * coordinated reads and removed by {@code nodetool cleanup}; {@link #putVersion} rejects them.
 */
public final class CassandraPartitionStore implements DurablePartitionStore {
    private static final Logger logger = LoggerFactory.getLogger(CassandraPartitionStore.class);
    /** The mutations of FastCCS's stores, the protocol whose records this store holds. */
    private static final StoreMutations.Counts MUTATIONS = StoreMutations.of("fastccs");

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

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final int self;
    private final int partitionCount;
    /** The tables' rows, in the layout of this store's replication (see {@link StoreRows}). */
    private final StoreRows rows;
    private final PendingWrites pending;
    /** The last {@link #writtenMark()}, and whether a write was issued since (protocol thread). */
    private CompletableFuture<Void> lastMark;
    private boolean writtenSinceMark;
    /**
     * The last write messages rest on (a prepare or an abort: PartitionStore, "What a message waits for"), the last
     * {@link #durableMark()} and whether such a write was issued since (protocol thread).
     */
    private PendingWrites.Write lastRequired;
    private CompletableFuture<Void> lastRequiredMark;
    private boolean requiredSinceMark;
    private final VersionReads reads;
    /** Where the mutations go, chosen at open: straight to the storage engine, or through the group's log. */
    private final WritePath writes;

    /** Sequence number to id of the transaction records stored; null until first needed (read from the table). */
    private TreeMap<Long, TxnId> storedTransactions;
    private VectorClock savedSnapshot;
    private volatile boolean closed;

    // Written only by the protocol thread; opaque access keeps reads from other threads atomic without fences.
    private final AtomicLong versionsWritten = new AtomicLong();
    private final AtomicLong versionsRemoved = new AtomicLong();

    private CassandraPartitionStore(Settings settings, StoreRows rows, PendingWrites pending, WritePath writes) {
        this.self = settings.self();
        this.partitionCount = settings.partitionCount();
        this.rows = rows;
        this.pending = pending;
        this.writes = writes;
        this.reads = new VersionReads(self, rows, pending, settings.cacheCapacity(), settings.loaderThreads(),
                threads(self, "loader"));
    }

    /** Daemon threads of the store's pools, named for the store and their role (CPU accounting goes by the name). */
    private static ThreadFactory threads(int self, String role) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "fastccs-store-" + self + "-" + role + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
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
        StoreRows rows = StoreRows.ownKeys(settings.self(), StoreRows.newestTimestampStored(), settings.clockMicros());
        PendingWrites pending = new PendingWrites();
        CassandraPartitionStore store = new CassandraPartitionStore(settings, rows, pending,
                new DirectWrites(settings.self(), pending, settings.writerThreads(), threads(settings.self(), "writer")));
        logger.info("Opened FastCCS store of partition {} (of {}), cache {} keys, {} writer threads",
                settings.self(), settings.partitionCount(), settings.cacheCapacity(), settings.writerThreads());
        return store;
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
        StoreRows rows = StoreRows.group(settings.self(), appliedTimestamp, settings.clockMicros());
        PendingWrites pending = new PendingWrites();
        CassandraPartitionStore store = new CassandraPartitionStore(settings, rows, pending,
                new GroupLogWrites(settings.self(), log, pending));
        logger.info("Opened FastCCS store of replica group {} (of {}) at its leader, cache {} keys",
                settings.self(), settings.partitionCount(), settings.cacheCapacity());
        return store;
    }

    // ---- versions ----

    @Override
    public List<Version> versions(Key key) {
        return reads.versions(key);
    }

    @Override
    public void putVersion(Key key, Version version) {
        rows.requireOwned(key);
        List<Version> cached = reads.cached(key);
        if (cached != null) {
            if (VersionChange.containsSequence(cached, version.sequence())) return; // stored (or being stored) already
            reads.cache(key, VersionChange.insert(cached, version));
        } else {
            reads.changedWhileLoading(key, new VersionChange.Put(version));
        }
        submit(StoreMutations.Kind.VERSION, rows.putVersion(key, version), key, new VersionChange.Put(version));
        versionsWritten.setOpaque(versionsWritten.getPlain() + 1);
    }

    /** Deletes the rows of the versions older than {@code newestKept} (see {@link StoreRows#removeVersions}). */
    @Override
    public void removeVersionsOlderThan(Key key, Version newestKept) {
        List<Version> current = versions(key); // complete: the range deletion relies on it
        List<Version> kept = new VersionChange.RemoveOlderThan(newestKept).applyTo(current);
        if (kept.size() == current.size()) return;
        reads.cache(key, kept);
        submit(StoreMutations.Kind.VERSION_DELETE, rows.removeVersions(key, current, kept), key, new VersionChange.RemoveOlderThan(newestKept));
        reads.changedWhileLoading(key, new VersionChange.RemoveOlderThan(newestKept));
        versionsRemoved.setOpaque(versionsRemoved.getPlain() + current.size() - kept.size());
    }

    /** One mutation, so a crash keeps either all the folded versions or the base (see {@link StoreRows#replaceVersions}). */
    @Override
    public void replaceVersions(Key key, List<Version> folded, Version base) {
        rows.requireOwned(key);
        VersionChange change = new VersionChange.Replace(List.copyOf(folded), base);
        List<Version> cached = reads.cached(key);
        if (cached != null) reads.cache(key, change.applyTo(cached));
        submit(StoreMutations.Kind.VERSION_FOLD, rows.replaceVersions(key, folded, base), key, change);
        reads.changedWhileLoading(key, change);
        versionsRemoved.setOpaque(versionsRemoved.getPlain() + folded.size() - 1);
    }

    // ---- loading off the protocol thread ----

    @Override
    public void rejoinOn(Executor protocolThread) {
        reads.rejoinOn(protocolThread);
        writes.rejoinOn(protocolThread);
    }

    @Override
    public boolean versionsInMemory(Key key) {
        return reads.versionsInMemory(key);
    }

    @Override
    public List<Key> notInMemory(Collection<Key> keys) {
        return reads.notInMemory(keys);
    }

    /** See {@link VersionReads#load}. */
    @Override
    public CompletableFuture<Void> load(Collection<Key> keys) {
        return reads.load(keys);
    }

    // ---- transaction records, decisions, snapshot ----

    @Override
    public void savePrepared(TxnRecord record) {
        storedTransactions().put(record.sequence(), record.txnId());
        required(submit(StoreMutations.Kind.PREPARE, rows.prepared(record), null, null));
    }

    @Override
    public void saveOutcome(TxnId txnId, long sequence, Outcome outcome, VectorClock commitClock, long commitTime) {
        // As the reference store: only for a record we hold (it may be gone already behind the snapshot).
        if (!txnId.equals(storedTransactions().get(sequence))) {
            logger.debug("Outcome {} of {} (sequence {}) has no stored record; not saved", outcome, txnId, sequence);
            return;
        }
        submit(StoreMutations.Kind.OUTCOME, rows.outcome(sequence, outcome, commitClock, commitTime), null, null);
    }

    /**
     * Saves the clock and, in the same mutation (so atomically), drops the transaction records up to
     * {@code recordsUpTo} (at most its own entry) with one range deletion. Does nothing when neither changed, which is
     * common: GC saves it every pass.
     */
    @Override
    public void saveSnapshot(VectorClock snapshot, int self, long recordsUpTo) {
        if (self != this.self) throw new IllegalArgumentException("store of partition " + this.self + " asked to save partition " + self);
        if (snapshot.size() != partitionCount)
            throw new IllegalArgumentException("snapshot has " + snapshot.size() + " entries, expected " + partitionCount);
        long upTo = Math.min(recordsUpTo, snapshot.get(self));
        SortedMap<Long, TxnId> dropped = storedTransactions().headMap(upTo, true);
        if (snapshot.equals(savedSnapshot) && dropped.isEmpty()) return;
        submit(StoreMutations.Kind.SNAPSHOT, rows.snapshot(snapshot, dropped.isEmpty() ? -1 : upTo), null, null);
        dropped.clear();
        savedSnapshot = snapshot;
    }

    @Override
    public void saveDecision(Decision decision) {
        PendingWrites.Write w = submit(StoreMutations.Kind.DECISION, rows.decision(decision), null, null);
        if (decision.outcome() == Outcome.ABORTED) required(w);
    }

    @Override
    public void forgetDecision(TxnId txnId) {
        submit(StoreMutations.Kind.DECISION_DELETE, rows.forgetDecision(txnId), null, null);
    }

    /**
     * Reads back the snapshot, the transaction records (by sequence number) and the decisions (by decision time,
     * the order the partition expires them in). Waits for this store's pending writes first.
     */
    @Override
    public Recovered recover() {
        awaitPendingWrites();
        VectorClock snapshot = rows.readSnapshot();
        List<TxnRecord> transactions = rows.readTransactions();
        TreeMap<Long, TxnId> stored = new TreeMap<>();
        for (TxnRecord record : transactions) stored.put(record.sequence(), record.txnId());
        List<Decision> decisions = rows.readDecisions();
        decisions.sort(Comparator.comparingLong(Decision::decidedAt)); // stable: ties stay in txn id order

        storedTransactions = stored;
        savedSnapshot = snapshot;
        logger.info("Recovered FastCCS partition {}: snapshot {}, {} transaction records, {} decisions",
                self, snapshot, transactions.size(), decisions.size());
        return new Recovered(snapshot, List.copyOf(transactions), List.copyOf(decisions));
    }

    // ---- durability and life cycle ----

    @Override
    public CompletableFuture<Void> whenDurable() {
        writes.handOver();
        return pending.whenApplied();
    }

    /**
     * What a message waits for: the last prepare or abort and the writes before it. The host asks before every message
     * it sends; when no such write was issued since it last asked, the mark it had is still the answer, without taking
     * the pending writes' lock (which the writer threads share). Protocol thread.
     */
    @Override
    public CompletableFuture<Void> durableMark() {
        if (lastRequired == null) return writes.failure() == null ? DONE : CompletableFuture.failedFuture(writes.failure());
        if (requiredSinceMark || lastRequiredMark == null) {
            lastRequiredMark = pending.whenApplied(lastRequired);
            requiredSinceMark = false;
        }
        return lastRequiredMark;
    }

    /** Every write issued so far: what the durable part of the settled prefix rests on. Protocol thread. */
    @Override
    public CompletableFuture<Void> writtenMark() {
        if (writtenSinceMark || lastMark == null) {
            lastMark = pending.whenApplied();
            writtenSinceMark = false;
        }
        return lastMark;
    }

    private void required(PendingWrites.Write write) {
        lastRequired = write;
        requiredSinceMark = true;
    }

    @Override
    public void endOfStep() {
        writes.handOver();
    }

    /**
     * Stops accepting writes; at replication factor 1 waits (up to a minute) for the pending ones to be applied, in a
     * group leaves what is not committed to the next leader.
     */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        reads.close();
        writes.close();
    }

    // ---- monitoring ----

    public Stats stats() {
        return new Stats(reads.cachedKeys(), reads.cacheHits(), reads.cacheMisses(), pending.unappliedCount(),
                versionsWritten.getOpaque(), versionsRemoved.getOpaque(), reads.keysLoaded(), reads.synchronousMisses());
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
        return rows.countVersionRows(key);
    }

    // ---- internals ----

    private PendingWrites.Write submit(StoreMutations.Kind kind, Mutation mutation, Key key, VersionChange change) {
        if (closed) throw new IllegalStateException("FastCCS store " + self + " is closed");
        Throwable failure = writes.failure();
        if (failure != null) throw new IllegalStateException("FastCCS store " + self + " lost a write and cannot promise durability", failure);
        writtenSinceMark = true;
        MUTATIONS.count(kind);
        PendingWrites.Write write = pending.issue(key, change);
        writes.add(mutation, write);
        return write;
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

    private TreeMap<Long, TxnId> storedTransactions() {
        if (storedTransactions == null) storedTransactions = rows.readTransactionIds();
        return storedTransactions;
    }
}
