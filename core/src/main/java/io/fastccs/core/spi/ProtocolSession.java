package io.fastccs.core.spi;

import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.WriteKind;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * One client session of a protocol: its causal context (opaque to the host: a vector clock, a dependency set, a stable
 * time and a write cache) and the transactions it starts, one at a time.
 */
public interface ProtocolSession {
    long clientId();

    /**
     * What the session has seen, as a causal token carries it; empty unless the protocol has
     * {@link Capability#CAUSAL_TOKENS}.
     */
    default Optional<CausalContext> causalContext() {
        return Optional.empty();
    }

    /**
     * Raises the causal context by versions the host served the session itself, as a read returning them would (their
     * commit clocks joined and their largest commit time): a client cache's answer (docs/design/client-cache.md).
     *
     * @throws UnsupportedOperationException unless the protocol has {@link Capability#CAUSAL_TOKENS}
     */
    default void observe(CausalContext served) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no vector-clock context to raise");
    }

    /** A read-only transaction over distinct {@code keys}. */
    ReadStep read(Collection<Key> keys);

    /**
     * A read-only transaction over distinct {@code keys} of which a client cache answers some ({@code cached}: one
     * answer per key, on partitions holding no other of the keys; docs/design/client-cache.md). A protocol without
     * {@link Capability#CAUSAL_TOKENS} reads every key.
     */
    default ReadStep read(Collection<Key> keys, List<PartitionAnswer> cached) {
        return read(keys);
    }

    /** A write-only transaction; {@code random} makes the protocol's random choices (the coordinator). */
    WriteStep write(Map<Key, byte[]> writes, RandomGenerator random);

    /**
     * A write-only transaction of puts and commutative operations ({@link WriteKind}), one per key. Protocols without
     * commutative operations take puts only.
     *
     * @throws UnsupportedOperationException for a commutative operation when the protocol has none
     */
    default WriteStep write(List<KeyValue> operations, RandomGenerator random) {
        Map<Key, byte[]> puts = new LinkedHashMap<>();
        for (KeyValue kv : operations) {
            if (kv.kind() != WriteKind.PUT)
                throw new UnsupportedOperationException(getClass().getSimpleName() + " has no commutative operations ("
                        + kv.kind() + " on " + kv.key() + ")");
            if (puts.put(kv.key(), kv.value()) != null) throw new IllegalArgumentException("key " + kv.key() + " written twice");
        }
        return write(puts, random);
    }
}
