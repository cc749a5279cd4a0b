package io.fastccs.core.primitives;

import java.util.Arrays;

/**
 * An immutable vector clock with one entry per partition.
 *
 * <p>Entry {@code i} counts sequence numbers of partition {@code i}. Comparisons are component-wise:
 * {@code a.leq(b)} holds when every entry of {@code a} is at most the same entry of {@code b}.
 */
public final class VectorClock {
    private final long[] entries;
    private long sum = -1;

    private VectorClock(long[] entries) {
        this.entries = entries;
    }

    /** The clock of size {@code n} with every entry 0: nothing observed yet. */
    public static VectorClock zero(int n) {
        if (n < 1) throw new IllegalArgumentException("a vector clock needs at least one entry, got " + n);
        return new VectorClock(new long[n]);
    }

    /** Wraps a copy of {@code entries}; every entry must be non-negative. */
    public static VectorClock of(long... entries) {
        if (entries.length == 0) throw new IllegalArgumentException("a vector clock needs at least one entry");
        for (long e : entries)
            if (e < 0) throw new IllegalArgumentException("vector clock entries are non-negative, got " + Arrays.toString(entries));
        return new VectorClock(entries.clone());
    }

    /**
     * Takes ownership of {@code entries} without copying or checking; for code that just built the array and never
     * touches it again (the partition's replies, on its hot path).
     */
    public static VectorClock wrap(long[] entries) {
        return new VectorClock(entries);
    }

    public int size() {
        return entries.length;
    }

    public long get(int i) {
        return entries[i];
    }

    /** A copy of the entries. */
    public long[] toArray() {
        return entries.clone();
    }

    /** True when every entry of this clock is at most the same entry of {@code other}. */
    public boolean leq(VectorClock other) {
        return leq(other.entries);
    }

    /** True when every entry of this clock is at most the same entry of {@code other}. */
    public boolean leq(long[] other) {
        checkSize(other.length);
        for (int i = 0; i < entries.length; i++)
            if (entries[i] > other[i]) return false;
        return true;
    }

    /** The component-wise maximum of the two clocks. */
    public VectorClock max(VectorClock other) {
        checkSize(other.entries.length);
        long[] out = null;
        for (int i = 0; i < entries.length; i++) {
            if (other.entries[i] > entries[i]) {
                if (out == null) out = entries.clone();
                out[i] = other.entries[i];
            }
        }
        return out == null ? this : new VectorClock(out);
    }

    /** Raises each entry of {@code target} to at least this clock's entry. */
    public void maxInto(long[] target) {
        checkSize(target.length);
        for (int i = 0; i < entries.length; i++)
            if (entries[i] > target[i]) target[i] = entries[i];
    }

    /** A copy of this clock with entry {@code i} set to {@code value}. */
    public VectorClock with(int i, long value) {
        if (value < 0) throw new IllegalArgumentException("vector clock entries are non-negative, got " + value);
        long[] out = entries.clone();
        out[i] = value;
        return new VectorClock(out);
    }

    /** The sum of the entries: strictly larger for a clock that is causally later (component-wise greater). */
    public long sum() {
        long s = sum;
        if (s < 0) {
            s = 0;
            for (long e : entries) s += e;
            sum = s;
        }
        return s;
    }

    /**
     * A total order on clocks that every partition computes alike and that extends the causal (component-wise)
     * order: first by {@link #sum()}, then lexicographically. Versions of a key are ordered by their commit
     * clocks in this order, so all partitions agree which of two concurrent transactions wrote last.
     */
    public static int compareArbitration(VectorClock a, VectorClock b) {
        int c = Long.compare(a.sum(), b.sum());
        return c != 0 ? c : Arrays.compare(a.entries, b.entries);
    }

    private void checkSize(int n) {
        if (n != entries.length)
            throw new IllegalArgumentException("vector clocks of different sizes: " + entries.length + " and " + n);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VectorClock && Arrays.equals(entries, ((VectorClock) o).entries);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(entries);
    }

    @Override
    public String toString() {
        return Arrays.toString(entries);
    }
}
