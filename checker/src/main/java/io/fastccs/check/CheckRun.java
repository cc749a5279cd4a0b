package io.fastccs.check;

import io.fastccs.check.Anomaly.Kind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One run of {@link TccChecker}. Committed transactions are graph nodes {@code 0..nc-1} (in history
 * order); if there are final sessions, node {@code nc} is a "quiescence" barrier that every
 * committed transaction of a non-final session precedes and that precedes every final session.
 *
 * <p>Steps: index writes; scan each transaction (intra-transaction rules, reads-from); check
 * final-session agreement; topologically sort hb = (SO ∪ WR ∪ barrier); walk that order with
 * vector clocks to find, per read, the writes that CC forces before the one it read; a second walk
 * answers the "is t1 hb t2" questions that tell direct violations from mere ordering constraints;
 * finally the remaining constraints go into one graph whose cycles are violations.
 *
 * <p>Typed keys (counters, max registers, sets, top-k) are checked by {@link TypedReads}: the
 * operations a typed read certainly folds in become hb edges (labelled "vis"), and the first walk also
 * checks each typed read against its causal past. Register checks ignore typed operations.
 */
final class CheckRun {

    /** Writer "node" of the initial value 0. */
    private static final int INIT = -1;
    /** No earlier read of the key in the session. */
    private static final int NONE = -2;
    /** Edge labels: WR edges use labels >= 0 (index into {@link #wrKey}); CO' edges use -(3 + candidate). */
    private static final int SO = -1;
    private static final int BARRIER = -2;

    private final History h;
    private final Txn[] tx;
    private final boolean[] finalTx;

    // Anomaly collection: exact counts, capped list.
    private final int maxStored;
    private final List<Anomaly> anomalies = new ArrayList<>();
    private final EnumMap<Kind, Integer> counts = new EnumMap<>(Kind.class);

    // Nodes = committed transactions (+ barrier).
    private int nc;
    private int nNodes;
    private int barrier = -1;
    private int[] nodeTx;
    private int[] nodeSess;
    private int[] nodeSo;
    private int nSess;
    private long[] sessId;
    private boolean[] sessFinal;
    private int[][] sessNodes;

    /** (key, value) -> txIndex * 2 + (1 if it is that transaction's last write of key). */
    private LongPairIntMap writerOf;

    // Valid external reads (first read of a key in a transaction, before any own write), by node.
    private int[] readOff;
    private final LongList readKey = new LongList();
    private final LongList readVal = new LongList();
    private final IntList readWriter = new IntList();
    private int[] readReader;

    // hb edges.
    private final IntList eFrom = new IntList();
    private final IntList eTo = new IntList();
    private final IntList eLab = new IntList();
    private final LongList wrKey = new LongList();
    /** WR labels that are typed-read visibility edges rather than register reads-from. */
    private final BitSet visLabel = new BitSet();
    /** Number of successors that join this node's stored clock (WR readers; barrier's final sessions). */
    private int[] refCount;

    /** Committed last writes per key: sorted (session << 32 | soIndex). */
    private final Map<Long, KeyWrites> keyWrites = new HashMap<>();
    private final Set<Long> divergentKeys = new HashSet<>();

    // CC candidates: read r saw t1, but t2 (a write of the same key, hb-before the reader) must be
    // ordered before t1. Direct (t1 hb t2) ones are violations, others are edges t2 -> t1 of CO'.
    private final IntList cRead = new IntList();
    private final IntList cT2 = new IntList();
    private final IntList cQuery = new IntList();
    private int[] rPrev;
    private int[] rPrevQuery;
    // Queries "is A hb-before-or-equal B", answered in the second walk when B is visited.
    private final IntList qB = new IntList();
    private final IntList qA = new IntList();
    private boolean[] qAnswer;

    private int reads;
    private int writes;

    private TypedKeys typedKeys;
    /** Null when the history has no typed operations. */
    private TypedReads typed;

    CheckRun(History h, int maxStored) {
        this.h = h;
        this.maxStored = maxStored;
        List<Txn> list = h.transactions();
        this.tx = list.toArray(new Txn[0]);
        this.finalTx = new boolean[tx.length];
        for (int i = 0; i < tx.length; i++) {
            finalTx[i] = h.finalSessions().contains(tx[i].session());
        }
    }

    CheckResult run() {
        indexNodes();
        TxnNodes view = new TxnNodes(tx, nodeTx, nodeSess, nodeSo, sessFinal);
        typedKeys = TypedKeys.index(view, this::report);
        indexWrites();
        scanTransactions();
        if (!typedKeys.isEmpty()) {
            typed = new TypedReads(view, typedKeys, this::report, this::readsRegisterFrom);
            typed.scan();
            addVisibilityEdges();
        }
        checkFinalAgreement();
        Digraph hb = buildHb();
        int[] order = hb.topoOrder();
        boolean[] done = new boolean[nNodes];
        for (int t : order) {
            done[t] = true;
        }
        if (order.length < nNodes) {
            reportHbCycles(hb, done, nNodes - order.length);
        }
        buildKeyWrites();
        Digraph rev = hb.reversed();
        rPrev = new int[readWriter.size()];
        rPrevQuery = new int[readWriter.size()];
        Arrays.fill(rPrev, NONE);
        Arrays.fill(rPrevQuery, -1);
        FindCandidates find = new FindCandidates();
        if (typed == null) {
            walk(order, rev, find);
        } else {
            typed.prepareWalk();
            walk(order, rev, (t, clock, stored) -> {
                find.visit(t, clock, stored);
                typed.visit(t, clock);
            });
            typed.finish();
        }
        if (qB.size() > 0) {
            answerQueries(order, rev);
        }
        IntList coFrom = new IntList();
        IntList coTo = new IntList();
        IntList coLab = new IntList();
        classifyCandidates(coFrom, coTo, coLab);
        if (coFrom.size() > 0) {
            checkCommitOrder(done, coFrom, coTo, coLab);
        }
        return new CheckResult(anomalies, counts, tx.length, nc, reads, writes);
    }

    // ---------------------------------------------------------------- setup

    private void indexNodes() {
        IntList nodes = new IntList(tx.length);
        Map<Long, Integer> sessIndex = new HashMap<>();
        List<IntList> perSess = new ArrayList<>();
        IntList sessOf = new IntList(tx.length);
        IntList soOf = new IntList(tx.length);
        for (int i = 0; i < tx.length; i++) {
            for (Op op : tx[i].ops()) {
                if (op.isRead()) {
                    reads++;
                } else {
                    writes++;
                }
            }
            if (!tx[i].committed()) {
                continue;
            }
            int node = nodes.size();
            nodes.add(i);
            Integer s = sessIndex.get(tx[i].session());
            if (s == null) {
                s = perSess.size();
                sessIndex.put(tx[i].session(), s);
                perSess.add(new IntList());
            }
            perSess.get(s).add(node);
            sessOf.add(s);
            soOf.add(perSess.get(s).size());
        }
        nc = nodes.size();
        nodeTx = Arrays.copyOf(nodes.a, nc);
        nodeSess = Arrays.copyOf(sessOf.a, nc);
        nodeSo = Arrays.copyOf(soOf.a, nc);
        nSess = perSess.size();
        sessId = new long[nSess];
        sessFinal = new boolean[nSess];
        sessNodes = new int[nSess][];
        boolean anyFinal = false;
        for (Map.Entry<Long, Integer> e : sessIndex.entrySet()) {
            int s = e.getValue();
            sessId[s] = e.getKey();
            sessFinal[s] = h.finalSessions().contains(e.getKey());
            anyFinal |= sessFinal[s];
            sessNodes[s] = Arrays.copyOf(perSess.get(s).a, perSess.get(s).size());
        }
        nNodes = nc;
        if (anyFinal) {
            barrier = nNodes++;
        }
        refCount = new int[nNodes];
    }

    private void indexWrites() {
        writerOf = new LongPairIntMap(Math.max(16, writes));
        LongLongScratch seen = new LongLongScratch();
        boolean[] last = new boolean[16];
        for (int i = 0; i < tx.length; i++) {
            List<Op> ops = tx[i].ops();
            if (last.length < ops.size()) {
                last = new boolean[ops.size() * 2];
            }
            seen.clear();
            for (int j = ops.size() - 1; j >= 0; j--) {
                Op op = ops.get(j);
                last[j] = op.kind() == Op.Kind.WRITE && seen.put(op.key(), 0);
            }
            for (int j = 0; j < ops.size(); j++) {
                Op op = ops.get(j);
                if (op.kind() != Op.Kind.WRITE || typedKeys.isMixed(op.key())) {
                    continue;
                }
                if (op.value() == 0) {
                    // 0 is every key's initial value; treating it as a write would make reads of 0 ambiguous.
                    report(Kind.DUPLICATE_WRITE, name(i) + " writes the initial value 0 to key " + op.key()
                            + " (ignored)", ids(i), op.key());
                    continue;
                }
                int prev = writerOf.putIfAbsent(op.key(), op.value(), i * 2 + (last[j] ? 1 : 0));
                if (prev != LongPairIntMap.MISSING) {
                    int other = prev >> 1;
                    report(Kind.DUPLICATE_WRITE, "value " + op.value() + " of key " + op.key() + " is written by "
                            + name(other) + (other == i ? " twice" : " and " + name(i))
                            + "; reads of it are attributed to " + name(other),
                            other == i ? ids(i) : ids(other, i), op.key());
                }
            }
        }
    }

    /** Intra-transaction rules; collects the valid external reads and the WR edges. */
    private void scanTransactions() {
        readOff = new int[nc + 1];
        LongLongScratch ownWrite = new LongLongScratch();
        LongLongScratch firstRead = new LongLongScratch();
        int[] wrMark = new int[nc];
        for (int t = 0; t < nc; t++) {
            int i = nodeTx[t];
            readOff[t] = readWriter.size();
            ownWrite.clear();
            firstRead.clear();
            for (Op op : tx[i].ops()) {
                long k = op.key();
                long v = op.value();
                if (op.isTyped() || typedKeys.isMixed(k)) {
                    continue; // typed keys: TypedReads; mixed keys: not checked
                }
                if (!op.isRead()) {
                    if (v != 0) {
                        ownWrite.put(k, v);
                    }
                    continue;
                }
                if (ownWrite.containsKey(k)) {
                    long own = ownWrite.get(k);
                    if (own != v) {
                        report(Kind.NOT_MY_OWN_WRITE, name(i) + " wrote " + k + "=" + own + " but then read " + k
                                + "=" + v, ids(i), k);
                    }
                    continue;
                }
                if (firstRead.containsKey(k)) {
                    long first = firstRead.get(k);
                    if (first != v) {
                        report(Kind.NON_REPEATABLE_READ, name(i) + " read " + k + "=" + first + " and later "
                                + k + "=" + v + " without writing " + k + " in between", ids(i), k);
                    }
                    continue;
                }
                firstRead.put(k, v);
                if (v == 0) {
                    addRead(k, v, INIT);
                    continue;
                }
                int code = writerOf.get(k, v);
                if (code == LongPairIntMap.MISSING) {
                    report(Kind.THIN_AIR_READ, name(i) + " read " + k + "=" + v + ", which no transaction wrote",
                            ids(i), k);
                    continue;
                }
                int w = code >> 1;
                if (w == i) {
                    report(Kind.FUTURE_READ, name(i) + " read " + k + "=" + v + " before writing it itself",
                            ids(i), k);
                } else if (!tx[w].committed()) {
                    report(Kind.ABORTED_READ, name(i) + " read " + k + "=" + v + " written by aborted "
                            + name(w), ids(w, i), k);
                } else if ((code & 1) == 0) {
                    report(Kind.INTERMEDIATE_READ, name(i) + " read " + k + "=" + v + ", an intermediate write of "
                            + name(w) + " (it later overwrote " + k + ")", ids(w, i), k);
                } else {
                    int wn = nodeOf(w);
                    addRead(k, v, wn);
                    if (wrMark[wn] != t + 1) {
                        wrMark[wn] = t + 1;
                        addEdge(wn, t, wrKey.size());
                        wrKey.add(k);
                        refCount[wn]++;
                    }
                }
            }
        }
        readOff[nc] = readWriter.size();
        readReader = new int[readWriter.size()];
        for (int t = 0; t < nc; t++) {
            Arrays.fill(readReader, readOff[t], readOff[t + 1], t);
        }
    }

    /** Typed reads' pinned writers become hb edges, like reads-from. */
    private void addVisibilityEdges() {
        int[] mark = new int[nc];
        TypedValues values = typed.values();
        for (int r = 0; r < values.reads(); r++) {
            int t = values.readerOf(r);
            for (int p = values.pinStart(r); p < values.pinEnd(r); p++) {
                int w = values.pinned(p);
                if (mark[w] != t + 1) {
                    mark[w] = t + 1;
                    visLabel.set(wrKey.size());
                    addEdge(w, t, wrKey.size());
                    wrKey.add(values.key(r).key);
                    refCount[w]++;
                }
            }
        }
    }

    /** Whether {@code reader} read a register value written by {@code writer}. */
    private boolean readsRegisterFrom(int reader, int writer) {
        for (int x = readOff[reader]; x < readOff[reader + 1]; x++) {
            if (readWriter.get(x) == writer) {
                return true;
            }
        }
        return false;
    }

    private void addRead(long k, long v, int writerNode) {
        readKey.add(k);
        readVal.add(v);
        readWriter.add(writerNode);
    }

    private void addEdge(int from, int to, int label) {
        eFrom.add(from);
        eTo.add(to);
        eLab.add(label);
    }

    /** Node of a committed transaction index (binary search: nodeTx is increasing). */
    private int nodeOf(int txIndex) {
        return Arrays.binarySearch(nodeTx, txIndex);
    }

    /** All final-session reads of a key must agree (unless a final session writes that key). */
    private void checkFinalAgreement() {
        if (barrier < 0) {
            return;
        }
        Set<Long> writtenByFinal = new HashSet<>();
        for (int t = 0; t < nc; t++) {
            if (sessFinal[nodeSess[t]]) {
                for (Op op : tx[nodeTx[t]].ops()) {
                    if (op.kind() == Op.Kind.WRITE) {
                        writtenByFinal.add(op.key());
                    }
                }
            }
        }
        Map<Long, Integer> firstReadOfKey = new HashMap<>();
        for (int t = 0; t < nc; t++) {
            if (!sessFinal[nodeSess[t]]) {
                continue;
            }
            for (int r = readOff[t]; r < readOff[t + 1]; r++) {
                long k = readKey.get(r);
                if (writtenByFinal.contains(k) || divergentKeys.contains(k)) {
                    continue;
                }
                Integer first = firstReadOfKey.putIfAbsent(k, r);
                if (first != null && readVal.get(first) != readVal.get(r)) {
                    divergentKeys.add(k);
                    int t0 = readerOf(first);
                    report(Kind.NON_CONVERGENCE, "after quiescence " + name(nodeTx[t0]) + " (session "
                            + sessId[nodeSess[t0]] + ") read " + k + "=" + readVal.get(first) + " but "
                            + name(nodeTx[t]) + " (session " + sessId[nodeSess[t]] + ") read " + k + "="
                            + readVal.get(r), ids(nodeTx[t0], nodeTx[t]), k);
                }
            }
        }
    }

    private int readerOf(int r) {
        return readReader[r];
    }

    private Digraph buildHb() {
        for (int s = 0; s < nSess; s++) {
            int[] ns = sessNodes[s];
            for (int j = 1; j < ns.length; j++) {
                addEdge(ns[j - 1], ns[j], SO);
            }
            if (barrier >= 0) {
                if (sessFinal[s]) {
                    addEdge(barrier, ns[0], BARRIER);
                    refCount[barrier]++;
                } else {
                    addEdge(ns[ns.length - 1], barrier, BARRIER);
                }
            }
        }
        return Digraph.of(nNodes, eFrom, eTo, eLab);
    }

    private void reportHbCycles(Digraph hb, boolean[] done, int unchecked) {
        for (int[] cycle : hb.cycles(done)) {
            String edges = typed == null ? "session order, reads-from, quiescence"
                    : "session order, reads-from, typed visibility, quiescence";
            report(Kind.CAUSAL_CYCLE, "causal order (" + edges + ") has a cycle: " + describeCycle(hb, cycle)
                    + " (" + unchecked + " transactions on or after such cycles are not checked further)",
                    cycleTxns(hb, cycle), cycleKey(hb, cycle));
        }
    }

    private void buildKeyWrites() {
        Map<Long, LongList> tmp = new HashMap<>();
        LongLongScratch seen = new LongLongScratch();
        for (int t = 0; t < nc; t++) {
            seen.clear();
            for (Op op : tx[nodeTx[t]].ops()) {
                if (op.kind() == Op.Kind.WRITE && op.value() != 0 && !typedKeys.isMixed(op.key())
                        && seen.put(op.key(), 0)) {
                    tmp.computeIfAbsent(op.key(), k -> new LongList(2))
                            .add(((long) nodeSess[t] << 32) | nodeSo[t]);
                }
            }
        }
        for (Map.Entry<Long, LongList> e : tmp.entrySet()) {
            keyWrites.put(e.getKey(), new KeyWrites(e.getValue().toArray()));
        }
    }

    /** One key's committed writers, sorted by (session, SO index), with session group boundaries. */
    private static final class KeyWrites {
        final long[] packed;
        final int[] groupStart;

        KeyWrites(long[] packed) {
            Arrays.sort(packed);
            this.packed = packed;
            IntList g = new IntList(4);
            for (int i = 0; i < packed.length; i++) {
                if (i == 0 || (packed[i] >>> 32) != (packed[i - 1] >>> 32)) {
                    g.add(i);
                }
            }
            g.add(packed.length);
            groupStart = Arrays.copyOf(g.a, g.size());
        }
    }

    // ---------------------------------------------------------------- clock walks

    private interface Visitor {
        /** Called for each transaction node in topological order with its hb clock (do not keep it). */
        void visit(int node, int[] clock, int[][] stored);
    }

    /**
     * Computes every node's vector clock in topological order. Only the running clock of each
     * session and the clocks of writers that still have unvisited readers are kept.
     */
    private void walk(int[] order, Digraph rev, Visitor visitor) {
        int[][] running = new int[nSess][];
        int[][] stored = new int[nNodes][];
        int[] refs = refCount.clone();
        for (int t : order) {
            if (t == barrier) {
                int[] c = new int[nSess];
                for (int s = 0; s < nSess; s++) {
                    if (!sessFinal[s] && running[s] != null) {
                        join(c, running[s]);
                    }
                }
                stored[t] = c;
                continue;
            }
            int s = nodeSess[t];
            int[] cur = running[s];
            if (cur == null) {
                cur = running[s] = new int[nSess];
            }
            for (int e = rev.off[t]; e < rev.off[t + 1]; e++) {
                if (rev.label[e] != SO) {
                    join(cur, stored[rev.dst[e]]);
                }
            }
            cur[s] = nodeSo[t];
            visitor.visit(t, cur, stored);
            for (int e = rev.off[t]; e < rev.off[t + 1]; e++) {
                int u = rev.dst[e];
                if (rev.label[e] != SO && --refs[u] == 0) {
                    stored[u] = null;
                }
            }
            if (refs[t] > 0) {
                stored[t] = cur.clone();
            }
        }
    }

    private static void join(int[] into, int[] other) {
        for (int i = 0; i < into.length; i++) {
            if (other[i] > into[i]) {
                into[i] = other[i];
            }
        }
    }

    /** Pass 1: for each read, the writes CC orders before the value it read. */
    private final class FindCandidates implements Visitor {
        private final LongPairIntMap lastRead = new LongPairIntMap(Math.max(16, readWriter.size()));

        @Override
        public void visit(int t, int[] clock, int[][] stored) {
            int s = nodeSess[t];
            boolean fin = sessFinal[s];
            for (int r = readOff[t]; r < readOff[t + 1]; r++) {
                long k = readKey.get(r);
                int t1 = readWriter.get(r);
                int prev = lastRead.get(s, k);
                rPrev[r] = prev == LongPairIntMap.MISSING ? NONE : prev;
                if (fin && divergentKeys.contains(k)) {
                    continue; // already reported as one divergence
                }
                KeyWrites kw = keyWrites.get(k);
                if (kw == null) {
                    continue;
                }
                boolean pending = false;
                for (int g = 0; g + 1 < kw.groupStart.length; g++) {
                    int lo = kw.groupStart[g];
                    int hi = kw.groupStart[g + 1];
                    int sg = (int) (kw.packed[lo] >>> 32);
                    int bound = sg == s ? nodeSo[t] - 1 : clock[sg];
                    int so = lastAtMost(kw.packed, lo, hi, bound);
                    if (so == 0) {
                        continue;
                    }
                    int t2 = sessNodes[sg][so - 1];
                    if (t2 == t1) {
                        continue;
                    }
                    if (t1 == INIT) {
                        addCandidate(r, t2, -1);
                    } else if (stored[t1][sg] < so) { // else t2 hb t1: the edge t2 -> t1 is implied
                        qB.add(t2);
                        qA.add(t1);
                        addCandidate(r, t2, qB.size() - 1);
                        pending = true;
                    }
                }
                int p = rPrev[r];
                if (pending && p >= 0 && p != t1) {
                    qB.add(p);
                    qA.add(t1);
                    rPrevQuery[r] = qB.size() - 1;
                }
            }
            for (int r = readOff[t]; r < readOff[t + 1]; r++) {
                lastRead.put(s, readKey.get(r), readWriter.get(r));
            }
        }
    }

    /** The largest SO index {@code <= bound} among {@code packed[lo..hi)} (one session), or 0. */
    private static int lastAtMost(long[] packed, int lo, int hi, int bound) {
        if (bound <= 0) {
            return 0;
        }
        int a = lo;
        int b = hi - 1;
        int found = 0;
        while (a <= b) {
            int m = (a + b) >>> 1;
            int so = (int) packed[m];
            if (so <= bound) {
                found = so;
                a = m + 1;
            } else {
                b = m - 1;
            }
        }
        return found;
    }

    private void addCandidate(int r, int t2, int query) {
        cRead.add(r);
        cT2.add(t2);
        cQuery.add(query);
    }

    /** Pass 2: recompute the clocks and answer "A hb-before-or-equal B" when B is visited. */
    private void answerQueries(int[] order, Digraph rev) {
        int nq = qB.size();
        int[] qOff = new int[nNodes + 1];
        for (int q = 0; q < nq; q++) {
            qOff[qB.get(q) + 1]++;
        }
        for (int u = 0; u < nNodes; u++) {
            qOff[u + 1] += qOff[u];
        }
        int[] pos = Arrays.copyOf(qOff, nNodes);
        int[] byB = new int[nq];
        for (int q = 0; q < nq; q++) {
            byB[pos[qB.get(q)]++] = q;
        }
        qAnswer = new boolean[nq];
        walk(order, rev, (t, clock, stored) -> {
            for (int i = qOff[t]; i < qOff[t + 1]; i++) {
                int q = byB[i];
                int a = qA.get(q);
                qAnswer[q] = clock[nodeSess[a]] >= nodeSo[a];
            }
        });
    }

    // ---------------------------------------------------------------- classification

    private void classifyCandidates(IntList coFrom, IntList coTo, IntList coLab) {
        int n = cRead.size();
        int c = 0;
        while (c < n) {
            int r = cRead.get(c);
            int end = c;
            while (end < n && cRead.get(end) == r) {
                end++;
            }
            int t3 = readerOf(r);
            int t1 = readWriter.get(r);
            Kind best = null;
            int bestT2 = -1;
            for (int i = c; i < end; i++) {
                int t2 = cT2.get(i);
                int q = cQuery.get(i);
                boolean direct = q < 0 || qAnswer[q];
                if (!direct) {
                    coFrom.add(t2);
                    coTo.add(t1);
                    coLab.add(-3 - i);
                    continue;
                }
                Kind kind = classify(r, t3, t1, t2);
                if (best == null || rank(kind) < rank(best)) {
                    best = kind;
                    // For monotonic reads, name the newer write the session actually observed.
                    bestT2 = kind == Kind.MONOTONIC_READS && rPrev[r] >= 0 ? rPrev[r] : t2;
                }
            }
            if (best != null) {
                reportStale(best, r, t3, t1, bestT2);
            }
            c = end;
        }
    }

    /** Most specific classification first. */
    static int rank(Kind k) {
        return switch (k) {
            case NON_CONVERGENCE -> 0;
            case READ_YOUR_WRITES -> 1;
            case MONOTONIC_READS -> 2;
            case FRACTURED_READ -> 3;
            default -> 4;
        };
    }

    /** Why t3's read of t1's value is stale, given that t2 (hb t3) overwrote it and t1 hb t2. */
    private Kind classify(int r, int t3, int t1, int t2) {
        if (sessFinal[nodeSess[t3]]) {
            return Kind.NON_CONVERGENCE;
        }
        if (nodeSess[t2] == nodeSess[t3]) {
            return Kind.READ_YOUR_WRITES;
        }
        int p = rPrev[r];
        if (p == t2 || p >= 0 && p != t1 && (t1 == INIT || rPrevQuery[r] >= 0 && qAnswer[rPrevQuery[r]])) {
            return Kind.MONOTONIC_READS;
        }
        if (readsRegisterFrom(t3, t2) || typed != null && typed.pins(t3, t2)) {
            return Kind.FRACTURED_READ;
        }
        return Kind.CAUSAL_VIOLATION;
    }

    private void reportStale(Kind kind, int r, int t3, int t1, int t2) {
        long k = readKey.get(r);
        String reader = name(nodeTx[t3]);
        String seen = k + "=" + readVal.get(r) + (t1 == INIT ? " (the initial value)" : " written by "
                + name(nodeTx[t1]));
        String newer = k + "=" + lastWrite(nodeTx[t2], k);
        String t2name = name(nodeTx[t2]);
        String text = switch (kind) {
            case READ_YOUR_WRITES -> reader + " read " + seen + " although its session earlier wrote " + newer
                    + " in " + t2name;
            case MONOTONIC_READS -> reader + " read " + seen + " although its session had already read the newer "
                    + newer + " written by " + t2name;
            case FRACTURED_READ -> reader + " read " + seen + " but read another key from " + t2name
                    + ", which wrote " + newer + " (fractured read)";
            case NON_CONVERGENCE -> "after quiescence " + reader + " read " + seen + ", overwritten by " + t2name
                    + " (" + newer + ")";
            default -> reader + " read " + seen + " but " + t2name + ", which wrote " + newer
                    + ", is in its causal past";
        };
        List<Long> involved = new ArrayList<>(3);
        if (t1 != INIT) {
            involved.add(tx[nodeTx[t1]].id());
        }
        involved.add(tx[nodeTx[t2]].id());
        involved.add(tx[nodeTx[t3]].id());
        report(kind, text, involved, k);
    }

    private long lastWrite(int txIndex, long key) {
        long v = 0;
        for (Op op : tx[txIndex].ops()) {
            if (op.kind() == Op.Kind.WRITE && op.key() == key) {
                v = op.value();
            }
        }
        return v;
    }

    /** CO' = hb ∪ (non-direct candidate edges) must be acyclic. */
    private void checkCommitOrder(boolean[] done, IntList coFrom, IntList coTo, IntList coLab) {
        for (int e = 0; e < eFrom.size(); e++) {
            if (done[eFrom.get(e)] && done[eTo.get(e)]) {
                coFrom.add(eFrom.get(e));
                coTo.add(eTo.get(e));
                coLab.add(eLab.get(e));
            }
        }
        Digraph co = Digraph.of(nNodes, coFrom, coTo, coLab);
        int[] order = co.topoOrder();
        if (order.length == nNodes) {
            return;
        }
        boolean[] sorted = new boolean[nNodes];
        for (int t : order) {
            sorted[t] = true;
        }
        for (int t = 0; t < nNodes; t++) {
            sorted[t] |= !done[t]; // hb-cyclic part was reported already
        }
        for (int[] cycle : co.cycles(sorted)) {
            boolean fin = false;
            for (int e : cycle) {
                int lab = co.label[e];
                fin |= lab <= -3 && sessFinal[nodeSess[readerOf(cRead.get(-3 - lab))]];
            }
            report(fin ? Kind.NON_CONVERGENCE : Kind.CAUSAL_VIOLATION,
                    "no commit order satisfies causal consistency; cycle " + describeCycle(co, cycle)
                            + " (a -ww(k by T)-> b: T read k from b although a, which also wrote k, was in T's causal past)",
                    cycleTxns(co, cycle), cycleKey(co, cycle));
        }
    }

    // ---------------------------------------------------------------- reporting helpers

    private String describeCycle(Digraph g, int[] cycle) {
        StringBuilder sb = new StringBuilder();
        for (int e : cycle) {
            sb.append(nodeName(g.src[e])).append(' ');
            int lab = g.label[e];
            if (lab == SO) {
                sb.append("-so->");
            } else if (lab == BARRIER) {
                sb.append("-quiesce->");
            } else if (lab >= 0) {
                sb.append(visLabel.get(lab) ? "-vis(" : "-wr(").append(wrKey.get(lab)).append(")->");
            } else {
                int c = -3 - lab;
                int r = cRead.get(c);
                sb.append("-ww(").append(readKey.get(r)).append(" by ").append(name(nodeTx[readerOf(r)]))
                        .append(")->");
            }
            sb.append(' ');
        }
        return sb.append(nodeName(g.src[cycle[0]])).toString();
    }

    private List<Long> cycleTxns(Digraph g, int[] cycle) {
        List<Long> out = new ArrayList<>(cycle.length);
        for (int e : cycle) {
            if (g.src[e] != barrier) {
                out.add(tx[nodeTx[g.src[e]]].id());
            }
        }
        return out;
    }

    private Long cycleKey(Digraph g, int[] cycle) {
        for (int e : cycle) {
            int lab = g.label[e];
            if (lab <= -3) {
                return readKey.get(cRead.get(-3 - lab));
            }
        }
        for (int e : cycle) {
            if (g.label[e] >= 0) {
                return wrKey.get(g.label[e]);
            }
        }
        return null;
    }

    private String nodeName(int node) {
        return node == barrier ? "[quiescence]" : name(nodeTx[node]);
    }

    private String name(int txIndex) {
        return "T" + tx[txIndex].id();
    }

    private List<Long> ids(int... txIndexes) {
        List<Long> out = new ArrayList<>(txIndexes.length);
        for (int i : txIndexes) {
            out.add(tx[i].id());
        }
        return out;
    }

    private void report(Kind kind, String description, List<Long> txnIds, Long key) {
        counts.merge(kind, 1, Integer::sum);
        if (anomalies.size() < maxStored) {
            anomalies.add(new Anomaly(kind, description, txnIds,
                    key == null ? OptionalLong.empty() : OptionalLong.of(key)));
        }
    }
}
