package io.fastccs.protocol.primitives;


import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.primitives.WriteKind;
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
 * @param value the written bytes (for an operation its operand, for a fold the folded base: see {@link WriteKind})
 * @param kind what the write does to the key: a put, a commutative operation or a fold of them
 */
public record Version(long sequence, VectorClock commitClock, long commitTime, byte[] value, WriteKind kind) {
    /** A put's version. */
    public Version(long sequence, VectorClock commitClock, long commitTime, byte[] value) {
        this(sequence, commitClock, commitTime, value, WriteKind.PUT);
    }

    /** Newest first, in the arbitration order every partition agrees on. */
    public static final Comparator<Version> NEWEST_FIRST =
            (a, b) -> CommitOrder.compare(b.commitTime, b.commitClock, a.commitTime, a.commitClock);
}
