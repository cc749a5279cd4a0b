package io.fastccs.replication;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** This node's handle on one group it is a member of. */
public interface ReplicatedLog {
    GroupSpec group();

    /**
     * Appends {@code batch} at this member, which must lead. Completes with the entry's log position once a majority
     * holds it and this member has applied it (so the host may let its consequences leave the node); fails with
     * {@link NotLeaderException} when this member does not lead, or {@link ReplicationException}.
     */
    CompletableFuture<Long> append(byte[] batch);

    /**
     * Completes if this member leads with a valid lease (nobody else can have been elected meanwhile), so that a read
     * it serves now is linearizable; fails with {@link NotLeaderException} otherwise. A deposed leader that has not
     * noticed yet fails here once its lease has run out.
     */
    CompletableFuture<Void> readBarrier();

    /** Whether this member believes it leads and has applied everything committed before its term. */
    boolean isLeaderReady();

    long term();

    /** The node id of the member believed to lead, if any. */
    Optional<String> leaderId();

    /** How far this member has applied the log. */
    long appliedIndex();
}
