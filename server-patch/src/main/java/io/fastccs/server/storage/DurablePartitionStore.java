package io.fastccs.server.storage;

import io.fastccs.protocol.api.PartitionStore;

import java.util.concurrent.CompletableFuture;

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

    @Override
    void close();
}
