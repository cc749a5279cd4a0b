package io.fastccs.check;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * What the TCC checker cannot see, composed with it: every write has a known outcome, every committed write has a
 * commit order, and the final read of every key returned the newest committed write of that key in the arbitration
 * order of commit orders (so no acknowledged write was lost). The simulator, the test kit's workload and through it the
 * integration tests and the nemesis all verify their recorded transactions here.
 *
 * <p>Typed keys (counters, max registers, sets, top-k) have no newest write: their final reads are typed reads
 * in the final session's transactions, which the TCC checker requires to fold in every committed operation
 * ({@link Verdict#check()}, {@code NON_CONVERGENCE} otherwise). {@link #typedKeysWritten()} lists what they must
 * cover; {@link #keysWritten()} and {@link #verify} are about register keys only.
 *
 * <p>Transactions are added in the order the history should list them. {@code C} is the commit order's type (a vector
 * clock in FastCCS); the checker module knows nothing of it beyond the comparator.
 *
 * @param <C> the commit order of a write, compared by the arbitration order
 */
public final class FinalStateVerifier<C> {
    private final History.Builder history;
    private final Comparator<C> arbitration;
    private final Map<Long, Newest<C>> newestCommitted = new TreeMap<>();
    private final TreeSet<Long> written = new TreeSet<>();
    private final TreeMap<Long, Op.DataType> typedWritten = new TreeMap<>();
    private final List<String> violations = new ArrayList<>();

    private record Newest<C>(String name, C order, long value, boolean acknowledged) {
    }

    public FinalStateVerifier(long finalSession, Comparator<C> arbitration) {
        this.history = History.builder().finalSession(finalSession);
        this.arbitration = arbitration;
    }

    /**
     * One recorded transaction.
     *
     * @param committed    null while the outcome is unknown: a violation for a write, and the write counts as aborted
     * @param commitOrder  a committed write's commit order (null is a violation)
     * @param acknowledged whether the client was told the write committed
     * @param name         how violations name the transaction
     */
    public FinalStateVerifier<C> add(long txnId, long session, boolean write, Boolean committed, List<Op> ops,
                                     C commitOrder, boolean acknowledged, String name) {
        if (write && committed == null) violations.add("write " + name + " has no known outcome");
        boolean isCommitted = Boolean.TRUE.equals(committed);
        history.add(new Txn(txnId, session, isCommitted, ops));
        if (!write) return this;
        for (Op op : ops) {
            if (!op.isTyped()) written.add(op.key());
            else if (!op.isRead()) typedWritten.put(op.key(), op.dataType());
        }
        if (!isCommitted) return this;
        if (commitOrder == null) {
            violations.add("committed write " + name + " without a commit order");
            return this;
        }
        for (Op op : ops) {
            if (op.isTyped()) continue; // typed keys have no newest write
            Newest<C> best = newestCommitted.get(op.key());
            if (best == null || arbitration.compare(best.order(), commitOrder) < 0)
                newestCommitted.put(op.key(), new Newest<>(name, commitOrder, op.value(), acknowledged));
        }
        return this;
    }

    /** Register keys some write (committed or not) wrote, in key order: what the final read must cover. */
    public List<Long> keysWritten() {
        return new ArrayList<>(written);
    }

    /**
     * Typed keys some write transaction (committed or not) operated on, in key order, with their types: what the final
     * session's typed reads must cover (each with the read of its type).
     */
    public Map<Long, Op.DataType> typedKeysWritten() {
        return Collections.unmodifiableMap(new TreeMap<>(typedWritten));
    }

    /**
     * Compares the final read ({@code finalValues}: key to value, a key absent or 0 meaning none) with the newest
     * committed writes, and builds the history for the checker.
     */
    public Verdict verify(Map<Long, Long> finalValues, LongFunction<String> keyName, Function<C, String> describeOrder) {
        List<String> found = new ArrayList<>(violations);
        long lostAcknowledged = 0;
        for (Map.Entry<Long, Newest<C>> e : newestCommitted.entrySet()) {
            long key = e.getKey();
            Newest<C> w = e.getValue();
            long got = finalValues.getOrDefault(key, 0L);
            if (got == w.value()) continue;
            if (w.acknowledged()) lostAcknowledged++;
            found.add("key " + keyName.apply(key) + ": the final read returned " + got + " but the newest committed write is "
                    + w.name() + " (" + describeOrder.apply(w.order()) + ") with " + w.value()
                    + (w.acknowledged() ? ": an acknowledged write was lost" : ""));
        }
        return new Verdict(history.build(), found, lostAcknowledged, written.size() + typedWritten.size());
    }

    /** The history, what the final-state checks found, and (computed once, when asked) the TCC checker's verdict. */
    public static final class Verdict {
        private final History history;
        private final List<String> violations;
        private final long lostAcknowledged;
        private final long keysWritten;
        private CheckResult check;

        Verdict(History history, List<String> violations, long lostAcknowledged, long keysWritten) {
            this.history = history;
            this.violations = List.copyOf(violations);
            this.lostAcknowledged = lostAcknowledged;
            this.keysWritten = keysWritten;
        }

        public History history() {
            return history;
        }

        /** Unknown outcomes, committed writes without an order, final reads that missed the newest write. */
        public List<String> violations() {
            return violations;
        }

        /** Keys whose final read missed a newest committed write the client had been told about. */
        public long lostAcknowledged() {
            return lostAcknowledged;
        }

        /** Register and typed keys written. */
        public long keysWritten() {
            return keysWritten;
        }

        public synchronized CheckResult check() {
            if (check == null) check = TccChecker.check(history);
            return check;
        }
    }
}
