package io.fastccs.protocol.messages;

import io.fastccs.core.primitives.VectorClock;

import java.util.Arrays;

/**
 * A vector clock on the wire as the entries in which it differs from a clock the receiver already has (in a reply, the
 * request's clock), each as a signed difference (docs/design/stable-bases.md, "Answers").
 */
public final class ClockDiff {
    private static final ClockDiff NONE = new ClockDiff(new int[0], new long[0]);

    private final int[] partitions;
    private final long[] deltas;

    private ClockDiff(int[] partitions, long[] deltas) {
        this.partitions = partitions;
        this.deltas = deltas;
    }

    /**
     * @param partitions ascending partition numbers
     * @param deltas     each entry's difference from the reference clock, never 0
     */
    public static ClockDiff of(int[] partitions, long[] deltas) {
        if (partitions.length != deltas.length)
            throw new IllegalArgumentException(partitions.length + " partitions but " + deltas.length + " differences");
        for (int i = 0; i < partitions.length; i++)
            if (partitions[i] < 0 || (i > 0 && partitions[i] <= partitions[i - 1]))
                throw new IllegalArgumentException("partitions must ascend from 0: " + Arrays.toString(partitions));
        return partitions.length == 0 ? NONE : new ClockDiff(partitions.clone(), deltas.clone());
    }

    /** {@code clock} relative to {@code reference} (clocks of one size). */
    public static ClockDiff between(VectorClock reference, VectorClock clock) {
        if (reference.size() != clock.size())
            throw new IllegalArgumentException("clocks of " + reference.size() + " and " + clock.size() + " entries");
        int count = 0;
        for (int k = 0; k < clock.size(); k++) if (clock.get(k) != reference.get(k)) count++;
        if (count == 0) return NONE;
        int[] ps = new int[count];
        long[] ds = new long[count];
        int i = 0;
        for (int k = 0; k < clock.size(); k++)
            if (clock.get(k) != reference.get(k)) {
                ps[i] = k;
                ds[i++] = clock.get(k) - reference.get(k);
            }
        return new ClockDiff(ps, ds);
    }

    public int size() {
        return partitions.length;
    }

    public int partition(int i) {
        return partitions[i];
    }

    public long delta(int i) {
        return deltas[i];
    }

    /**
     * The clock this diff describes, given its reference.
     *
     * @throws IllegalArgumentException for an entry beyond the reference or one that would be negative
     */
    public VectorClock applyTo(VectorClock reference) {
        if (partitions.length == 0) return reference;
        long[] out = reference.toArray();
        for (int i = 0; i < partitions.length; i++) {
            int k = partitions[i];
            if (k >= out.length)
                throw new IllegalArgumentException("clock difference for partition " + k + " of a clock of " + out.length);
            long v = out[k] + deltas[i];
            if (v < 0) throw new IllegalArgumentException("clock difference makes entry " + k + " negative: " + v);
            out[k] = v;
        }
        return VectorClock.wrap(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClockDiff d && Arrays.equals(partitions, d.partitions) && Arrays.equals(deltas, d.deltas);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(partitions) * 31 + Arrays.hashCode(deltas);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("Δ{");
        for (int i = 0; i < partitions.length; i++)
            b.append(i == 0 ? "" : ", ").append(partitions[i]).append(deltas[i] >= 0 ? "+" : "").append(deltas[i]);
        return b.append('}').toString();
    }
}
