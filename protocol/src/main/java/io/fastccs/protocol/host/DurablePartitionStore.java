package io.fastccs.protocol.host;

import io.fastccs.core.primitives.Key;
import io.fastccs.protocol.api.PartitionStore;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A {@link PartitionStore} whose writes become durable asynchronously, so one protocol thread can keep working
 * while the commit log syncs. Write methods return at once; reads (versions) see every write already made.
 * The {@link PartitionHost} holds every message the partition sends after a write a message rests on until
 * {@link #durableMark()} completes: that is how "durable before the message leaves" (see {@code PeerSink}) holds with
 * group commit. Reads show the settled prefix once {@link #writtenMark()} says every write it rests on is durable.
 */
public interface DurablePartitionStore extends PartitionStore, AutoCloseable {
    /**
     * Completes once every write made through this store before the call is durable (in the synced commit log).
     * Already completed when nothing is pending. Completes exceptionally if a write failed; the node then stops
     * serving, since it can no longer promise durability.
     */
    CompletableFuture<Void> whenDurable();

    /**
     * What a message sent now waits for: the writes made so far that messages rest on ({@link PartitionStore}, "What a
     * message waits for": prepares and aborts), without hurrying them: they are handed over at the end of the step as
     * usual ({@link #endOfStep}), with the step's later writes. The host asks before every message it sends, so a store
     * should answer at once (a completed future, or the one it gave last) when nothing was written since. By default
     * every write counts, as in {@link #writtenMark()}.
     */
    default CompletableFuture<Void> durableMark() {
        return writtenMark();
    }

    /**
     * Completes once every write made so far is durable, without hurrying them: what the durable part of the settled
     * prefix rests on (the outcomes and versions it covers).
     */
    default CompletableFuture<Void> writtenMark() {
        return whenDurable();
    }

    /**
     * What a read answer waits for when it shows more of this partition than the durable part of the settled prefix
     * (the client had seen more), given {@code lastAdvance}, the mark taken when the prefix last
     * advanced ({@link #writtenMark()}): by default that mark, the writes the prefix rests on and no later ones. A store may ask for more; the
     * simulator's replica groups make such an answer wait for the step it was given in, as any other reply.
     */
    default CompletableFuture<Void> settledMark(CompletableFuture<Void> lastAdvance) {
        return lastAdvance;
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
     * on the protocol thread, through the executor given to {@link #rejoinOn}, once they are there. Never exceptionally.
     */
    default CompletableFuture<Void> load(Collection<Key> keys) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    void close();
}
