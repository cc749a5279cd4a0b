package io.fastccs.core.spi;

import io.fastccs.core.primitives.VectorClock;

import java.util.Objects;

/**
 * What a session has seen, as a causal token carries it from one session to another ({@link Capability#CAUSAL_TOKENS}):
 * a vector clock with an entry per partition and the largest commit time among what it saw.
 */
public record CausalContext(VectorClock clock, long commitTime) {
    public CausalContext {
        Objects.requireNonNull(clock, "clock");
        if (commitTime < 0) throw new IllegalArgumentException("commitTime " + commitTime + " < 0");
    }
}
