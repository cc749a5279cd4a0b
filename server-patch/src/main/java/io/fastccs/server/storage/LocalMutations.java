package io.fastccs.server.storage;

import org.apache.cassandra.db.Mutation;
import org.apache.cassandra.utils.JVMStabilityInspector;

import java.util.function.Consumer;

/** How our stores apply a mutation to the node's own storage engine, on one of their writer threads. */
final class LocalMutations {
    private LocalMutations() {
    }

    /**
     * Applies {@code mutation} durably (even if someone turned durable_writes off; never dropped for being late): with
     * {@code commitlog_sync: batch} or {@code group} it returns once the commit log is synced. Then completes
     * {@code write} in {@code pending}, failed if it failed, after telling {@code onFailure}; and lets the node's disk
     * and commit failure policies act on the error, as for Cassandra's own writes.
     */
    static void applyDurably(Mutation mutation, PendingWrites pending, PendingWrites.Write write, Consumer<Throwable> onFailure) {
        Throwable error = null;
        try {
            mutation.apply(true, false);
        } catch (Throwable t) {
            error = t;
            onFailure.accept(t);
        } finally {
            pending.completed(write, error);
        }
        if (error != null) JVMStabilityInspector.inspectThrowable(error);
    }
}
