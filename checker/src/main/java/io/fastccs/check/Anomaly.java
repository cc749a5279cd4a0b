package io.fastccs.check;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One consistency anomaly found by {@link TccChecker}.
 *
 * @param kind        what rule was broken
 * @param description human-readable explanation naming the transactions and values involved
 * @param txnIds      ids of the transactions involved (for cycles: the transactions on one cycle)
 * @param key         the key involved, if any
 */
public record Anomaly(Kind kind, String description, List<Long> txnIds, OptionalLong key) {

    /** Anomaly kinds; see the package documentation for exact definitions. */
    public enum Kind {
        /** A read returned a value that no transaction wrote. */
        THIN_AIR_READ,
        /** A committed transaction read a value written only by an aborted transaction. */
        ABORTED_READ,
        /** The same value was written twice to one key (malformed input: reads become ambiguous). */
        DUPLICATE_WRITE,
        /** After writing a key, a transaction read something other than its own last write. */
        NOT_MY_OWN_WRITE,
        /** A transaction read a value that it writes only later. */
        FUTURE_READ,
        /** A transaction read a non-final write of another transaction. */
        INTERMEDIATE_READ,
        /** Two reads of a key in one transaction, with no write between them, disagree. */
        NON_REPEATABLE_READ,
        /** A transaction saw only part of another transaction's writes. */
        FRACTURED_READ,
        /** A session did not see its own earlier write. */
        READ_YOUR_WRITES,
        /** A session read a value older than one it had already seen. */
        MONOTONIC_READS,
        /** A read returned a value overwritten in its causal past, or the commit order cannot be made consistent. */
        CAUSAL_VIOLATION,
        /** Session order and reads-from form a cycle (a transaction is causally before itself). */
        CAUSAL_CYCLE,
        /** Reads after the workload quiesced disagree or return values that a causally later write overwrote. */
        NON_CONVERGENCE,
        /**
         * A typed read returned a value that no set of operations, each applied once, folds to: a counter sum
         * that no subset of the adds gives (an add counted twice), a top-k list out of order, with an item twice
         * or longer than k.
         */
        DOUBLE_COUNTED,
        /** A key is used with two data types (malformed input): its operations are not checked. */
        MIXED_TYPES
    }

    public Anomaly {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(description, "description");
        txnIds = List.copyOf(txnIds);
        Objects.requireNonNull(key, "key");
    }

    @Override
    public String toString() {
        return kind + (key.isPresent() ? " key=" + key.getAsLong() : "") + " txns=" + txnIds + ": " + description;
    }
}
