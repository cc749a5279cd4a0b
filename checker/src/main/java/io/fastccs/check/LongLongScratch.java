package io.fastccs.check;

/**
 * Small reusable long-to-long map for per-transaction bookkeeping; {@link #clear()} is O(1)
 * (generation stamps), so reusing it across 100k transactions costs nothing.
 */
final class LongLongScratch {
    private long[] keys;
    private long[] vals;
    private int[] stamp;
    private int gen = 1;
    private int mask;
    private int size;

    LongLongScratch() {
        alloc(16);
    }

    private void alloc(int cap) {
        keys = new long[cap];
        vals = new long[cap];
        stamp = new int[cap];
        mask = cap - 1;
    }

    void clear() {
        size = 0;
        if (++gen == Integer.MAX_VALUE) {
            java.util.Arrays.fill(stamp, 0);
            gen = 1;
        }
    }

    private int slot(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        int i = (int) (h ^ (h >>> 32)) & mask;
        while (stamp[i] == gen && keys[i] != k) {
            i = (i + 1) & mask;
        }
        return i;
    }

    boolean containsKey(long k) {
        return stamp[slot(k)] == gen;
    }

    /** The value for {@code k}; only meaningful if {@link #containsKey(long)}. */
    long get(long k) {
        return vals[slot(k)];
    }

    /** Puts {@code k -> v}; returns whether {@code k} was absent. */
    boolean put(long k, long v) {
        int i = slot(k);
        boolean absent = stamp[i] != gen;
        keys[i] = k;
        vals[i] = v;
        if (absent) {
            stamp[i] = gen;
            if (++size * 2 > keys.length) {
                grow();
            }
        }
        return absent;
    }

    private void grow() {
        long[] ok = keys;
        long[] ov = vals;
        int[] os = stamp;
        int og = gen;
        alloc(ok.length * 2);
        gen = 1;
        for (int j = 0; j < ok.length; j++) {
            if (os[j] == og) {
                int i = slot(ok[j]);
                keys[i] = ok[j];
                vals[i] = ov[j];
                stamp[i] = gen;
            }
        }
    }

    int size() {
        return size;
    }
}
