package io.fastccs.check;

import io.fastccs.check.Anomaly.Kind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks of typed reads (counter, max register, set, top-k); see the package documentation for the
 * rules. Three steps, driven by {@link CheckRun}:
 *
 * <ol>
 *   <li>{@link #scan()}: what each read's value alone proves, and the transactions it certainly folds in
 *       ("pins"; {@link TypedValues}). Pins become hb edges, like reads-from; they depend on values only, so
 *       one hb (one transitive closure) holds all of them and no further fixpoint is needed.</li>
 *   <li>{@link #visit}, in the hb clock walk: every committed operation on the key in the reader's causal
 *       past must be folded in ("forced"); a forced operation the value contradicts is a lost operation.
 *       Counters and max registers use per-session prefix sums and maxima; sets and top-k keep, per reading
 *       session, what they absorbed of the key's causal past ({@link ForcedPast}).</li>
 *   <li>{@link #finish()}: absent set elements whose add is forced need a remove that saw the add and can
 *       be visible (known only once every remove's clock is), then one report per read.</li>
 * </ol>
 */
final class TypedReads {

    /** Whether a reader node read a register value written by a writer node. */
    interface RegisterReads {
        boolean readsFrom(int reader, int writer);
    }

    private final TxnNodes nodes;
    private final TypedKeys keys;
    private final TxnNodes.Sink sink;
    private final RegisterReads registerReads;

    private final TypedValues values;
    /** Pins by writer node, built when a lost operation is classified. */
    private Map<Integer, IntList> pinsOfWriter;

    // Clock walk: clocks of nodes with set removes (who saw which add), lost operations per read.
    private boolean[] removesIn;
    private int[][] removeClock;
    private int[] lostNode;
    private Kind[] lostKind;
    /** Absent set elements whose forced add no forced remove saw: (read, add), decided in {@link #finish()}. */
    private final IntList pendingRead = new IntList();
    private final IntList pendingAdd = new IntList();
    /** Per set or top-k key, per session: what its reads have absorbed of the key's causal past. */
    private final Map<TypedKey, ForcedPast[]> pasts = new HashMap<>();
    /** Per set key, per remove: 0 not yet known, 1 it certainly removes its element's add, 2 not, 3 unknown. */
    private final Map<TypedKey, byte[]> sawCache = new HashMap<>();

    TypedReads(TxnNodes nodes, TypedKeys keys, TxnNodes.Sink sink, RegisterReads registerReads) {
        this.nodes = nodes;
        this.keys = keys;
        this.sink = sink;
        this.registerReads = registerReads;
        this.values = new TypedValues(nodes, keys, sink);
    }

    /** Step 1; then the external typed reads' pins become hb edges (CheckRun). */
    void scan() {
        values.scan();
    }

    TypedValues values() {
        return values;
    }

    /** Whether some typed read of {@code reader} certainly folds in an operation of {@code writer}. */
    boolean pins(int reader, int writer) {
        return values.pins(reader, writer);
    }

    // ================================================================ step 2: causal past

    /** Call before the walk. */
    void prepareWalk() {
        int nc = nodes.count();
        removesIn = new boolean[nc];
        for (TypedKey tk : keys.all()) {
            if (tk.type != Op.DataType.SET) {
                continue;
            }
            for (int u = 0; u < tk.size(); u++) {
                int node = tk.nodeOf(u);
                if (node >= 0 && tk.op(u).kind() == Op.Kind.SET_REMOVE) {
                    removesIn[node] = true;
                }
            }
        }
        removeClock = new int[nc][];
        lostNode = new int[values.reads()];
        Arrays.fill(lostNode, -1);
        lostKind = new Kind[values.reads()];
    }

    /** Called by the clock walk for each node (not the barrier) with its hb clock. */
    void visit(int t, int[] clock) {
        if (removesIn[t]) {
            removeClock[t] = clock.clone();
        }
        for (int r = values.firstRead(t); r < values.firstRead(t + 1); r++) {
            if (!values.valid(r)) {
                continue;
            }
            TypedKey tk = values.key(r);
            switch (tk.type) {
                case COUNTER -> {
                    if (tk.exactCounter()) {
                        forcedByPins(r, t, clock, tk);
                    } else {
                        counterBounds(r, t, clock, tk);
                    }
                }
                case MAX_REGISTER -> forcedMax(r, t, clock, tk);
                case SET -> forcedSet(r, t, clock, tk);
                case TOP_K -> forcedTopk(r, t, clock, tk);
                default -> throw new IllegalStateException();
            }
        }
    }

    /** Exact counter: the sum names every folded-in add, so every forced add must be pinned. */
    private void forcedByPins(int r, int t, int[] clock, TypedKey tk) {
        for (int g = 0; g < tk.groups(); g++) {
            int end = tk.pastEnd(g, t, clock, nodes);
            for (int x = tk.groupStart(g); x < end; x++) {
                int w = tk.nodeOf(tk.causalUpdate(x));
                if (!values.pinnedBy(r, w)) {
                    lost(r, w);
                }
            }
        }
    }


    /**
     * Counter with other deltas: only bounds. The read must lie between the forced sum plus every other
     * committed negative delta and the forced sum plus every other committed positive delta.
     */
    private void counterBounds(int r, int t, int[] clock, TypedKey tk) {
        if (!tk.hasSums()) {
            return;
        }
        int s = nodes.nodeSess()[t];
        Op read = readOp(r);
        boolean othersForced = false;
        boolean sessionForced = false;
        boolean ownForced = false;
        try {
            long forced = 0;
            long forcedPos = 0;
            long forcedNeg = 0;
            for (int g = 0; g < tk.groups(); g++) {
                int end = tk.pastEnd(g, t, clock, nodes);
                forced = Math.addExact(forced, tk.sum(g, end));
                forcedPos = Math.addExact(forcedPos, tk.positiveSum(g, end));
                forcedNeg = Math.addExact(forcedNeg, tk.negativeSum(g, end));
                boolean any = end > tk.groupStart(g);
                othersForced |= any && tk.groupSession(g) != s;
                sessionForced |= any && tk.groupSession(g) == s;
            }
            long ownPos = 0;
            long ownNeg = 0;
            List<Op> ops = nodes.tx()[nodes.nodeTx()[t]].ops();
            for (int x = 0; x < ops.size(); x++) {
                Op o = ops.get(x);
                if (o.kind() == Op.Kind.ADD && o.key() == tk.key) {
                    if (x < values.opIndex(r)) {
                        forced = Math.addExact(forced, o.value());
                        ownForced = true;
                    }
                    if (o.value() > 0) {
                        ownPos = Math.addExact(ownPos, o.value());
                    } else {
                        ownNeg = Math.addExact(ownNeg, o.value());
                    }
                }
            }
            long upper = Math.addExact(forced, tk.totalPositive() - forcedPos - ownPos);
            long lower = Math.addExact(forced, tk.totalNegative() - forcedNeg - ownNeg);
            long v = read.value();
            if (v > upper) {
                sink.report(Kind.DOUBLE_COUNTED, reads(t, read) + ", more than its causal past plus every other "
                        + "committed add can give (at most " + upper + ")", nodes.idsOfNodes(t), tk.key);
            } else if (v < lower) {
                // Which add was lost is unknown: name the kind by the nearest forced adds.
                Kind kind = nodes.isFinal(t) ? Kind.NON_CONVERGENCE
                        : othersForced ? Kind.CAUSAL_VIOLATION : sessionForced ? Kind.READ_YOUR_WRITES
                        : ownForced ? Kind.NOT_MY_OWN_WRITE : Kind.DOUBLE_COUNTED;
                sink.report(kind, (kind == Kind.NON_CONVERGENCE ? "after quiescence " : "") + reads(t, read)
                        + ", less than the adds it must see and any others can give (at least " + lower
                        + ")", nodes.idsOfNodes(t), tk.key);
            }
        } catch (ArithmeticException e) {
            // the bounds overflow: nothing is certain
        }
    }

    private void forcedMax(int r, int t, int[] clock, TypedKey tk) {
        long v = readOp(r).value();
        for (int g = 0; g < tk.groups(); g++) {
            int end = tk.pastEnd(g, t, clock, nodes);
            if (tk.max(g, end) <= v) {
                continue;
            }
            for (int x = tk.groupStart(g); x < end; x++) {
                int u = tk.causalUpdate(x);
                if (tk.op(u).value() > v) {
                    lost(r, tk.nodeOf(u));
                }
            }
        }
    }

    private void forcedTopk(int r, int t, int[] clock, TypedKey tk) {
        ForcedPast.OfTopk past = (ForcedPast.OfTopk) pastOf(tk, t);
        past.advance(t, clock, nodes);
        Op read = readOp(r);
        if (past.reflectedBy(read)) {
            return;
        }
        // Name every lost insert, for the most specific classification (rare: only for a wrong read).
        for (int g = 0; g < tk.groups(); g++) {
            int end = tk.pastEnd(g, t, clock, nodes);
            for (int x = tk.groupStart(g); x < end; x++) {
                int u = tk.causalUpdate(x);
                Op o = tk.op(u);
                if (!TopK.reflects(read, o.item(), o.score())) {
                    lost(r, tk.nodeOf(u));
                }
            }
        }
    }

    /**
     * A forced remove of a present element that certainly saw the element's add is lost. A forced add of an
     * absent element that no forced remove saw needs another remove that saw it and can be visible: decided
     * in {@link #finish()}. Elements the reader itself operated on were settled by its own operations.
     */
    private void forcedSet(int r, int t, int[] clock, TypedKey tk) {
        ForcedPast.OfSet past = (ForcedPast.OfSet) pastOf(tk, t);
        past.advance(t, clock, nodes);
        Op read = readOp(r);
        Set<Long> ownTouched = ownElements(r, t, tk);
        for (int add : past.open) {
            long e = tk.op(add).value();
            if (!read.hasElement(e) && !ownTouched.contains(e)) {
                pendingRead.add(r);
                pendingAdd.add(add);
            }
        }
        for (int x = 0; x < read.size(); x++) {
            long e = read.elementAt(x);
            int add = tk.addOf(e);
            if (add < 0 || ownTouched.contains(e) || !past.removed.get(add)) {
                continue;
            }
            IntList rems = tk.removesOf(e);
            for (int y = 0; y < rems.size(); y++) {
                int rem = rems.get(y);
                if (tk.committed(rem) && inPast(tk.nodeOf(rem), t, clock) && certainly(tk, rem)) {
                    lost(r, tk.nodeOf(rem));
                }
            }
        }
    }

    /** Elements the reader's transaction added or removed before read {@code r}. */
    private Set<Long> ownElements(int r, int t, TypedKey tk) {
        List<Op> ops = nodes.tx()[nodes.nodeTx()[t]].ops();
        Set<Long> out = Set.of();
        for (int x = 0; x < values.opIndex(r); x++) {
            Op o = ops.get(x);
            if (o.key() == tk.key && !o.isRead()) {
                out = out.isEmpty() ? new HashSet<>() : out;
                out.add(o.value());
            }
        }
        return out;
    }

    /** Whether node {@code n} is in the causal past of node {@code t}. */
    private boolean inPast(int n, int t, int[] clock) {
        int s = nodes.nodeSess()[n];
        return s == nodes.nodeSess()[t] ? nodes.nodeSo()[n] < nodes.nodeSo()[t] : nodes.nodeSo()[n] <= clock[s];
    }

    /** The session's view of a set or top-k key's causal past, created at its first read of the key. */
    private ForcedPast pastOf(TypedKey tk, int t) {
        ForcedPast[] bySession = pasts.computeIfAbsent(tk, k -> new ForcedPast[nodes.sessFinal().length]);
        int s = nodes.nodeSess()[t];
        if (bySession[s] == null) {
            bySession[s] = tk.type == Op.DataType.SET ? new ForcedPast.OfSet(tk, this::certainly)
                    : new ForcedPast.OfTopk(tk);
        }
        return bySession[s];
    }

    /**
     * Whether set remove {@code rem} certainly removes its element's add: the add is earlier in the same
     * transaction, or in the causal past of the remove's transaction. Null if unknown (the remove's
     * transaction was not walked: it is on or after a causal cycle). Cached, as sessions ask repeatedly.
     */
    private Boolean saw(TypedKey tk, int rem) {
        byte[] cache = sawCache.computeIfAbsent(tk, k -> new byte[k.size()]);
        if (cache[rem] == 0) {
            Boolean b = sawUncached(tk, rem);
            cache[rem] = b == null ? (byte) 3 : b ? (byte) 1 : (byte) 2;
        }
        return cache[rem] == 3 ? null : cache[rem] == 1;
    }

    private Boolean sawUncached(TypedKey tk, int rem) {
        int add = tk.addRemovedBy(rem);
        if (add < 0 || !tk.committed(add)) {
            return Boolean.FALSE;
        }
        if (tk.txOf(add) == tk.txOf(rem)) {
            return tk.opIndexOf(add) < tk.opIndexOf(rem);
        }
        int[] clock = removeClock[tk.nodeOf(rem)];
        if (clock == null) {
            return null;
        }
        int na = tk.nodeOf(add);
        return clock[nodes.nodeSess()[na]] >= nodes.nodeSo()[na];
    }

    /** Only called for removes in a reader's causal past, which the walk has visited. */
    private boolean certainly(TypedKey tk, int rem) {
        return saw(tk, rem) == Boolean.TRUE;
    }

    // ================================================================ step 3: absent elements, reports

    void finish() {
        for (int p = 0; p < pendingRead.size(); p++) {
            int r = pendingRead.get(p);
            int add = pendingAdd.get(p);
            if (!removable(r, add)) {
                lost(r, values.key(r).nodeOf(add));
            }
        }
        for (int r = 0; r < values.reads(); r++) {
            if (lostNode[r] >= 0) {
                reportLost(r, lostNode[r], lostKind[r]);
            }
        }
    }

    /** Whether some committed remove that saw {@code add} can be visible to read {@code r} (not after it). */
    private boolean removable(int r, int add) {
        TypedKey tk = values.key(r);
        int t = values.readerOf(r);
        IntList rems = tk.removesOf(tk.op(add).value());
        for (int x = 0; rems != null && x < rems.size(); x++) {
            int rem = rems.get(x);
            int w = tk.txOf(rem);
            if (!tk.committed(rem) || w == nodes.nodeTx()[t]) {
                continue;
            }
            Boolean saw = saw(tk, rem);
            if (saw == null) {
                return true; // the remove is on or after a causal cycle: nothing is certain
            }
            int[] clock = removeClock[tk.nodeOf(rem)];
            boolean afterReader = clock != null && clock[nodes.nodeSess()[t]] >= nodes.nodeSo()[t];
            if (saw && !afterReader) {
                return true;
            }
        }
        return false;
    }

    /** Read {@code r} misses a forced operation of {@code writer}; keeps the most specific classification. */
    private void lost(int r, int writer) {
        Kind kind = classify(r, writer);
        if (lostNode[r] < 0 || CheckRun.rank(kind) < CheckRun.rank(lostKind[r])) {
            lostNode[r] = writer;
            lostKind[r] = kind;
        }
    }

    private Kind classify(int r, int writer) {
        int t = values.readerOf(r);
        if (nodes.isFinal(t)) {
            return Kind.NON_CONVERGENCE;
        }
        int s = nodes.nodeSess()[t];
        if (nodes.nodeSess()[writer] == s) {
            return Kind.READ_YOUR_WRITES;
        }
        if (seenBefore(writer, values.key(r), s, nodes.nodeSo()[t])) {
            return Kind.MONOTONIC_READS;
        }
        if (pins(t, writer) || registerReads.readsFrom(t, writer)) {
            return Kind.FRACTURED_READ;
        }
        return Kind.CAUSAL_VIOLATION;
    }

    /** Whether an earlier transaction of session {@code s} folded in {@code writer}'s operations on the key. */
    private boolean seenBefore(int writer, TypedKey tk, int s, int so) {
        if (pinsOfWriter == null) {
            pinsOfWriter = new HashMap<>();
            for (int r = 0; r < values.reads(); r++) {
                for (int p = values.pinStart(r); p < values.pinEnd(r); p++) {
                    pinsOfWriter.computeIfAbsent(values.pinned(p), w -> new IntList(2)).add(r);
                }
            }
        }
        IntList rs = pinsOfWriter.get(writer);
        for (int x = 0; rs != null && x < rs.size(); x++) {
            int r2 = rs.get(x);
            int t2 = values.readerOf(r2);
            if (values.key(r2) == tk && nodes.nodeSess()[t2] == s && nodes.nodeSo()[t2] < so) {
                return true;
            }
        }
        return false;
    }

    private void reportLost(int r, int writer, Kind kind) {
        int t = values.readerOf(r);
        TypedKey tk = values.key(r);
        String base = reads(t, readOp(r));
        String ops = opsOf(tk, nodes.nodeTx()[writer]);
        String w = nodes.nodeName(writer);
        String text = switch (kind) {
            case NON_CONVERGENCE -> "after quiescence " + base + " without " + ops + " of " + w;
            case READ_YOUR_WRITES -> base + " without " + ops + " that its session did earlier in " + w;
            case MONOTONIC_READS -> base + " without " + ops + " of " + w + ", which its session had already seen";
            case FRACTURED_READ -> base + " without " + ops + " of " + w + ", although it sees other operations of "
                    + w + " (fractured read)";
            default -> base + " without " + ops + " of " + w + ", which is in its causal past";
        };
        sink.report(kind, text, nodes.idsOfNodes(writer, t), tk.key);
    }

    /** A transaction's committed operations on a key, for messages (the first three). */
    private static String opsOf(TypedKey tk, int txIndex) {
        List<String> out = new ArrayList<>(3);
        int more = 0;
        for (int u = 0; u < tk.size(); u++) {
            if (tk.txOf(u) == txIndex) {
                if (out.size() < 3) {
                    out.add(tk.op(u).toString());
                } else {
                    more++;
                }
            }
        }
        return String.join(", ", out) + (more > 0 ? " and " + more + " more" : "");
    }

    private Op readOp(int r) {
        return values.readOp(r);
    }

    private String reads(int t, Op read) {
        return values.reads(t, read);
    }
}
