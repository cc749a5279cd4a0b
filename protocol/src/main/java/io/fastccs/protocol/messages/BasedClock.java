package io.fastccs.protocol.messages;

import io.fastccs.core.primitives.VectorClock;

import java.util.Arrays;

/**
 * A vector clock on the wire as {@code max(B_epoch, explicit)}: the stable base of {@code epoch} (a vector every
 * partition learned through stabilization; epoch 0 is all zeros) raised by a few explicit entries. Only the receiver
 * can expand it, with its base of that epoch (docs/design/stable-bases.md, "Requests").
 */
public final class BasedClock {
    private final long epoch;
    private final int[] partitions;
    private final long[] values;

    private BasedClock(long epoch, int[] partitions, long[] values) {
        this.epoch = epoch;
        this.partitions = partitions;
        this.values = values;
    }

    /**
     * @param partitions ascending partition numbers
     * @param values     their entries
     * @throws IllegalArgumentException for a negative epoch or value, unequal lengths or partitions out of order
     */
    public static BasedClock of(long epoch, int[] partitions, long[] values) {
        if (epoch < 0) throw new IllegalArgumentException("negative base epoch " + epoch);
        if (partitions.length != values.length)
            throw new IllegalArgumentException(partitions.length + " partitions but " + values.length + " values");
        for (int i = 0; i < partitions.length; i++) {
            if (partitions[i] < 0 || (i > 0 && partitions[i] <= partitions[i - 1]))
                throw new IllegalArgumentException("partitions must ascend from 0: " + Arrays.toString(partitions));
            if (values[i] < 0) throw new IllegalArgumentException("negative clock entry " + values[i]);
        }
        return new BasedClock(epoch, partitions.clone(), values.clone());
    }

    /** {@code clock} relative to the base of {@code epoch}, naming the entries of {@code explicit} (it must name every
     * entry above that base: the caller's bookkeeping). */
    public static BasedClock of(long epoch, VectorClock clock, java.util.BitSet explicit) {
        int count = explicit.cardinality();
        int[] ps = new int[count];
        long[] vs = new long[count];
        int i = 0;
        for (int k = explicit.nextSetBit(0); k >= 0 && k < clock.size(); k = explicit.nextSetBit(k + 1)) {
            ps[i] = k;
            vs[i++] = clock.get(k);
        }
        return new BasedClock(epoch, i == count ? ps : Arrays.copyOf(ps, i), i == count ? vs : Arrays.copyOf(vs, i));
    }

    /** Every non-zero entry, relative to epoch 0 (the zero base): what anyone can expand. */
    public static BasedClock full(VectorClock clock) {
        java.util.BitSet nonZero = new java.util.BitSet(clock.size());
        for (int k = 0; k < clock.size(); k++) if (clock.get(k) != 0) nonZero.set(k);
        return of(0, clock, nonZero);
    }

    public long epoch() {
        return epoch;
    }

    public int size() {
        return partitions.length;
    }

    public int partition(int i) {
        return partitions[i];
    }

    public long value(int i) {
        return values[i];
    }

    /**
     * The clock, given the base of its epoch ({@code n} zeros for epoch 0).
     *
     * @throws IllegalArgumentException when an entry names a partition beyond the base
     */
    public VectorClock expand(long[] base) {
        long[] out = base.clone();
        for (int i = 0; i < partitions.length; i++) {
            int k = partitions[i];
            if (k >= out.length)
                throw new IllegalArgumentException("clock entry for partition " + k + " of a cluster of " + out.length);
            if (values[i] > out[k]) out[k] = values[i];
        }
        return VectorClock.wrap(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BasedClock b && epoch == b.epoch && Arrays.equals(partitions, b.partitions)
                && Arrays.equals(values, b.values);
    }

    @Override
    public int hashCode() {
        return (Long.hashCode(epoch) * 31 + Arrays.hashCode(partitions)) * 31 + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("B").append(epoch).append('{');
        for (int i = 0; i < partitions.length; i++) b.append(i == 0 ? "" : ", ").append(partitions[i]).append('=').append(values[i]);
        return b.append('}').toString();
    }
}
