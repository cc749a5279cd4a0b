package io.fastccs.server.storage;

import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.primitives.TxnId;
import org.apache.cassandra.config.Config;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.Keyspace;
import org.apache.cassandra.db.Mutation;
import org.apache.cassandra.db.partitions.PartitionUpdate;
import org.apache.cassandra.utils.FBUtilities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The writes a compared protocol's partition took on, in {@code fastccs_local.compared_writes} (newest per key and
 * protocol), applied to the local storage engine on writer threads as FastCCS's store applies its records: with
 * {@code commitlog_sync: batch} or {@code group} a mutation returns once the commit log is synced, and concurrent ones
 * share a sync. Nothing reads them back yet (docs/design/compared-protocols.md, "The same storage work, no recovery
 * yet, replication factor 1"): they make the comparison count the same storage work. Protocol thread only, but for the
 * futures.
 */
public final class ComparedWriteStore implements DurableWriteLog {
    private static final Logger logger = LoggerFactory.getLogger(ComparedWriteStore.class);
    private static final int WRITER_THREADS = CassandraPartitionStore.DEFAULT_WRITER_THREADS;

    private final String protocol;
    private final StoreMutations.Counts mutations;
    private final int self;
    private final ColumnFamilyStore table;
    private final PendingWrites pending = new PendingWrites();
    private final ThreadPoolExecutor writers;
    private final MutationWriter mutationWriter;
    private long lastTimestamp;
    private boolean dirty;
    private volatile Throwable writeFailure;

    private ComparedWriteStore(Protocol protocol, int self) {
        this.protocol = protocol.word();
        this.mutations = StoreMutations.of(this.protocol);
        this.self = self;
        this.table = Keyspace.open(StorageSchema.LOCAL_KEYSPACE).getColumnFamilyStore(StorageSchema.COMPARED_WRITES);
        AtomicInteger threads = new AtomicInteger();
        this.writers = new ThreadPoolExecutor(WRITER_THREADS, WRITER_THREADS, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, this.protocol + "-writes-" + self + "-writer-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.mutationWriter = new MutationWriter(writers, pending, t -> {
            if (writeFailure == null) writeFailure = t;
            logger.error("{} writes of partition {}: a write failed; durability is lost", this.protocol, self, t);
        });
    }

    /** The store of {@code protocol}'s partition {@code self}, in the running node. */
    public static ComparedWriteStore open(Protocol protocol, int self) {
        if (!Keyspace.isInitialized()) throw new IllegalStateException("the Cassandra node is not started");
        LocalKeyspace.ensureRegistered();
        Config.CommitLogSync sync = DatabaseDescriptor.getCommitLogSync();
        if (sync != Config.CommitLogSync.batch && sync != Config.CommitLogSync.group)
            logger.warn("commitlog_sync is {}: {} writes are acknowledged before they are on disk", sync, protocol.word());
        return new ComparedWriteStore(protocol, self);
    }

    @Override
    public void accepted(TxnId txnId, List<KeyValue> writes) {
        Throwable failure = writeFailure;
        if (failure != null) throw new IllegalStateException(protocol + " writes of partition " + self + " lost a write", failure);
        long timestamp = Math.max(lastTimestamp + 1, FBUtilities.timestampMicros());
        lastTimestamp = timestamp;
        for (KeyValue kv : writes) {
            PartitionUpdate.SimpleBuilder update = PartitionUpdate.simpleBuilder(table.metadata(), ByteBuffer.wrap(kv.key().unsafeBytes()))
                    .timestamp(timestamp);
            update.row(protocol)
                    .add("txn_client", txnId.client())
                    .add("txn_sequence", txnId.sequence())
                    .add("value", ByteBuffer.wrap(kv.value()));
            mutations.count(StoreMutations.Kind.COMPARED_WRITE);
            mutationWriter.add(new Mutation(update.build()), pending.issue(null, null));
            dirty = true;
        }
        try {
            mutationWriter.flush(); // handed over together, as FastCCS's store hands over a step's writes
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException(protocol + " writes of partition " + self + " are closed", e);
        }
    }

    @Override
    public CompletableFuture<Void> whenDurable() {
        return pending.whenApplied();
    }

    @Override
    public boolean takeDirty() {
        boolean d = dirty;
        dirty = false;
        return d;
    }

    @Override
    public void close() {
        writers.shutdown();
        try {
            writers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
