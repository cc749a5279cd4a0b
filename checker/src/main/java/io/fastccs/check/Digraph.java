package io.fastccs.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Immutable directed multigraph in compressed-sparse-row form, with an int label per edge. */
final class Digraph {
    final int n;
    /** Edges of node u are {@code off[u] .. off[u+1]-1}. */
    final int[] off;
    final int[] src;
    final int[] dst;
    final int[] label;

    private Digraph(int n, int[] off, int[] src, int[] dst, int[] label) {
        this.n = n;
        this.off = off;
        this.src = src;
        this.dst = dst;
        this.label = label;
    }

    /** Builds from parallel edge lists (counting sort by source, stable). */
    static Digraph of(int n, IntList from, IntList to, IntList labels) {
        int m = from.size();
        int[] off = new int[n + 1];
        for (int i = 0; i < m; i++) {
            off[from.a[i] + 1]++;
        }
        for (int u = 0; u < n; u++) {
            off[u + 1] += off[u];
        }
        int[] pos = Arrays.copyOf(off, n);
        int[] src = new int[m];
        int[] dst = new int[m];
        int[] lab = new int[m];
        for (int i = 0; i < m; i++) {
            int p = pos[from.a[i]]++;
            src[p] = from.a[i];
            dst[p] = to.a[i];
            lab[p] = labels.a[i];
        }
        return new Digraph(n, off, src, dst, lab);
    }

    /** The same graph with every edge reversed (labels kept). */
    Digraph reversed() {
        IntList f = new IntList(dst.length);
        IntList t = new IntList(dst.length);
        IntList l = new IntList(dst.length);
        for (int e = 0; e < dst.length; e++) {
            f.add(dst[e]);
            t.add(src[e]);
            l.add(label[e]);
        }
        return of(n, f, t, l);
    }

    /**
     * Kahn's algorithm. Returns the nodes in a topological order; if the graph is cyclic the result
     * is shorter than {@code n} and misses exactly the nodes on or after a cycle.
     */
    int[] topoOrder() {
        int[] indeg = new int[n];
        for (int d : dst) {
            indeg[d]++;
        }
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        for (int u = 0; u < n; u++) {
            if (indeg[u] == 0) {
                queue[tail++] = u;
            }
        }
        while (head < tail) {
            int u = queue[head++];
            for (int e = off[u]; e < off[u + 1]; e++) {
                if (--indeg[dst[e]] == 0) {
                    queue[tail++] = dst[e];
                }
            }
        }
        return Arrays.copyOf(queue, tail);
    }

    /**
     * One cycle per non-trivial strongly connected component among the nodes not in {@code done}
     * (Tarjan, iterative, then a BFS inside the component). Each cycle is a list of edge ids
     * {@code e1..ek} with {@code dst[ei] == src[e(i+1)]} and {@code dst[ek] == src[e1]}.
     */
    List<int[]> cycles(boolean[] done) {
        int[] index = new int[n];
        int[] low = new int[n];
        int[] comp = new int[n];
        Arrays.fill(index, -1);
        Arrays.fill(comp, -1);
        boolean[] onStack = new boolean[n];
        int[] stack = new int[n];
        int sp = 0;
        int[] callNode = new int[n];
        int[] callEdge = new int[n];
        int counter = 0;
        int comps = 0;
        List<int[]> result = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            if (done[r] || index[r] >= 0) {
                continue;
            }
            int csp = 0;
            callNode[csp] = r;
            callEdge[csp++] = off[r];
            index[r] = low[r] = counter++;
            stack[sp++] = r;
            onStack[r] = true;
            while (csp > 0) {
                int v = callNode[csp - 1];
                if (callEdge[csp - 1] < off[v + 1]) {
                    int w = dst[callEdge[csp - 1]++];
                    if (done[w]) {
                        continue;
                    }
                    if (index[w] < 0) {
                        index[w] = low[w] = counter++;
                        stack[sp++] = w;
                        onStack[w] = true;
                        callNode[csp] = w;
                        callEdge[csp++] = off[w];
                    } else if (onStack[w]) {
                        low[v] = Math.min(low[v], index[w]);
                    }
                } else {
                    csp--;
                    if (csp > 0) {
                        int p = callNode[csp - 1];
                        low[p] = Math.min(low[p], low[v]);
                    }
                    if (low[v] == index[v]) {
                        int c = comps++;
                        int size = 0;
                        int w;
                        do {
                            w = stack[--sp];
                            onStack[w] = false;
                            comp[w] = c;
                            size++;
                        } while (w != v);
                        int[] cycle = cycleThrough(v, c, comp, size);
                        if (cycle != null) {
                            result.add(cycle);
                        }
                    }
                }
            }
        }
        return result;
    }

    /** A shortest cycle through {@code root} inside component {@code c}, or null if there is none. */
    private int[] cycleThrough(int root, int c, int[] comp, int size) {
        if (size == 1) {
            for (int e = off[root]; e < off[root + 1]; e++) {
                if (dst[e] == root) {
                    return new int[] {e};
                }
            }
            return null;
        }
        // BFS restricted to the component; parentEdge doubles as the visited mark.
        java.util.HashMap<Integer, Integer> parentEdge = new java.util.HashMap<>();
        int[] queue = new int[size];
        int head = 0;
        int tail = 0;
        queue[tail++] = root;
        while (head < tail) {
            int u = queue[head++];
            for (int e = off[u]; e < off[u + 1]; e++) {
                int w = dst[e];
                if (comp[w] != c) {
                    continue;
                }
                if (w == root) {
                    IntList path = new IntList();
                    path.add(e);
                    for (int x = u; x != root; x = src[parentEdge.get(x)]) {
                        path.add(parentEdge.get(x));
                    }
                    int[] out = new int[path.size()];
                    for (int i = 0; i < out.length; i++) {
                        out[i] = path.get(out.length - 1 - i);
                    }
                    return out;
                }
                if (!parentEdge.containsKey(w)) {
                    parentEdge.put(w, e);
                    queue[tail++] = w;
                }
            }
        }
        return null; // unreachable for a strongly connected component of size > 1
    }
}
