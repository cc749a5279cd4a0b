package io.fastccs.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.fastccs.check.Anomaly.Kind;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Seeded random histories: valid ones must pass, mutated ones must fail, and the brute-force oracle must agree. */
class RandomizedTest {

    static final Set<Kind> CAUSAL_KINDS = EnumSet.of(Kind.FRACTURED_READ, Kind.READ_YOUR_WRITES,
            Kind.MONOTONIC_READS, Kind.CAUSAL_VIOLATION, Kind.CAUSAL_CYCLE, Kind.NON_CONVERGENCE);

    @Test
    void serializableHistoriesPassAndStaleReadMutationsAreCaught() {
        int mutated = 0;
        for (long seed = 1; seed <= 150; seed++) {
            Random rnd = new Random(seed);
            HistoryGen.Params p = new HistoryGen.Params(20 + rnd.nextInt(200), 1 + rnd.nextInt(8),
                    1 + rnd.nextInt(30), 1 + rnd.nextInt(6), rnd.nextDouble(), 0.1, rnd.nextBoolean(),
                    rnd.nextInt(3), 10);
            History h = HistoryGen.serial(rnd, p);
            CheckResult ok = TccChecker.check(h);
            assertThat(ok.ok()).as("seed %d: %s", seed, ok.anomalies()).isTrue();

            Mutation m = staleReadMutation(h, rnd);
            if (m == null) {
                continue;
            }
            mutated++;
            CheckResult bad = TccChecker.check(m.history);
            assertThat(bad.ok()).as("seed %d: mutation %s not caught", seed, m).isFalse();
            assertThat(bad.counts().keySet()).as("seed %d: %s", seed, bad.anomalies()).isSubsetOf(CAUSAL_KINDS);
            assertThat(bad.anomalies()).as("seed %d: %s", seed, m)
                    .anySatisfy(a -> assertThat(a.txnIds()).contains(m.txnId));
            assertThat(NaiveTcc.ok(m.history)).as("seed %d: oracle", seed).isFalse();
        }
        assertThat(mutated).isGreaterThan(100);
    }

    record Mutation(History history, long txnId, long key, long oldValue, long newValue) {
    }

    /**
     * Replaces the value of one external read with an older value of the same key whose writer (or the
     * initial state) is hb-before another write of that key in the reader's causal past, in the
     * mutated history. Such a read is a stale read in every causally consistent execution.
     */
    static Mutation staleReadMutation(History h, Random rnd) {
        List<Txn> txns = h.transactions();
        for (int attempt = 0; attempt < 50; attempt++) {
            int ti = rnd.nextInt(txns.size());
            Txn t = txns.get(ti);
            if (!t.committed()) {
                continue;
            }
            List<long[]> ext = NaiveTcc.externalReads(t);
            if (ext.isEmpty()) {
                continue;
            }
            long[] r = ext.get(rnd.nextInt(ext.size()));
            long key = r[0];
            List<Long> candidates = new ArrayList<>();
            candidates.add(0L);
            for (Txn w : txns) {
                if (w.committed() && w != t) {
                    for (Op op : w.ops()) {
                        if (!op.isRead() && op.key() == key) {
                            candidates.add(op.value());
                        }
                    }
                }
            }
            java.util.Collections.shuffle(candidates, rnd);
            for (long v : candidates) {
                if (v == r[1] || !isFinalWrite(txns, key, v)) {
                    continue;
                }
                History mutatedHistory = replaceRead(h, ti, key, v);
                if (isStale(mutatedHistory, ti, key, v)) {
                    return new Mutation(mutatedHistory, t.id(), key, r[1], v);
                }
            }
        }
        return null;
    }

    private static boolean isFinalWrite(List<Txn> txns, long key, long v) {
        if (v == 0) {
            return true;
        }
        for (Txn w : txns) {
            long last = 0;
            boolean has = false;
            for (Op op : w.ops()) {
                if (!op.isRead() && op.key() == key) {
                    has |= op.value() == v;
                    last = op.value();
                }
            }
            if (has) {
                return last == v;
            }
        }
        return false;
    }

    /** Replaces the reads of key in transaction ti that precede its first write of key. */
    static History replaceRead(History h, int ti, long key, long v) {
        History.Builder b = History.builder();
        h.finalSessions().forEach(b::finalSession);
        for (int i = 0; i < h.transactions().size(); i++) {
            Txn t = h.transactions().get(i);
            if (i == ti) {
                List<Op> ops = new ArrayList<>();
                boolean written = false;
                for (Op op : t.ops()) {
                    if (op.key() == key && !op.isRead()) {
                        written = true;
                    }
                    ops.add(op.key() == key && op.isRead() && !written ? Op.read(key, v) : op);
                }
                t = new Txn(t.id(), t.session(), t.committed(), ops);
            }
            b.add(t);
        }
        return b.build();
    }

    /** In h, some write of key other than v's is in the reader's causal past and causally after v's writer. */
    static boolean isStale(History h, int ti, long key, long v) {
        List<Txn> committed = h.transactions().stream().filter(Txn::committed).toList();
        BitSet[] past = NaiveTcc.causalPast(h, committed);
        if (past == null) {
            return false;
        }
        int reader = committed.indexOf(h.transactions().get(ti));
        int writer = v == 0 ? -1 : NaiveTcc.writers(committed).get(key + ":" + v);
        for (int t2 = past[reader].nextSetBit(0); t2 >= 0; t2 = past[reader].nextSetBit(t2 + 1)) {
            if (t2 != writer && NaiveTcc.writtenKeys(committed.get(t2)).contains(key)
                    && (writer < 0 || past[t2].get(writer))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void agreesWithBruteForceOracle() {
        int valid = 0;
        int invalid = 0;
        for (long seed = 1; seed <= 4000; seed++) {
            Random rnd = new Random(seed);
            History h = HistoryGen.arbitraryReads(rnd, 2 + rnd.nextInt(20), 1 + rnd.nextInt(4), 1 + rnd.nextInt(3),
                    rnd.nextInt(3), rnd.nextDouble());
            CheckResult r = TccChecker.check(h);
            boolean expected = NaiveTcc.ok(h);
            assertThat(r.ok()).as("seed %d: oracle says %s, checker %s on %s", seed, expected, r.anomalies(), h)
                    .isEqualTo(expected);
            assertThat(r.counts().keySet()).as("seed %d", seed).isSubsetOf(CAUSAL_KINDS);
            if (expected) {
                valid++;
            } else {
                invalid++;
            }
        }
        assertThat(valid).isGreaterThan(500);
        assertThat(invalid).isGreaterThan(500);
    }

    @Test
    void randomReadReplacementsInSerialHistoriesAgreeWithOracle() {
        Map<Kind, Integer> seen = new java.util.EnumMap<>(Kind.class);
        int invalid = 0;
        for (long seed = 1; seed <= 300; seed++) {
            Random rnd = new Random(seed);
            HistoryGen.Params p = new HistoryGen.Params(30 + rnd.nextInt(150), 2 + rnd.nextInt(6),
                    2 + rnd.nextInt(10), 1 + rnd.nextInt(4), 0.2 + rnd.nextDouble() * 0.6, 0.05,
                    rnd.nextBoolean(), rnd.nextInt(3), 6);
            History h = HistoryGen.serial(rnd, p);
            int mutations = 1 + rnd.nextInt(3);
            for (int i = 0; i < mutations; i++) {
                h = randomReplacement(h, rnd);
            }
            CheckResult r = TccChecker.check(h);
            boolean expected = NaiveTcc.ok(h);
            assertThat(r.ok()).as("seed %d: oracle says %s, checker %s", seed, expected, r.anomalies())
                    .isEqualTo(expected);
            assertThat(r.counts().keySet()).as("seed %d", seed).isSubsetOf(CAUSAL_KINDS);
            r.counts().forEach((k, n) -> seen.merge(k, n, Integer::sum));
            invalid += expected ? 0 : 1;
        }
        assertThat(invalid).isGreaterThan(100);
        assertThat(seen.keySet()).as("%s", seen).contains(Kind.READ_YOUR_WRITES, Kind.MONOTONIC_READS,
                Kind.CAUSAL_VIOLATION, Kind.CAUSAL_CYCLE, Kind.FRACTURED_READ, Kind.NON_CONVERGENCE);
    }

    /** Replaces one external read's value with 0 or another committed transaction's final write of the key. */
    static History randomReplacement(History h, Random rnd) {
        List<Txn> txns = h.transactions();
        for (int attempt = 0; attempt < 50; attempt++) {
            int ti = rnd.nextInt(txns.size());
            Txn t = txns.get(ti);
            List<long[]> ext = NaiveTcc.externalReads(t);
            if (!t.committed() || ext.isEmpty()) {
                continue;
            }
            long key = ext.get(rnd.nextInt(ext.size()))[0];
            List<Long> candidates = new ArrayList<>();
            candidates.add(0L);
            for (Txn w : txns) {
                if (w.committed() && w != t) {
                    for (Op op : w.ops()) {
                        if (!op.isRead() && op.key() == key && isFinalWrite(txns, key, op.value())) {
                            candidates.add(op.value());
                        }
                    }
                }
            }
            return replaceRead(h, ti, key, candidates.get(rnd.nextInt(candidates.size())));
        }
        return h;
    }

    @Test
    void sameSeedGivesSameResult() {
        HistoryGen.Params p = new HistoryGen.Params(500, 5, 20, 4, 0.5, 0.1, true, 2, 10);
        History a = HistoryGen.serial(new Random(42), p);
        History b = HistoryGen.serial(new Random(42), p);
        assertThat(a).isEqualTo(b);
        Set<Long> ids = new HashSet<>();
        a.transactions().forEach(t -> ids.add(t.id()));
        assertThat(ids).hasSize(a.transactions().size());
        assertThat(TccChecker.check(a).counts()).isEqualTo(Map.of());
    }
}
