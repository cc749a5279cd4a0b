package io.fastccs.check;

/**
 * Open-addressing map from a pair of longs to an int, e.g. (key, value) to writer. Hundreds of
 * thousands of entries without per-entry objects.
 */
final class LongPairIntMap {
    static final int MISSING = Integer.MIN_VALUE;

    private long[] ka;
    private long[] kb;
    private int[] vals;
    private int mask;
    private int size;

    LongPairIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        alloc(cap);
    }

    private void alloc(int cap) {
        ka = new long[cap];
        kb = new long[cap];
        vals = new int[cap];
        java.util.Arrays.fill(vals, MISSING);
        mask = cap - 1;
    }

    private static int hash(long a, long b) {
        long h = a * 0x9E3779B97F4A7C15L + b;
        h ^= h >>> 32;
        h *= 0xC2B2AE3D27D4EB4FL;
        return (int) (h ^ (h >>> 29));
    }

    /** The value for (a, b), or {@link #MISSING}. */
    int get(long a, long b) {
        int i = hash(a, b) & mask;
        while (vals[i] != MISSING) {
            if (ka[i] == a && kb[i] == b) {
                return vals[i];
            }
            i = (i + 1) & mask;
        }
        return MISSING;
    }

    /** Inserts unless present; returns the previous value or {@link #MISSING} if it inserted. */
    int putIfAbsent(long a, long b, int v) {
        int i = slot(a, b);
        if (vals[i] != MISSING) {
            return vals[i];
        }
        insertAt(i, a, b, v);
        return MISSING;
    }

    /** Inserts or replaces. */
    void put(long a, long b, int v) {
        int i = slot(a, b);
        if (vals[i] != MISSING) {
            vals[i] = v;
        } else {
            insertAt(i, a, b, v);
        }
    }

    private int slot(long a, long b) {
        int i = hash(a, b) & mask;
        while (vals[i] != MISSING && !(ka[i] == a && kb[i] == b)) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void insertAt(int i, long a, long b, int v) {
        ka[i] = a;
        kb[i] = b;
        vals[i] = v;
        if (++size * 2 > vals.length) {
            long[] oa = ka;
            long[] ob = kb;
            int[] ov = vals;
            alloc(ov.length * 2);
            for (int j = 0; j < ov.length; j++) {
                if (ov[j] != MISSING) {
                    int s = slot(oa[j], ob[j]);
                    ka[s] = oa[j];
                    kb[s] = ob[j];
                    vals[s] = ov[j];
                }
            }
        }
    }

    int size() {
        return size;
    }
}
