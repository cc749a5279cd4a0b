package io.fastccs.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Seeded serial histories with typed keys: they must pass, and one corrupted read in them must not. */
class TypedRandomizedTest {

    @Test
    void serialTypedHistoriesPassAndCorruptedReadsAreCaught() {
        checkGeneratedHistories(false);
    }

    @Test
    void causalTypedHistoriesPassAndCorruptedReadsAreCaught() {
        checkGeneratedHistories(true);
    }

    private static void checkGeneratedHistories(boolean causal) {
        int corrupted = 0;
        Set<String> how = new HashSet<>();
        for (long seed = 1; seed <= 300; seed++) {
            Random rnd = new Random(seed);
            int txns = 20 + rnd.nextInt(150);
            int sessions = 1 + rnd.nextInt(6);
            int finals = rnd.nextInt(3);
            History h = causal ? TypedHistoryGen.causal(rnd, txns, sessions, finals, 0.1)
                    : TypedHistoryGen.serial(rnd, txns, sessions, finals, 0.1);
            CheckResult clean = TccChecker.check(h);
            assertThat(clean.ok()).as("seed %d: %s in %s", seed, clean.anomalies(), h).isTrue();

            Corruption c = corrupt(h, rnd);
            if (c == null) {
                continue;
            }
            corrupted++;
            how.add(c.how);
            CheckResult bad = TccChecker.check(c.history);
            assertThat(bad.ok()).as("seed %d: %s not caught", seed, c).isFalse();
            assertThat(bad.anomalies()).as("seed %d: %s", seed, c)
                    .anySatisfy(a -> assertThat(a.txnIds()).contains(c.txnId));
        }
        assertThat(corrupted).isGreaterThan(250);
        assertThat(how).as("corruptions tried").hasSize(9);
    }

    /** One read replaced: {@code how} names the kind of corruption. */
    record Corruption(History history, long txnId, String how, Op before, Op after) {
    }

    /**
     * Replaces the value of one external typed read (the first read of its key in a committed transaction) with a
     * value no TCC execution can give: one folding in something that does not exist, an impossible list, or one
     * missing an operation that the reader's own session did earlier (and that no remove can explain).
     */
    static Corruption corrupt(History h, Random rnd) {
        List<Txn> txns = h.transactions();
        for (int attempt = 0; attempt < 100; attempt++) {
            int ti = rnd.nextInt(txns.size());
            Txn t = txns.get(ti);
            List<Integer> external = externalTypedReads(t);
            if (!t.committed() || external.isEmpty()) {
                continue;
            }
            int j = external.get(rnd.nextInt(external.size()));
            Op read = t.ops().get(j);
            List<Op> earlier = sessionUpdatesBefore(txns, ti, read.key());
            List<Op> options = new ArrayList<>();
            List<String> names = new ArrayList<>();
            switch (read.kind()) {
                case READ_COUNTER -> {
                    if (read.key() == TypedHistoryGen.BOUNDED) {
                        options.add(Op.readCounter(read.key(), read.value() + 1_000_000));
                        names.add("counter beyond every add");
                    } else {
                        options.add(Op.readCounter(read.key(), read.value() | 1L << 50));
                        names.add("counter with a bit nobody adds");
                        for (Op o : earlier) {
                            if ((read.value() & o.value()) != 0) {
                                options.add(Op.readCounter(read.key(), read.value() & ~o.value()));
                                names.add("counter missing its session's add");
                            }
                        }
                    }
                }
                case READ_MAX -> {
                    options.add(Op.readMax(read.key(), 5000 + rnd.nextInt(1000)));
                    names.add("max nobody wrote");
                    if (!earlier.isEmpty()) {
                        options.add(Op.readMax(read.key(), 0));
                        names.add("max missing its session's write");
                    }
                }
                case READ_SET -> {
                    options.add(Op.readSet(read.key(), with(read.elements(), 999_999)));
                    names.add("set with an element nobody added");
                    for (Op o : earlier) {
                        if (o.kind() == Op.Kind.SET_ADD && read.hasElement(o.value()) && !removed(txns, o)) {
                            options.add(Op.readSet(read.key(), without(read.elements(), o.value())));
                            names.add("set missing its session's add");
                        }
                    }
                }
                case READ_TOPK -> {
                    options.add(Op.readTopk(read.key(), read.k(), new long[] {999}, new long[] {1000}));
                    names.add("top-k with a pair nobody inserted");
                    if (read.size() >= 2 && read.scoreAt(0) != read.scoreAt(1)) {
                        long[] items = read.items();
                        long[] scores = read.scores();
                        swap(items);
                        swap(scores);
                        options.add(Op.readTopk(read.key(), read.k(), items, scores));
                        names.add("top-k out of order");
                    }
                }
                default -> throw new IllegalStateException();
            }
            int pick = rnd.nextInt(options.size());
            List<Op> ops = new ArrayList<>(t.ops());
            ops.set(j, options.get(pick));
            History.Builder b = History.builder();
            for (int x = 0; x < txns.size(); x++) {
                b.add(x == ti ? new Txn(t.id(), t.session(), true, ops) : txns.get(x));
            }
            h.finalSessions().forEach(b::finalSession);
            return new Corruption(b.build(), t.id(), names.get(pick), read, options.get(pick));
        }
        return null;
    }

    /** Positions of the first read of each typed key in {@code t}. */
    static List<Integer> externalTypedReads(Txn t) {
        Set<Long> seen = new HashSet<>();
        List<Integer> out = new ArrayList<>();
        for (int j = 0; j < t.ops().size(); j++) {
            Op op = t.ops().get(j);
            if (op.isTyped() && op.isRead() && seen.add(op.key())) {
                out.add(j);
            }
        }
        return out;
    }

    /** Updates of {@code key} by committed transactions of the session of {@code txns[ti]} before it. */
    static List<Op> sessionUpdatesBefore(List<Txn> txns, int ti, long key) {
        List<Op> out = new ArrayList<>();
        for (int x = 0; x < ti; x++) {
            Txn w = txns.get(x);
            if (w.committed() && w.session() == txns.get(ti).session()) {
                for (Op op : w.ops()) {
                    if (op.key() == key && !op.isRead()) {
                        out.add(op);
                    }
                }
            }
        }
        return out;
    }

    static boolean removed(List<Txn> txns, Op add) {
        for (Txn t : txns) {
            for (Op op : t.ops()) {
                if (op.kind() == Op.Kind.SET_REMOVE && op.key() == add.key() && op.value() == add.value()) {
                    return true;
                }
            }
        }
        return false;
    }

    static long[] with(long[] elements, long e) {
        long[] out = java.util.Arrays.copyOf(elements, elements.length + 1);
        out[elements.length] = e;
        return out;
    }

    static long[] without(long[] elements, long e) {
        return java.util.Arrays.stream(elements).filter(x -> x != e).toArray();
    }

    static void swap(long[] a) {
        long t = a[0];
        a[0] = a[1];
        a[1] = t;
    }
}
