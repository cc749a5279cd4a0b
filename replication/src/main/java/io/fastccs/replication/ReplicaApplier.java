package io.fastccs.replication;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What a replica does with its group's log, supplied per group by the host. Every method runs on the group's apply
 * thread, one at a time, in log order.
 *
 * <p>{@link #apply} sees every committed entry on every member, the leader included, and only committed ones: an entry a
 * deposed leader appended but the group never committed is never applied. After a restart the log is replayed from the
 * last snapshot, so applying must be idempotent (the host writes durable records keyed by what they describe).
 *
 * <p>Snapshots have no default: the log behind a snapshot is dropped, so a member that falls behind or lost its disk
 * catches up only from a snapshot, and an empty one would silently lose what it stood for.
 */
public interface ReplicaApplier {
    /** A committed batch at log position {@code index} (1, 2, ... with gaps for the log's own entries). */
    void apply(long index, byte[] batch);

    /**
     * This member leads in {@code term} and has applied every entry committed before: the moment to rebuild leader-only
     * state (FastCCS: the partition's crash recovery, on what the log made durable).
     */
    default void onLeaderReady(long term) {
    }

    /** This member no longer leads (it learnt of a newer term or lost its lease): stop serving as leader at once. */
    default void onSteppedDown(long term) {
    }

    /**
     * Writes everything applied up to now to the new file {@code file}. The group syncs it to disk, keeps it beside
     * the log and ships it to members that need it; {@link #installSnapshot} reads it there.
     */
    void takeSnapshot(Path file) throws IOException;

    /**
     * Replaces this member's state by the one in {@code file}, taken at log position {@code index} by
     * {@link #takeSnapshot} on this member or on the leader (after a restart, the member's own latest one; when it
     * fell too far behind or rejoined with a wiped disk, the leader's). Entries after {@code index} follow through
     * {@link #apply}.
     */
    void installSnapshot(long index, Path file) throws IOException;
}
