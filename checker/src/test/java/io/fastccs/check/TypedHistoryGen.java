package io.fastccs.check;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Random TCC histories with typed keys, from a model store: each transaction reads one snapshot (a causally
 * closed set of earlier committed transactions) plus its own operations, and every read is the fold of
 * exactly that. Keys: two exact counters (distinct powers of two), a counter with small deltas of both
 * signs, two max registers, two sets, two top-k keys and two registers (see the constants).
 *
 * <p>Sets follow the checker's add-wins rule: each element is added once per key, and a session removes only
 * elements whose add is in its recorded causal past (it read them, or added them itself, in an earlier
 * committed transaction), so a remove removes exactly its element's add. Registers: the visible write of the
 * highest transaction index wins, an order that extends causality.
 */
final class TypedHistoryGen {

    static final long[] EXACT = {100, 101};
    static final long BOUNDED = 102;
    static final long[] MAXES = {103, 104};
    static final long[] SETS = {105, 106};
    static final long[] TOPKS = {107, 108};
    static final long[] REGISTERS = {109, 110};
    static final long[] ALL_KEYS = {EXACT[0], EXACT[1], BOUNDED, MAXES[0], MAXES[1], SETS[0], SETS[1], TOPKS[0],
        TOPKS[1], REGISTERS[0], REGISTERS[1]};
    /** Exact counters stop taking adds at this bit, so higher bits are never anybody's. */
    static final int EXACT_BITS = 40;

    private TypedHistoryGen() {
    }

    /** Every transaction sees every earlier committed one: a serial store. */
    static History serial(Random rnd, int txns, int sessions, int finals, double abortFraction) {
        return new Model(rnd, sessions, true).run(txns, finals, abortFraction);
    }

    /** Each transaction sees its session's causal past plus a random causally closed part of the others'. */
    static History causal(Random rnd, int txns, int sessions, int finals, double abortFraction) {
        return new Model(rnd, sessions, false).run(txns, finals, abortFraction);
    }

    private static final class Model {
        final Random rnd;
        final int sessions;
        final boolean serial;
        final List<List<Op>> opsOf = new ArrayList<>();
        final List<Boolean> committed = new ArrayList<>();
        /** Per transaction index: its snapshot plus itself (committed ones only). */
        final List<BitSet> visible = new ArrayList<>();
        final Map<Long, Integer> nextBit = new HashMap<>();
        final Map<Long, Set<Long>> usedMaxValues = new HashMap<>();
        long nextElement = 1;
        long nextRegisterValue = 1;
        /** Per session: its causal past; per session and set key: elements whose add is in it. */
        final Map<Long, BitSet> sessionPast = new HashMap<>();
        final Map<Long, List<Integer>> committedOfSession = new HashMap<>();
        final Map<Long, Map<Long, Set<Long>>> removable = new HashMap<>();

        Model(Random rnd, int sessions, boolean serial) {
            this.rnd = rnd;
            this.sessions = sessions;
            this.serial = serial;
        }

        History run(int txns, int finals, double abortFraction) {
            History.Builder b = History.builder();
            for (long id = 1; id <= txns; id++) {
                long session = rnd.nextInt(sessions);
                int shape = rnd.nextInt(10); // 0-5 write-only, 6-8 read-only, 9 both
                boolean writes = shape <= 5 || shape == 9;
                boolean reads = shape >= 6;
                boolean abort = writes && rnd.nextDouble() < abortFraction;
                BitSet snapshot = snapshot(session);
                Map<Long, Set<Long>> mayRemove = removable.computeIfAbsent(session, s -> new HashMap<>());
                Map<Long, Set<Long>> seenNow = new HashMap<>();
                List<Op> ops = new ArrayList<>();
                int n = 1 + rnd.nextInt(5);
                for (int j = 0; j < n || ops.isEmpty(); j++) {
                    Op op = writes && (!reads || rnd.nextBoolean()) ? update(mayRemove)
                            : read(anyKey(), snapshot, ops);
                    if (op == null) {
                        continue;
                    }
                    ops.add(op);
                    if (op.kind() == Op.Kind.SET_ADD || op.kind() == Op.Kind.READ_SET) {
                        Set<Long> es = seenNow.computeIfAbsent(op.key(), k -> new HashSet<>());
                        for (long e : op.kind() == Op.Kind.SET_ADD ? new long[] {op.value()} : op.elements()) {
                            es.add(e);
                        }
                    }
                }
                int index = opsOf.size();
                opsOf.add(ops);
                committed.add(!abort);
                if (abort) {
                    visible.add(new BitSet());
                    b.aborted(-id, session, ops.toArray(new Op[0]));
                    continue;
                }
                BitSet vis = (BitSet) snapshot.clone();
                vis.set(index);
                visible.add(vis);
                sessionPast.put(session, vis);
                committedOfSession.computeIfAbsent(session, s -> new ArrayList<>()).add(index);
                seenNow.forEach((k, es) -> mayRemove.computeIfAbsent(k, x -> new HashSet<>()).addAll(es));
                b.committed(id, session, ops.toArray(new Op[0]));
            }
            BitSet everything = new BitSet();
            for (int i = 0; i < opsOf.size(); i++) {
                if (committed.get(i)) {
                    everything.set(i);
                }
            }
            long id = txns + 1;
            for (int f = 0; f < finals; f++) {
                long session = sessions + f;
                b.finalSession(session);
                List<Op> ops = new ArrayList<>();
                for (long key : ALL_KEYS) {
                    ops.add(read(key, everything, List.of()));
                }
                b.committed(id++, session, ops.toArray(new Op[0]));
            }
            return b.build();
        }

        /** The session's causal past, plus (serial: every committed transaction) a random closed part of others'. */
        private BitSet snapshot(long session) {
            BitSet s = (BitSet) sessionPast.getOrDefault(session, new BitSet()).clone();
            if (serial) {
                for (int i = 0; i < opsOf.size(); i++) {
                    if (committed.get(i)) {
                        s.set(i);
                    }
                }
                return s;
            }
            for (Map.Entry<Long, List<Integer>> e : committedOfSession.entrySet()) {
                List<Integer> theirs = e.getValue();
                if (e.getKey() != session && rnd.nextBoolean()) {
                    s.or(visible.get(theirs.get(rnd.nextInt(theirs.size()))));
                }
            }
            return s;
        }

        private long anyKey() {
            return ALL_KEYS[rnd.nextInt(ALL_KEYS.length)];
        }

        /** A random update, or null if the chosen key cannot take one now. */
        private Op update(Map<Long, Set<Long>> mayRemove) {
            long key = anyKey();
            if (key == EXACT[0] || key == EXACT[1]) {
                int bit = nextBit.getOrDefault(key, 0);
                if (bit >= EXACT_BITS) {
                    return null;
                }
                nextBit.put(key, bit + 1); // aborted adds use their bit up too: sums stay decodable
                return Op.add(key, 1L << bit);
            }
            if (key == BOUNDED) {
                return Op.add(key, rnd.nextInt(16) - 5);
            }
            if (key == MAXES[0] || key == MAXES[1]) {
                Set<Long> used = usedMaxValues.computeIfAbsent(key, k -> new HashSet<>());
                long v;
                do {
                    v = 1 + rnd.nextInt(1000);
                } while (!used.add(v));
                return Op.max(key, v);
            }
            if (key == SETS[0] || key == SETS[1]) {
                Set<Long> seen = mayRemove.getOrDefault(key, Set.of());
                if (!seen.isEmpty() && rnd.nextInt(3) == 0) {
                    List<Long> options = new ArrayList<>(new TreeSet<>(seen));
                    return Op.setRemove(key, options.get(rnd.nextInt(options.size())));
                }
                return Op.setAdd(key, nextElement++);
            }
            if (key == TOPKS[0] || key == TOPKS[1]) {
                return Op.topkInsert(key, rnd.nextInt(12), 1 + rnd.nextInt(60));
            }
            return Op.write(key, nextRegisterValue++);
        }

        /** The fold of {@code key} over the snapshot's operations, in index order, then the transaction's own. */
        private Op read(long key, BitSet snapshot, List<Op> own) {
            List<Op> ops = new ArrayList<>();
            for (int i = snapshot.nextSetBit(0); i >= 0; i = snapshot.nextSetBit(i + 1)) {
                ops.addAll(opsOf.get(i));
            }
            ops.addAll(own);
            long sum = 0;
            long max = 0;
            long register = 0;
            TreeSet<Long> members = new TreeSet<>();
            Map<Long, Long> best = new HashMap<>();
            for (Op op : ops) {
                if (op.key() != key || op.isRead()) {
                    continue;
                }
                switch (op.kind()) {
                    case ADD -> sum += op.value();
                    case MAX -> max = Math.max(max, op.value());
                    case WRITE -> register = op.value();
                    // A remove is issued only after its element's add was seen: it removes that add.
                    case SET_ADD -> members.add(op.value());
                    case SET_REMOVE -> members.remove(op.value());
                    case TOPK_INSERT -> best.merge(op.item(), op.score(), Math::max);
                    default -> throw new IllegalStateException();
                }
            }
            if (key == EXACT[0] || key == EXACT[1] || key == BOUNDED) {
                return Op.readCounter(key, sum);
            }
            if (key == MAXES[0] || key == MAXES[1]) {
                return Op.readMax(key, max);
            }
            if (key == SETS[0] || key == SETS[1]) {
                return Op.readSet(key, members.stream().mapToLong(Long::longValue).toArray());
            }
            if (key == TOPKS[0] || key == TOPKS[1]) {
                return topk(key, 1 + rnd.nextInt(5), best);
            }
            return Op.read(key, register);
        }

        /** Written out here rather than with the checker's TopK, so its ranking is tested, not trusted. */
        private static Op topk(long key, int k, Map<Long, Long> best) {
            List<Map.Entry<Long, Long>> entries = new ArrayList<>(best.entrySet());
            entries.sort(Map.Entry.<Long, Long>comparingByValue().reversed()
                    .thenComparing(Map.Entry.comparingByKey()));
            int n = Math.min(k, entries.size());
            long[] items = new long[n];
            long[] scores = new long[n];
            for (int i = 0; i < n; i++) {
                items[i] = entries.get(i).getKey();
                scores[i] = entries.get(i).getValue();
            }
            return Op.readTopk(key, k, items, scores);
        }
    }
}
