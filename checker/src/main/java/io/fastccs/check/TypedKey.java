package io.fastccs.check;

import io.fastccs.check.Op.DataType;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * One typed key's update operations (committed and aborted, in history order; "updates" are numbered
 * {@code 0..size-1}), with the lookups the typed-read checks need: who added a delta's bit, who wrote
 * a max value, who added or removed an element, who inserted an (item, score) pair; and the committed
 * updates in session order with per-session prefix aggregates, to walk a reader's causal past.
 */
final class TypedKey {

    final long key;
    final DataType type;
    /** Transaction index and position in it of each update. */
    private final IntList updTx = new IntList(4);
    private final IntList updOp = new IntList(4);
    private final TxnNodes nodes;

    /** Counter: every delta is a distinct positive power of two, so a sum names its adds. */
    private boolean exact = true;
    private final int[] bitOwner = new int[64];
    /** Max register: updates by value. Top-k: updates by (item, score). */
    private final Map<Long, IntList> byValue = new HashMap<>();
    private final Map<Pair, IntList> byPair = new HashMap<>();
    /** Set: the one add of each element (later adds are malformed and ignored) and its removes. */
    private final Map<Long, Integer> addOf = new HashMap<>();
    private final Map<Long, IntList> removesOf = new HashMap<>();

    /** Per update: its node, or -1 if aborted; for a set remove, the add of its element (else -1). */
    private int[] updNode;
    private int[] removedAdd;

    // Committed updates sorted by (session, session position, op position); groups are sessions.
    private int[] causal;
    private long[] causalPacked;
    private int[] groupStart;
    /** Counter: per-group running sums of all, positive and negative deltas; null if a sum overflows. */
    private long[] runSum;
    private long[] runPos;
    private long[] runNeg;
    private long totalPos;
    private long totalNeg;
    /** Max register: per-group running maximum. */
    private long[] runMax;

    private record Pair(long item, long score) {
    }

    TypedKey(long key, DataType type, TxnNodes nodes) {
        this.key = key;
        this.type = type;
        this.nodes = nodes;
        Arrays.fill(bitOwner, -1);
    }

    /**
     * Adds an update; returns the update it duplicates (a second add of one set element), or -1.
     * A duplicate is not indexed.
     */
    int add(int txIndex, int opIndex, Op op) {
        int u = updTx.size();
        if (type == DataType.SET && op.kind() == Op.Kind.SET_ADD) {
            Integer prev = addOf.putIfAbsent(op.value(), u);
            if (prev != null) {
                return prev;
            }
        }
        updTx.add(txIndex);
        updOp.add(opIndex);
        switch (op.kind()) {
            case ADD -> {
                long d = op.value();
                if (d <= 0 || Long.bitCount(d) != 1 || bitOwner[Long.numberOfTrailingZeros(d)] >= 0) {
                    exact = false;
                } else {
                    bitOwner[Long.numberOfTrailingZeros(d)] = u;
                }
            }
            case MAX -> byValue.computeIfAbsent(op.value(), v -> new IntList(1)).add(u);
            case SET_REMOVE -> removesOf.computeIfAbsent(op.value(), v -> new IntList(1)).add(u);
            case TOPK_INSERT -> byPair.computeIfAbsent(new Pair(op.value(), op.score()), v -> new IntList(1)).add(u);
            default -> {
            }
        }
        return -1;
    }

    /** Builds the session-ordered view of the committed updates; call once, after the last {@link #add}. */
    void finish() {
        int n = updTx.size();
        updNode = new int[n];
        removedAdd = new int[n];
        LongList packed = new LongList(n);
        IntList ids = new IntList(n);
        for (int u = 0; u < n; u++) {
            int node = nodes.nodeOf(updTx.get(u));
            updNode[u] = Math.max(node, -1);
            removedAdd[u] = op(u).kind() == Op.Kind.SET_REMOVE ? addOf(op(u).value()) : -1;
            if (node >= 0) {
                ids.add(u);
                packed.add(((long) nodes.nodeSess()[node] << 32) | nodes.nodeSo()[node]);
            }
        }
        Integer[] order = new Integer[ids.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        // Ties (one transaction) keep program order: ids are increasing in it.
        Arrays.sort(order, (a, b) -> Long.compare(packed.get(a), packed.get(b)));
        causal = new int[order.length];
        causalPacked = new long[order.length];
        IntList groups = new IntList(4);
        for (int i = 0; i < order.length; i++) {
            causal[i] = ids.get(order[i]);
            causalPacked[i] = packed.get(order[i]);
            if (i == 0 || (causalPacked[i] >>> 32) != (causalPacked[i - 1] >>> 32)) {
                groups.add(i);
            }
        }
        groups.add(order.length);
        groupStart = Arrays.copyOf(groups.a, groups.size());
        if (type == DataType.COUNTER) {
            buildSums();
        } else if (type == DataType.MAX_REGISTER) {
            runMax = new long[causal.length];
            for (int g = 0; g + 1 < groupStart.length; g++) {
                long m = Long.MIN_VALUE;
                for (int i = groupStart[g]; i < groupStart[g + 1]; i++) {
                    m = Math.max(m, op(causal[i]).value());
                    runMax[i] = m;
                }
            }
        }
    }

    private void buildSums() {
        runSum = new long[causal.length];
        runPos = new long[causal.length];
        runNeg = new long[causal.length];
        try {
            for (int g = 0; g + 1 < groupStart.length; g++) {
                long s = 0;
                long p = 0;
                long m = 0;
                for (int i = groupStart[g]; i < groupStart[g + 1]; i++) {
                    long d = op(causal[i]).value();
                    s = Math.addExact(s, d);
                    if (d > 0) {
                        p = Math.addExact(p, d);
                        totalPos = Math.addExact(totalPos, d);
                    } else {
                        m = Math.addExact(m, d);
                        totalNeg = Math.addExact(totalNeg, d);
                    }
                    runSum[i] = s;
                    runPos[i] = p;
                    runNeg[i] = m;
                }
            }
        } catch (ArithmeticException e) {
            runSum = null; // bounds are unusable; exact decoding (if any) still works
        }
    }

    // ---------------------------------------------------------------- updates

    int size() {
        return updTx.size();
    }

    int txOf(int u) {
        return updTx.get(u);
    }

    int opIndexOf(int u) {
        return updOp.get(u);
    }

    Op op(int u) {
        return nodes.tx()[updTx.get(u)].ops().get(updOp.get(u));
    }

    boolean committed(int u) {
        return updNode[u] >= 0;
    }

    /** The node of update {@code u}'s transaction, or -1 if it aborted. */
    int nodeOf(int u) {
        return updNode[u];
    }

    // ---------------------------------------------------------------- lookups

    /** Counter: whether every delta is a distinct positive power of two. */
    boolean exactCounter() {
        return exact;
    }

    /** Counter in exact mode: the update whose delta is {@code 1 << bit}, or -1. */
    int ownerOfBit(int bit) {
        return bitOwner[bit];
    }

    /** Max register: updates that wrote {@code value}. */
    IntList withValue(long value) {
        return byValue.get(value);
    }

    /** Top-k: updates that inserted {@code (item, score)}. */
    IntList inserting(long item, long score) {
        return byPair.get(new Pair(item, score));
    }

    /** Set: the add of {@code element}, or -1. */
    int addOf(long element) {
        Integer u = addOf.get(element);
        return u == null ? -1 : u;
    }

    /** Set: the add of the element that remove {@code u} removes, or -1 (none, or {@code u} is no remove). */
    int addRemovedBy(int u) {
        return removedAdd[u];
    }

    /** Set: the removes of {@code element}, or null. */
    IntList removesOf(long element) {
        return removesOf.get(element);
    }

    // ---------------------------------------------------------------- session-ordered committed updates

    int groups() {
        return groupStart.length - 1;
    }

    /** Dense session index of group {@code g}. */
    int groupSession(int g) {
        return (int) (causalPacked[groupStart[g]] >>> 32);
    }

    int groupStart(int g) {
        return groupStart[g];
    }

    /**
     * End (exclusive) of group {@code g}'s updates in the causal past of node {@code t}: by transactions of the
     * group's session at positions up to {@code clock}'s (before {@code t} in its own session).
     */
    int pastEnd(int g, int t, int[] clock, TxnNodes nodes) {
        int sg = groupSession(g);
        return prefixEnd(g, sg == nodes.nodeSess()[t] ? nodes.nodeSo()[t] - 1 : clock[sg]);
    }

    /** End (exclusive) of group {@code g}'s updates by transactions at session positions {@code <= bound}. */
    int prefixEnd(int g, int bound) {
        int lo = groupStart[g];
        int hi = groupStart[g + 1];
        if (bound <= 0) {
            return lo;
        }
        long limit = (causalPacked[lo] & 0xFFFFFFFF00000000L) | bound;
        int a = lo;
        int b = hi;
        while (a < b) {
            int m = (a + b) >>> 1;
            if (causalPacked[m] <= limit) {
                a = m + 1;
            } else {
                b = m;
            }
        }
        return a;
    }

    /** The update at position {@code i} of the session order. */
    int causalUpdate(int i) {
        return causal[i];
    }

    /** Counter: whether the running sums are usable (no overflow). */
    boolean hasSums() {
        return runSum != null;
    }

    /** Counter: sum of the deltas of group {@code g}'s updates before {@code end}. */
    long sum(int g, int end) {
        return end == groupStart[g] ? 0 : runSum[end - 1];
    }

    long positiveSum(int g, int end) {
        return end == groupStart[g] ? 0 : runPos[end - 1];
    }

    long negativeSum(int g, int end) {
        return end == groupStart[g] ? 0 : runNeg[end - 1];
    }

    /** Counter: sum of all committed positive deltas. */
    long totalPositive() {
        return totalPos;
    }

    /** Counter: sum of all committed negative deltas. */
    long totalNegative() {
        return totalNeg;
    }

    /** Max register: largest value among group {@code g}'s updates before {@code end} (Long.MIN_VALUE if none). */
    long max(int g, int end) {
        return end == groupStart[g] ? Long.MIN_VALUE : runMax[end - 1];
    }
}
