package io.fastccs.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Random history generators for tests and the benchmark. */
final class HistoryGen {

    private HistoryGen() {
    }

    /** Parameters of {@link #serial}. */
    record Params(int txns, int sessions, int keys, int opsPerTxn, double writeTxnFraction,
                  double abortFraction, boolean gaussianKeys, int finalSessions, int finalReads) {
    }

    /**
     * A history of a single serial store: transactions run one at a time in list order and read the
     * latest committed value (or their own write). That is serializable, hence TCC. Aborted
     * transactions consume values that nobody reads. Final sessions (ids {@code sessions ..}) each
     * run one read-only transaction after the workload.
     */
    static History serial(Random rnd, Params p) {
        History.Builder b = History.builder();
        long[] latest = new long[p.keys()];
        long[] next = new long[p.keys()];
        long id = 1;
        Map<Long, Long> own = new HashMap<>();
        for (int i = 0; i < p.txns(); i++) {
            boolean writer = rnd.nextDouble() < p.writeTxnFraction();
            boolean abort = writer && rnd.nextDouble() < p.abortFraction();
            own.clear();
            List<Op> ops = new ArrayList<>(p.opsPerTxn());
            for (int j = 0; j < p.opsPerTxn(); j++) {
                int k = key(rnd, p);
                if (writer && rnd.nextBoolean()) {
                    long v = ++next[k];
                    own.put((long) k, v);
                    ops.add(Op.write(k, v));
                } else {
                    Long mine = own.get((long) k);
                    ops.add(Op.read(k, mine != null ? mine : latest[k]));
                }
            }
            long session = rnd.nextInt(p.sessions());
            if (abort) {
                b.aborted(-id, session, ops.toArray(new Op[0]));
            } else {
                for (Map.Entry<Long, Long> e : own.entrySet()) {
                    latest[(int) (long) e.getKey()] = e.getValue();
                }
                b.committed(id, session, ops.toArray(new Op[0]));
            }
            id++;
        }
        for (int f = 0; f < p.finalSessions(); f++) {
            long session = p.sessions() + f;
            b.finalSession(session);
            Map<Integer, Op> reads = new LinkedHashMap<>();
            for (int j = 0; j < p.finalReads(); j++) {
                int k = key(rnd, p);
                reads.putIfAbsent(k, Op.read(k, latest[k]));
            }
            b.committed(id++, session, reads.values().toArray(new Op[0]));
        }
        return b.build();
    }

    private static int key(Random rnd, Params p) {
        if (!p.gaussianKeys()) {
            return rnd.nextInt(p.keys());
        }
        double g = p.keys() / 2.0 + rnd.nextGaussian() * p.keys() / 6.0;
        return (int) Math.max(0, Math.min(p.keys() - 1, Math.round(g)));
    }

    /**
     * A small history whose reads return arbitrary existing values: each transaction reads some
     * distinct keys, then writes some distinct keys (one write per key, fresh values). Reads return
     * the latest value in list order with probability {@code pLatest}, else a random committed write
     * of the key by another transaction (possibly a later one) or the initial value. So no per-read
     * or intra-transaction anomaly can occur, only causal ones.
     */
    static History arbitraryReads(Random rnd, int txns, int sessions, int keys, int finals, double pLatest) {
        int total = txns + finals;
        long[][] writeVal = new long[total][keys]; // 0 = does not write
        boolean[] committed = new boolean[total];
        long[] next = new long[keys];
        List<List<Integer>> writersOf = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            writersOf.add(new ArrayList<>());
        }
        for (int i = 0; i < total; i++) {
            committed[i] = i >= txns || rnd.nextDouble() > 0.1;
            if (i >= txns) {
                continue; // final transactions only read
            }
            for (int k = 0; k < keys; k++) {
                if (rnd.nextDouble() < 0.35) {
                    writeVal[i][k] = ++next[k];
                    if (committed[i]) {
                        writersOf.get(k).add(i);
                    }
                }
            }
        }
        History.Builder b = History.builder();
        for (int f = 0; f < finals; f++) {
            b.finalSession(sessions + f);
        }
        long[] latest = new long[keys];
        for (int i = 0; i < total; i++) {
            List<Op> ops = new ArrayList<>();
            for (int k = 0; k < keys; k++) {
                if (rnd.nextDouble() < 0.5) {
                    long v;
                    if (rnd.nextDouble() < pLatest) {
                        v = latest[k];
                    } else {
                        List<Integer> ws = writersOf.get(k);
                        int pick = rnd.nextInt(ws.size() + 1);
                        v = pick == ws.size() || ws.get(pick) == i ? 0 : writeVal[ws.get(pick)][k];
                    }
                    ops.add(Op.read(k, v));
                }
            }
            java.util.Collections.shuffle(ops, rnd);
            for (int k = 0; k < keys; k++) {
                if (writeVal[i][k] != 0) {
                    ops.add(Op.write(k, writeVal[i][k]));
                    if (committed[i]) {
                        latest[k] = writeVal[i][k];
                    }
                }
            }
            if (ops.isEmpty()) {
                ops.add(Op.read(0, latest[0]));
            }
            long session = i >= txns ? sessions + (i - txns) : rnd.nextInt(sessions);
            b.add(new Txn(i + 1, session, committed[i], ops));
        }
        return b.build();
    }
}
