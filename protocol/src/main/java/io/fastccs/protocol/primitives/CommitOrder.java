package io.fastccs.protocol.primitives;

import io.fastccs.core.primitives.VectorClock;

/**
 * Where a committed write sits in FastCCS's arbitration order, the order in which the versions of a key replace one
 * another: first its commit time, then {@link VectorClock#compareArbitration} of its commit clock. Every partition
 * computes it alike from what the commit decision carries. Commit times grow along every causal chain (a
 * coordinator stamps a commit above every commit time its client has read or written), so the order extends
 * causality; for writes that are not causally related it follows the coordinators' clocks, so a write acknowledged
 * before another began is ordered first up to the skew between the nodes' clocks (docs/design/thesis.md, "The commit
 * time comes first in the arbitration order").
 *
 * @param time  the commit time, microseconds of the coordinator's hybrid clock
 * @param clock the commit clock
 */
public record CommitOrder(long time, VectorClock clock) implements Comparable<CommitOrder> {
    @Override
    public int compareTo(CommitOrder other) {
        return compare(time, clock, other.time, other.clock);
    }

    /** The arbitration order of two commits given by their parts: negative when (timeA, clockA) comes first. */
    public static int compare(long timeA, VectorClock clockA, long timeB, VectorClock clockB) {
        int c = Long.compare(timeA, timeB);
        return c != 0 ? c : VectorClock.compareArbitration(clockA, clockB);
    }
}
