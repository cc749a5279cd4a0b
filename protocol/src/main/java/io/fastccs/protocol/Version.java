package io.fastccs.protocol;

/**
 * One committed version of a key on its owning partition.
 *
 * @param sequence the owning partition's sequence number of the writing transaction, equal to
 *                 {@code commitClock.get(owner)}; versions of one key are totally ordered by it
 * @param commitClock the writing transaction's commit vector clock
 * @param value the written bytes
 */
public record Version(long sequence, VectorClock commitClock, byte[] value) {
}
