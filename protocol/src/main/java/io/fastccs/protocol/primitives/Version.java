package io.fastccs.protocol.primitives;

import java.util.Comparator;

/**
 * One committed version of a key on its owning partition. Versions of a key are ordered by their
 * {@link CommitOrder} (commit time, then commit clock), not by sequence number: two concurrent transactions that
 * both write on partitions A and B may get opposite sequence orders on A and B, and a reader that sees both must
 * still see the same one win everywhere.
 *
 * @param sequence the owning partition's sequence number of the writing transaction, equal to
 *                 {@code commitClock.get(owner)}; unique per key
 * @param commitClock the writing transaction's commit vector clock: decides visibility
 * @param commitTime the writing transaction's commit time: decides, with the clock, which version is newest
 * @param value the written bytes
 */
public record Version(long sequence, VectorClock commitClock, long commitTime, byte[] value) {
    /** Newest first, in the arbitration order every partition agrees on. */
    public static final Comparator<Version> NEWEST_FIRST =
            (a, b) -> CommitOrder.compare(b.commitTime, b.commitClock, a.commitTime, a.commitClock);
}
