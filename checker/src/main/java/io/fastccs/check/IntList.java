package io.fastccs.check;

import java.util.Arrays;

/** Growable int array; avoids boxing on the checker's hot paths. */
final class IntList {
    int[] a;
    int size;

    IntList() {
        this(16);
    }

    IntList(int capacity) {
        a = new int[Math.max(4, capacity)];
    }

    void add(int v) {
        if (size == a.length) {
            a = Arrays.copyOf(a, a.length * 2);
        }
        a[size++] = v;
    }

    int get(int i) {
        return a[i];
    }

    int size() {
        return size;
    }
}
