package io.fastccs.check;

import java.util.Arrays;

/** Growable long array; avoids boxing on the checker's hot paths. */
final class LongList {
    long[] a;
    int size;

    LongList() {
        this(16);
    }

    LongList(int capacity) {
        a = new long[Math.max(4, capacity)];
    }

    void add(long v) {
        if (size == a.length) {
            a = Arrays.copyOf(a, a.length * 2);
        }
        a[size++] = v;
    }

    long get(int i) {
        return a[i];
    }

    int size() {
        return size;
    }

    long[] toArray() {
        return Arrays.copyOf(a, size);
    }
}
