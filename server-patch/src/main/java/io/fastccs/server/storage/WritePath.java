package io.fastccs.server.storage;

import org.apache.cassandra.db.Mutation;

import java.util.concurrent.Executor;

/**
 * How a store's mutations reach the tables, chosen once when the store opens: at replication factor 1 straight into
 * the local storage engine and its commit log ({@link DirectWrites}); in a replica group through the group's log,
 * whose appliers write them on every member once committed ({@link GroupLogWrites}). Either way a write completes in
 * {@link PendingWrites} once it is durable. Protocol thread only, but for {@link #failure()}.
 */
interface WritePath {
    /** Adds {@code mutation}, which carries {@code write}, to the current step's writes. */
    void add(Mutation mutation, PendingWrites.Write write);

    /** The writes added so far go (at the end of a step, or when the store is asked whether they are durable). */
    void handOver();

    /** The first write this path lost, or null: once set, nothing written since can be promised durable. */
    Throwable failure();

    /** Where completions that go on with more writes rejoin: the host's protocol thread. */
    default void rejoinOn(Executor protocolThread) {
    }

    /** Takes no more writes; what was handed over is waited for as far as this path can. */
    void close();
}
