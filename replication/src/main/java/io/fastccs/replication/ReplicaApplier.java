package io.fastccs.replication;

/**
 * What a replica does with its group's log, supplied per group by the host. Every method runs on the group's apply
 * thread, one at a time, in log order.
 *
 * <p>{@link #apply} sees every committed entry on every member, the leader included, and only committed ones: an entry a
 * deposed leader appended but the group never committed is never applied. After a restart the log is replayed from the
 * last snapshot, so applying must be idempotent (the host writes durable records keyed by what they describe).
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
     * Everything applied up to now, for a member that has fallen too far behind or lost its disk; {@link #restore}
     * receives it on that member. Empty by default: such a group can only catch members up from its log.
     */
    default byte[] snapshot() {
        return new byte[0];
    }

    /** Replaces this member's state with a {@link #snapshot()} taken at log position {@code index}. */
    default void restore(long index, byte[] snapshot) {
    }
}
