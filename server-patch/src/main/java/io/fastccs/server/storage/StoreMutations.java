package io.fastccs.server.storage;

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

    private static final Map<String, LongAdder> COUNTS = new ConcurrentHashMap<>();

    private StoreMutations() {
    }

    static void count(String protocol, Kind kind) {
        COUNTS.computeIfAbsent(protocol + "." + kind.word, k -> new LongAdder()).increment();
    }

    /** Totals since the node started, named {@code <protocol>.<kind>} ({@code fastccs.prepare}, {@code eiger.compared_write}). */
    public static Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        COUNTS.forEach((name, n) -> out.put(name, n.sum()));
        return out;
    }
}
