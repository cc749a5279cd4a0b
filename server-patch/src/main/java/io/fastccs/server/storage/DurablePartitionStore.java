package io.fastccs.server.storage;

import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.api.PartitionStore;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A {@link PartitionStore} whose writes become durable asynchronously, so one protocol thread can keep working
 * while the commit log syncs. Write methods return at once; reads (versions) see every write already made.
 * The node holds every message the partition sends after a write until {@link #whenDurable()} completes: that is
 * how "durable before the message leaves" (see {@code PeerSink}) holds with group commit.
 */
public interface DurablePartitionStore extends PartitionStore, AutoCloseable {
    /**
     * Completes once every write made through this store before the call is durable (in the synced commit log).
     * Already completed when nothing is pending. Completes exceptionally if a write failed; the node then stops
     * serving, since it can no longer promise durability.
     */
    CompletableFuture<Void> whenDurable();

    /**
     * As {@link #whenDurable()}, but without hurrying the writes: they are handed over at the end of the step as
     * usual ({@link #endOfStep}), with the step's later writes. For a host inside a step: what it sends waits for this.
     */
    default CompletableFuture<Void> durableMark() {
        return whenDurable();
    }

    /**
     * The host's protocol step (one handler or tick) ended: the step's writes are handed over together, unless
     * {@link #whenDurable()} already asked for them. A replicated store puts them into its group's log as one entry,
     * a store at replication factor 1 gives them to its writer threads.
     */
    default void endOfStep() {
    }

    /** Where {@link #load}ed versions rejoin the caller: the host's protocol thread. Called once, before any load. */
    default void rejoinOn(Executor protocolThread) {
    }

    /** The keys among these whose versions are not in memory, so that {@link #versions} would read the disk. */
    default List<Key> notInMemory(Collection<Key> keys) {
        return List.of();
    }

    /**
     * Brings the keys' versions into memory without blocking the caller (the protocol thread); the future completes
     * on the protocol thread once they are there (see {@code CassandraPartitionStore#load}). Never exceptionally.
     */
    default CompletableFuture<Void> load(Collection<Key> keys) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    void close();
}
