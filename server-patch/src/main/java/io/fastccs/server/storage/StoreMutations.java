package io.fastccs.server.storage;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many Cassandra mutations this node's protocol stores issued, by protocol and kind, since the node started: what a
 * write transaction costs in records, which no machine changes (docs/design/one-round-writes.md, "A record diet").
 * One set per JVM, as the JMX bean that shows it ({@code io.fastccs:type=Mutations}). At replication factor 3 a
 * mutation is counted once, where the leader issues it, not again where each member applies it.
 */
public final class StoreMutations {
    /** What a mutation records. */
    public enum Kind {
        /** A participant's prepared transaction record. */
        PREPARE,
        /** A transaction record's outcome. */
        OUTCOME,
        /** A coordinator's decision. */
        DECISION,
        /** The deletion of a decision no longer needed. */
        DECISION_DELETE,
        /** A committed version of a key. */
        VERSION,
        /** The deletion of a key's versions that newer ones superseded (garbage collection). */
        VERSION_DELETE,
        /** A key's versions replaced by their fold (commutative operations). */
        VERSION_FOLD,
        /** The partition's snapshot clock, with the range deletion of the transaction records behind it. */
        SNAPSHOT,
        /** A compared protocol's (Eiger, Wren, eventual) row of a written key. */
        COMPARED_WRITE;

        final String word = name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Per protocol word, a counter per kind. */
    private static final Map<String, Map<Kind, LongAdder>> BY_PROTOCOL = new ConcurrentHashMap<>();

    /** One protocol's counters, looked up once by a store, so that counting a mutation is one increment. */
    public static final class Counts {
        private final Map<Kind, LongAdder> byKind;

        private Counts(Map<Kind, LongAdder> byKind) {
            this.byKind = byKind;
        }

        void count(Kind kind) {
            byKind.get(kind).increment();
        }
    }

    private StoreMutations() {
    }

    /** The counters of {@code protocol} (its word: fastccs, eiger...), shared by all its stores in this JVM. */
    static Counts of(String protocol) {
        return new Counts(BY_PROTOCOL.computeIfAbsent(protocol, p -> {
            Map<Kind, LongAdder> counters = new EnumMap<>(Kind.class);
            for (Kind k : Kind.values()) counters.put(k, new LongAdder());
            return counters;
        }));
    }

    /**
     * Totals since the node started, named {@code <protocol>.<kind>} ({@code fastccs.prepare}, {@code eiger.compared_write});
     * kinds never counted are left out.
     */
    public static Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        BY_PROTOCOL.forEach((protocol, counters) -> counters.forEach((kind, n) -> {
            long sum = n.sum();
            if (sum > 0) out.put(protocol + "." + kind.word, sum);
        }));
        return out;
    }
}
