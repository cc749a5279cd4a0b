package io.fastccs.protocol.spi;

import io.fastccs.protocol.primitives.Key;

import java.util.Collection;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * One client session of a protocol: its causal context (opaque to the host: a vector clock, a dependency set, a stable
 * time and a write cache) and the transactions it starts, one at a time.
 */
public interface ProtocolSession {
    long clientId();

    /** A read-only transaction over distinct {@code keys}. */
    ReadStep read(Collection<Key> keys);

    /** A write-only transaction; {@code random} makes the protocol's random choices (the coordinator). */
    WriteStep write(Map<Key, byte[]> writes, RandomGenerator random);
}
