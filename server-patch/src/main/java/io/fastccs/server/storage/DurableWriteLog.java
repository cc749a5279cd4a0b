package io.fastccs.server.storage;

import io.fastccs.core.api.WriteLog;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.primitives.TxnId;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link WriteLog} whose writes become durable asynchronously, as
 * {@link io.fastccs.protocol.host.DurablePartitionStore}'s do: the host of a compared protocol holds every message its
 * partition sends after a write until {@link #whenDurable()} completes.
 */
public interface DurableWriteLog extends WriteLog, AutoCloseable {
    /** Keeps nothing and is always durable: nodes without Cassandra (the in-process test cluster). */
    DurableWriteLog IN_MEMORY = new DurableWriteLog() {
        @Override public void accepted(TxnId txnId, List<KeyValue> writes) { }
        @Override public CompletableFuture<Void> whenDurable() { return CompletableFuture.completedFuture(null); }
        @Override public boolean takeDirty() { return false; }
        @Override public void close() { }
    };

    /**
     * Completes once every write made before the call is in the synced commit log; exceptionally if one failed (the
     * node then stops serving the protocol, as it cannot promise what it acknowledged).
     */
    CompletableFuture<Void> whenDurable();

    /** Whether anything was written since the last call. Protocol thread only. */
    boolean takeDirty();

    @Override
    void close();
}
