package io.fastccs.check;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Brute-force oracle for the causal part of the checker, straight from the definitions
 * (transitive closure with bit sets, then a cycle search): for small histories without per-read or
 * intra-transaction anomalies.
 */
final class NaiveTcc {

    private NaiveTcc() {
    }

    /** Strict causal past of each committed transaction (index into {@code committed}), or null if hb is cyclic. */
    static BitSet[] causalPast(History h, List<Txn> committed) {
        int n = committed.size();
        List<List<Integer>> preds = preds(h, committed);
        BitSet[] past = new BitSet[n];
        int[] state = new int[n];
        for (int t = 0; t < n; t++) {
            if (!closure(t, preds, past, state)) {
                return null;
            }
        }
        return past;
    }

    private static boolean closure(int t, List<List<Integer>> preds, BitSet[] past, int[] state) {
        if (state[t] == 2) {
            return true;
        }
        if (state[t] == 1) {
            return false;
        }
        state[t] = 1;
        BitSet b = new BitSet();
        for (int p : preds.get(t)) {
            if (!closure(p, preds, past, state)) {
                return false;
            }
            b.or(past[p]);
            b.set(p);
        }
        past[t] = b;
        state[t] = 2;
        return true;
    }

    /** hb predecessors: session order, reads-from, and non-final before final. */
    static List<List<Integer>> preds(History h, List<Txn> committed) {
        int n = committed.size();
        Map<String, Integer> writer = writers(committed);
        List<List<Integer>> preds = new ArrayList<>();
        Map<Long, Integer> lastInSession = new HashMap<>();
        for (int t = 0; t < n; t++) {
            Txn x = committed.get(t);
            List<Integer> p = new ArrayList<>();
            Integer prev = lastInSession.put(x.session(), t);
            if (prev != null) {
                p.add(prev);
            }
            for (long[] r : externalReads(x)) {
                if (r[1] != 0) {
                    p.add(writer.get(r[0] + ":" + r[1]));
                }
            }
            if (h.finalSessions().contains(x.session())) {
                for (int u = 0; u < n; u++) {
                    if (!h.finalSessions().contains(committed.get(u).session())) {
                        p.add(u);
                    }
                }
            }
            preds.add(p);
        }
        return preds;
    }

    static Map<String, Integer> writers(List<Txn> committed) {
        Map<String, Integer> writer = new HashMap<>();
        for (int t = 0; t < committed.size(); t++) {
            for (Op op : committed.get(t).ops()) {
                if (!op.isRead()) {
                    writer.put(op.key() + ":" + op.value(), t);
                }
            }
        }
        return writer;
    }

    /** (key, value) of the first read of each key before the transaction writes it. */
    static List<long[]> externalReads(Txn x) {
        List<long[]> out = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (Op op : x.ops()) {
            if (seen.add(op.key()) && op.isRead()) {
                out.add(new long[] {op.key(), op.value()});
            }
        }
        return out;
    }

    static Set<Long> writtenKeys(Txn x) {
        Set<Long> s = new HashSet<>();
        for (Op op : x.ops()) {
            if (!op.isRead()) {
                s.add(op.key());
            }
        }
        return s;
    }

    /** Whether hb is acyclic, CO' is acyclic and final reads agree. */
    static boolean ok(History h) {
        List<Txn> committed = h.transactions().stream().filter(Txn::committed).toList();
        int n = committed.size();
        BitSet[] past = causalPast(h, committed);
        if (past == null) {
            return false;
        }
        Map<String, Integer> writer = writers(committed);
        List<List<Integer>> succ = new ArrayList<>();
        List<List<Integer>> preds = preds(h, committed);
        for (int t = 0; t < n; t++) {
            succ.add(new ArrayList<>());
        }
        for (int t = 0; t < n; t++) {
            for (int p : preds.get(t)) {
                succ.get(p).add(t);
            }
        }
        for (int t3 = 0; t3 < n; t3++) {
            for (long[] r : externalReads(committed.get(t3))) {
                int t1 = r[1] == 0 ? -1 : writer.get(r[0] + ":" + r[1]);
                for (int t2 = past[t3].nextSetBit(0); t2 >= 0; t2 = past[t3].nextSetBit(t2 + 1)) {
                    if (t2 != t1 && writtenKeys(committed.get(t2)).contains(r[0])) {
                        if (t1 < 0) {
                            return false;
                        }
                        succ.get(t2).add(t1);
                    }
                }
            }
        }
        int[] state = new int[n];
        for (int t = 0; t < n; t++) {
            if (hasCycle(t, succ, state)) {
                return false;
            }
        }
        Set<Long> finalWritten = new HashSet<>();
        for (Txn x : committed) {
            if (h.finalSessions().contains(x.session())) {
                finalWritten.addAll(writtenKeys(x));
            }
        }
        Map<Long, Long> finalValue = new HashMap<>();
        for (Txn x : committed) {
            if (h.finalSessions().contains(x.session())) {
                for (long[] r : externalReads(x)) {
                    Long prev = finalWritten.contains(r[0]) ? null : finalValue.putIfAbsent(r[0], r[1]);
                    if (prev != null && prev != r[1]) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static boolean hasCycle(int t, List<List<Integer>> succ, int[] state) {
        if (state[t] == 2) {
            return false;
        }
        if (state[t] == 1) {
            return true;
        }
        state[t] = 1;
        for (int s : succ.get(t)) {
            if (hasCycle(s, succ, state)) {
                return true;
            }
        }
        state[t] = 2;
        return false;
    }
}
