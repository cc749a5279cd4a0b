package io.fastccs.core.spi;

/**
 * What a protocol offers beyond reads and puts. Hosts and clients ask a {@link ProtocolFactory} for these instead of
 * naming a protocol, so that a protocol added later is hosted by what it can do.
 */
public enum Capability {
    /**
     * Every history is transactionally causally consistent: reads see atomic, causally consistent snapshots. A protocol
     * without it (eventual consistency) may show anomalies, and the history checker's finding them is no failure.
     */
    CAUSAL_CONSISTENCY,
    /**
     * A session's causal context can leave it as a token ({@link ProtocolSession#causalContext()}) and a new session can
     * continue from one ({@link ProtocolFactory#resume}).
     */
    CAUSAL_TOKENS,
    /** Writes may carry commutative operations besides puts ({@link io.fastccs.core.primitives.WriteKind}). */
    COMMUTATIVE_OPERATIONS,
    /**
     * A partition keeps what it accepted in a store its host gives it and recovers from that store after a crash; a
     * protocol without it keeps its partitions' state in memory, and a crash loses it.
     */
    CRASH_RECOVERY,
    /** A partition may run as a replica group under consensus (a replication factor above 1). */
    REPLICATION
}
