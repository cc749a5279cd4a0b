package io.fastccs.check;

import io.fastccs.check.Anomaly.Kind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Step 1 of the typed-read checks ({@link TypedReads}): what each typed read proves by its value alone. Per
 * transaction, in program order: the intra-transaction rules ({@link LaterReads}); per external read (the
 * first read of a key in a transaction), thin-air, aborted, future and impossible values, the transaction's
 * own earlier operations, and the transactions whose operations it certainly folds in ("pins": the adds a
 * counter sum decodes to, the add of each set member, the one writer of a max value or top-k pair). A read
 * that breaks a rule here pins nothing and is not checked further, so one fault is reported once.
 */
final class TypedValues {

    private final TxnNodes nodes;
    private final TypedKeys keys;
    private final TxnNodes.Sink sink;

    // External typed reads, grouped by reader node: readOff[t] .. readOff[t + 1].
    private int[] readOff;
    private final IntList rNode = new IntList();
    private final IntList rOpIndex = new IntList();
    private final List<TypedKey> rKey = new ArrayList<>();
    private final List<Boolean> rValid = new ArrayList<>();
    // Pinned writer nodes of read r: pinNode[pinOff[r] .. pinOff[r + 1]).
    private final IntList pinOff = new IntList();
    private final IntList pinNode = new IntList();
    private int[] pinMark;

    TypedValues(TxnNodes nodes, TypedKeys keys, TxnNodes.Sink sink) {
        this.nodes = nodes;
        this.keys = keys;
        this.sink = sink;
    }

    /** What a transaction has done to one typed key so far. */
    private static final class KeyState {
        LaterReads view;
        List<Op> since = new ArrayList<>(2);
    }

    /** Checks every committed transaction's typed reads; collects the external ones and their pins. */
    void scan() {
        int nc = nodes.count();
        readOff = new int[nc + 1];
        pinMark = new int[nc];
        Map<Long, KeyState> state = new HashMap<>();
        for (int t = 0; t < nc; t++) {
            readOff[t] = rNode.size();
            int i = nodes.nodeTx()[t];
            List<Op> ops = nodes.tx()[i].ops();
            state.clear();
            for (int j = 0; j < ops.size(); j++) {
                Op op = ops.get(j);
                TypedKey tk = op.isTyped() ? keys.get(op.key()) : null;
                if (tk == null) {
                    continue;
                }
                KeyState st = state.computeIfAbsent(op.key(), k -> new KeyState());
                if (!op.isRead()) {
                    st.since.add(op);
                    continue;
                }
                if (st.view == null) {
                    external(t, j, op, tk, st.since);
                    st.view = LaterReads.after(op);
                } else {
                    Op expected = st.view.next(st.since, op);
                    if (expected != null && !LaterReads.same(expected, op)) {
                        boolean own = !st.since.isEmpty();
                        sink.report(own ? Kind.NOT_MY_OWN_WRITE : Kind.NON_REPEATABLE_READ, nodes.name(i) + " read "
                                + shown(op) + " but " + (own ? "its earlier read and its own operations since give "
                                : "it read ") + shown(expected) + " before" + (own ? "" : " without operating on it"),
                                nodes.ids(i), op.key());
                    }
                }
                st.since = new ArrayList<>(2);
            }
        }
        readOff[nc] = rNode.size();
        pinOff.add(pinNode.size());
        pinMark = null;
    }

    /** The first read of a typed key in a transaction; {@code own}: the transaction's operations on it before. */
    private void external(int t, int j, Op read, TypedKey tk, List<Op> own) {
        int r = rNode.size();
        rNode.add(t);
        rOpIndex.add(j);
        rKey.add(tk);
        pinOff.add(pinNode.size());
        boolean valid = switch (tk.type) {
            case COUNTER -> !tk.exactCounter() || exactCounter(r, t, j, read, tk, own);
            case MAX_REGISTER -> maxRegister(r, t, j, read, tk, own);
            case SET -> set(r, t, j, read, tk, own);
            case TOP_K -> topk(r, t, j, read, tk, own);
            case REGISTER -> throw new IllegalStateException("register key " + tk.key);
        };
        if (!valid) {
            pinNode.size = pinOff.get(r); // a read that breaks a per-read rule pins nothing
        }
        rValid.add(valid);
    }

    private boolean exactCounter(int r, int t, int j, Op read, TypedKey tk, List<Op> own) {
        int i = nodes.nodeTx()[t];
        long v = read.value();
        for (long bits = v; bits != 0; bits &= bits - 1) {
            int b = Long.numberOfTrailingZeros(bits);
            int u = tk.ownerOfBit(b);
            if (u < 0) {
                return fail(Kind.DOUBLE_COUNTED, reads(t, read) + ", but no transaction adds " + (1L << b)
                        + " (every add is a distinct power of two, so an add was counted twice or the sum is wrong)",
                        nodes.ids(i), tk);
            }
            if (!origin(r, t, j, read, tk, u, "counts " + tk.op(u))) {
                return false;
            }
        }
        for (Op o : own) {
            if ((v & o.value()) == 0) {
                return fail(Kind.NOT_MY_OWN_WRITE, reads(t, read) + " without its own earlier " + o, nodes.ids(i),
                        tk);
            }
        }
        for (int p = pinOff.get(r); p < pinNode.size(); p++) {
            int w = nodes.nodeTx()[pinNode.get(p)];
            for (int u = 0; u < tk.size(); u++) {
                if (tk.txOf(u) == w && (v & tk.op(u).value()) == 0) {
                    return fail(Kind.FRACTURED_READ, reads(t, read) + ", which counts some adds of " + nodes.name(w)
                            + " but not its " + tk.op(u) + " (fractured read)", nodes.ids(w, i), tk);
                }
            }
        }
        return true;
    }

    private boolean maxRegister(int r, int t, int j, Op read, TypedKey tk, List<Op> own) {
        int i = nodes.nodeTx()[t];
        long v = read.value();
        if (v < 0) {
            return fail(Kind.THIN_AIR_READ, reads(t, read) + ", but a max register starts at 0 and never decreases",
                    nodes.ids(i), tk);
        }
        boolean ownHasIt = false;
        for (Op o : own) {
            ownHasIt |= o.value() == v;
        }
        if (v > 0 && !ownHasIt && !oneWriter(r, t, j, read, tk, tk.withValue(v), "wrote " + v)) {
            return false;
        }
        for (Op o : own) {
            if (o.value() > v) {
                return fail(Kind.NOT_MY_OWN_WRITE, reads(t, read) + " below its own earlier " + o, nodes.ids(i), tk);
            }
        }
        return true;
    }

    private boolean set(int r, int t, int j, Op read, TypedKey tk, List<Op> own) {
        int i = nodes.nodeTx()[t];
        for (int x = 0; x < read.size(); x++) {
            long e = read.elementAt(x);
            int u = tk.addOf(e);
            if (u < 0) {
                return fail(Kind.THIN_AIR_READ, reads(t, read) + ", but no transaction adds " + e, nodes.ids(i), tk);
            }
            if (!origin(r, t, j, read, tk, u, "shows element " + e + " of " + tk.op(u))) {
                return false;
            }
        }
        Map<Long, Op> lastOwn = new HashMap<>();
        for (Op o : own) {
            lastOwn.put(o.value(), o); // the last own operation on an element decides it
        }
        for (Op o : lastOwn.values()) {
            boolean present = read.hasElement(o.value());
            if (present != (o.kind() == Op.Kind.SET_ADD)) {
                return fail(Kind.NOT_MY_OWN_WRITE, reads(t, read) + (present ? " with " : " without ") + o.value()
                        + " after its own " + o, nodes.ids(i), tk);
            }
        }
        return true;
    }

    private boolean topk(int r, int t, int j, Op read, TypedKey tk, List<Op> own) {
        int i = nodes.nodeTx()[t];
        String malformed = TopK.malformed(read);
        if (malformed != null) {
            return fail(Kind.DOUBLE_COUNTED, reads(t, read) + ", which no top-k state gives: " + malformed,
                    nodes.ids(i), tk);
        }
        for (int x = 0; x < read.size(); x++) {
            long item = read.elementAt(x);
            long score = read.scoreAt(x);
            boolean ownHasIt = false;
            for (Op o : own) {
                ownHasIt |= o.item() == item && o.score() == score;
            }
            if (!ownHasIt && !oneWriter(r, t, j, read, tk, tk.inserting(item, score),
                    "inserted " + item + ":" + score)) {
                return false;
            }
        }
        for (Op o : own) {
            if (!TopK.reflects(read, o.item(), o.score())) {
                return fail(Kind.NOT_MY_OWN_WRITE, reads(t, read) + " without its own earlier " + o, nodes.ids(i),
                        tk);
            }
        }
        return true;
    }

    /**
     * A value that some update among {@code us} produced (max value, top-k pair): thin-air if none, aborted or
     * future if only such; pins the writer if exactly one committed other transaction wrote it (with several,
     * any one may be the visible one).
     */
    private boolean oneWriter(int r, int t, int j, Op read, TypedKey tk, IntList us, String what) {
        int i = nodes.nodeTx()[t];
        int writer = -1;
        boolean several = false;
        int aborted = -1;
        boolean future = false;
        for (int x = 0; us != null && x < us.size(); x++) {
            int u = us.get(x);
            int w = tk.txOf(u);
            if (w == i) {
                future |= tk.opIndexOf(u) > j;
            } else if (!tk.committed(u)) {
                aborted = w;
            } else if (writer < 0) {
                writer = nodes.nodeOf(w);
            } else {
                several |= writer != nodes.nodeOf(w);
            }
        }
        if (writer >= 0) {
            if (!several) {
                pin(r, writer);
            }
            return true;
        }
        if (future) {
            return fail(Kind.FUTURE_READ, reads(t, read) + " before it " + what + " itself", nodes.ids(i), tk);
        }
        if (aborted >= 0) {
            return fail(Kind.ABORTED_READ, reads(t, read) + ", but only aborted " + nodes.name(aborted) + " " + what,
                    nodes.ids(aborted, i), tk);
        }
        return fail(Kind.THIN_AIR_READ, reads(t, read) + ", but no transaction " + what, nodes.ids(i), tk);
    }

    /** The update {@code u} a value certainly includes: aborted or a later own one is an anomaly, else pinned. */
    private boolean origin(int r, int t, int j, Op read, TypedKey tk, int u, String what) {
        int i = nodes.nodeTx()[t];
        int w = tk.txOf(u);
        if (w == i) {
            return tk.opIndexOf(u) < j
                    || fail(Kind.FUTURE_READ, reads(t, read) + ", which " + what + " before the transaction does it",
                    nodes.ids(i), tk);
        }
        if (!tk.committed(u)) {
            return fail(Kind.ABORTED_READ, reads(t, read) + ", which " + what + " by aborted " + nodes.name(w),
                    nodes.ids(w, i), tk);
        }
        pin(r, nodes.nodeOf(w));
        return true;
    }

    private void pin(int r, int writer) {
        if (pinMark[writer] != r + 1) {
            pinMark[writer] = r + 1;
            pinNode.add(writer);
        }
    }

    private boolean fail(Kind kind, String text, List<Long> ids, TypedKey tk) {
        sink.report(kind, text, ids, tk.key);
        return false;
    }

    // ---------------------------------------------------------------- the reads and their pins

    /** Number of external typed reads. */
    int reads() {
        return rNode.size();
    }

    int readerOf(int r) {
        return rNode.get(r);
    }


    int pinStart(int r) {
        return pinOff.get(r);
    }

    int pinEnd(int r) {
        return pinOff.get(r + 1);
    }

    int pinned(int p) {
        return pinNode.get(p);
    }

    /** Whether some typed read of {@code reader} certainly folds in an operation of {@code writer}. */
    boolean pins(int reader, int writer) {
        for (int r = readOff[reader]; r < readOff[reader + 1]; r++) {
            for (int p = pinStart(r); p < pinEnd(r); p++) {
                if (pinNode.get(p) == writer) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The external typed reads of node {@code t} are {@code firstRead(t) .. firstRead(t + 1) - 1}. */
    int firstRead(int t) {
        return readOff[t];
    }

    TypedKey key(int r) {
        return rKey.get(r);
    }

    /** Position of read {@code r} in its transaction. */
    int opIndex(int r) {
        return rOpIndex.get(r);
    }

    /** Whether read {@code r} passed the value checks (else it is not checked further). */
    boolean valid(int r) {
        return rValid.get(r);
    }

    /** Whether read {@code r} pins {@code writer}. */
    boolean pinnedBy(int r, int writer) {
        for (int p = pinStart(r); p < pinEnd(r); p++) {
            if (pinNode.get(p) == writer) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- messages

    Op readOp(int r) {
        return nodes.tx()[nodes.nodeTx()[rNode.get(r)]].ops().get(rOpIndex.get(r));
    }

    /** "T5 read counter 3 = 7", for messages. */
    String reads(int t, Op read) {
        return nodes.nodeName(t) + " read " + shown(read);
    }

    /** A typed read for messages, e.g. {@code counter 5 = 3} or {@code top-2 of 7 = [1:40 2:30]}. */
    static String shown(Op read) {
        return switch (read.kind()) {
            case READ_COUNTER -> "counter " + read.key() + " = " + read.value();
            case READ_MAX -> "max register " + read.key() + " = " + read.value();
            case READ_SET -> "set " + read.key() + " = " + read.listed();
            case READ_TOPK -> "top-" + read.k() + " of " + read.key() + " = " + read.listed();
            default -> read.toString();
        };
    }
}
