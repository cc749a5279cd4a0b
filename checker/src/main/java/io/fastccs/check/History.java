package io.fastccs.check;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A recorded history: transactions in the order they were added, plus the set of "final" sessions.
 *
 * <p>Session order is the order of a session's transactions in {@link #transactions()}. Final
 * sessions are the ones whose transactions ran after the workload quiesced (convergence reads):
 * the checker treats them as causally after every committed transaction of the other sessions.
 */
public final class History {

    private final List<Txn> transactions;
    private final Set<Long> finalSessions;

    private History(List<Txn> transactions, Set<Long> finalSessions) {
        this.transactions = Collections.unmodifiableList(new ArrayList<>(transactions));
        this.finalSessions = Collections.unmodifiableSet(new LinkedHashSet<>(finalSessions));
    }

    /** A new, empty builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** All transactions (committed and aborted) in the order they were added. */
    public List<Txn> transactions() {
        return transactions;
    }

    /** Sessions whose transactions run after the workload quiesced. */
    public Set<Long> finalSessions() {
        return finalSessions;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof History h
                && transactions.equals(h.transactions)
                && finalSessions.equals(h.finalSessions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(transactions, finalSessions);
    }

    @Override
    public String toString() {
        return "History" + transactions + (finalSessions.isEmpty() ? "" : " final=" + finalSessions);
    }

    /** Builds a {@link History}. Transaction ids must be unique. */
    public static final class Builder {
        private final List<Txn> txns = new ArrayList<>();
        private final Set<Long> ids = new HashSet<>();
        private final Set<Long> finals = new LinkedHashSet<>();

        private Builder() {
        }

        /**
         * Appends a transaction (after all earlier ones of its session).
         *
         * @throws IllegalArgumentException if its id was already used
         */
        public Builder add(Txn t) {
            Objects.requireNonNull(t, "t");
            if (!ids.add(t.id())) {
                throw new IllegalArgumentException("duplicate transaction id " + t.id());
            }
            txns.add(t);
            return this;
        }

        /** Appends a committed transaction. */
        public Builder committed(long txnId, long session, Op... ops) {
            return add(new Txn(txnId, session, true, List.of(ops)));
        }

        /** Appends an aborted transaction. */
        public Builder aborted(long txnId, long session, Op... ops) {
            return add(new Txn(txnId, session, false, List.of(ops)));
        }

        /** Marks {@code session} as final (it ran after the workload quiesced). */
        public Builder finalSession(long session) {
            finals.add(session);
            return this;
        }

        /** The history built so far. */
        public History build() {
            return new History(txns, finals);
        }
    }
}
