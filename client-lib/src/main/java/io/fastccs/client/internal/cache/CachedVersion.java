package io.fastccs.client.internal.cache;

import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;

/**
 * One key's version as a read returned it, with what makes it usable later.
 * See docs/design/client-cache.md, "What an entry holds".
 *
 * @param value          the value as read (bytes, sequence, type)
 * @param partition      the partition owning the key
 * @param commitClock    at least the version's commit clock: the answer's maximum over its keys
 * @param commitTime     at least the version's commit time
 * @param newestUpTo     the clock up to which this version was the newest of its key (the clock it was read at)
 * @param partitionTime  the partition's time of the round one the answer rests on, echoed by a round two
 * @param fetchedAtNanos when the client received it, on the cache's clock
 * @param leaseEndNanos  from when it is no longer served
 */
public record CachedVersion(ReadValue value, int partition, VectorClock commitClock, long commitTime,
                            VectorClock newestUpTo, long partitionTime, long fetchedAtNanos, long leaseEndNanos) {
    /** What an entry costs besides its key and value: two clocks of 8-byte entries and the fields. */
    private static final int FIXED_BYTES = 96;

    public CachedVersion {
        if (!commitClock.leq(newestUpTo))
            throw new IllegalArgumentException("commit clock " + commitClock + " beyond the clock it was read at " + newestUpTo);
    }

    /**
     * The clock a round two at {@code merged} read a key at, as far as the client knows: {@code merged}, with the
     * partition's own entry no higher than its round one snapshot's (the partition caps it at what it settled).
     */
    public static VectorClock readAtInRoundTwo(VectorClock merged, VectorClock roundOneSnapshot, int partition) {
        return merged.with(partition, Math.min(merged.get(partition), roundOneSnapshot.get(partition)));
    }

    public Key key() {
        return value.key();
    }

    /** What the cache counts against its byte bound. */
    public long bytes() {
        byte[] v = value.value();
        return key().length() + (v == null ? 0 : v.length) + FIXED_BYTES + 16L * commitClock.size();
    }

    public boolean leaseActive(long nowNanos) {
        return nowNanos < leaseEndNanos;
    }

    /** Whether this version is still the newest of its key at {@code snapshot}, given its commit clock is within it. */
    public boolean newestAt(VectorClock snapshot) {
        return commitClock.leq(snapshot) && snapshot.leq(newestUpTo);
    }
}
