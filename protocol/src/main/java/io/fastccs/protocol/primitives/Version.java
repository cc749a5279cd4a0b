package io.fastccs.protocol.primitives;

import java.util.Comparator;

/**
 * One committed version of a key on its owning partition. Versions of a key are ordered by
 * {@link VectorClock#compareArbitration} of their commit clocks, not by sequence number: two concurrent
 * transactions that both write on partitions A and B may get opposite sequence orders on A and B, and a reader
 * that sees both must still see the same one win everywhere.
 *
 * @param sequence the owning partition's sequence number of the writing transaction, equal to
 *                 {@code commitClock.get(owner)}; unique per key
 * @param commitClock the writing transaction's commit vector clock
 * @param value the written bytes
 */
public record Version(long sequence, VectorClock commitClock, byte[] value) {
    /** Newest first, in the arbitration order every partition agrees on. */
    public static final Comparator<Version> NEWEST_FIRST =
            (a, b) -> VectorClock.compareArbitration(b.commitClock, a.commitClock);
}
