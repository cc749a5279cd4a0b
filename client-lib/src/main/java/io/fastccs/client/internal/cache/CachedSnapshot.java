package io.fastccs.client.internal.cache;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * The rule for a cached snapshot (docs/design/client-cache.md, "The rule for a cached snapshot"): entries answer a read
 * of a session with clock C at S = C joined with their commit clocks iff S is within every entry's newestUpTo and no
 * lease ended. Pure: the read path asks it which keys to serve, which to fetch, and which to read again in round two.
 */
public final class CachedSnapshot {
    private CachedSnapshot() {
    }

    /**
     * What a read serves from the cache and what it fetches.
     *
     * @param snapshot the clock the read is at: the session's joined with the served entries' commit clocks; a partial
     *                 hit's round one carries it as the client's clock
     * @param served   the entries served, by key
     * @param misses   the keys to read from their partitions, in the read's order
     */
    public record Choice(VectorClock snapshot, Map<Key, CachedVersion> served, List<Key> misses) {
        public boolean fullHit() {
            return misses.isEmpty();
        }

        public boolean partialHit() {
            return !misses.isEmpty() && !served.isEmpty();
        }

        /** What the session's clock rises by, as a read returning these versions raises it. */
        public VectorClock servedCommitClock(VectorClock sessionClock) {
            return commitClockOf(sessionClock, served.values());
        }

        /** The largest commit time served (0 if none). */
        public long servedCommitTime() {
            long t = 0;
            for (CachedVersion e : served.values()) t = Math.max(t, e.commitTime());
            return t;
        }
    }

    /**
     * Chooses the entries to serve (docs/design/client-cache.md, "Full hits, partial hits, misses"): those whose lease
     * is on, less every one that does not fit the snapshot of the others, less every one on a partition read anyway.
     *
     * @param cached  the cache's entries for some of {@code keys}
     * @param ownerOf the partition owning a key
     */
    public static Choice choose(VectorClock sessionClock, List<Key> keys, Map<Key, CachedVersion> cached,
                                ToIntFunction<Key> ownerOf, long nowNanos) {
        Map<Key, CachedVersion> served = new LinkedHashMap<>();
        for (Key k : keys) {
            CachedVersion e = cached.get(k);
            if (e != null && e.leaseActive(nowNanos)) served.put(k, e);
        }
        VectorClock snapshot = dropNotFitting(sessionClock, served);
        BitSet readAnyway = new BitSet();
        for (Key k : keys) if (!served.containsKey(k)) readAnyway.set(ownerOf.applyAsInt(k));
        if (served.values().removeIf(e -> readAnyway.get(e.partition()))) snapshot = commitClockOf(sessionClock, served.values());
        List<Key> misses = new ArrayList<>();
        for (Key k : keys) if (!served.containsKey(k)) misses.add(k);
        return new Choice(snapshot, served, misses);
    }

    /** Drops entries until the rest fit their snapshot; returns it. Dropping only lowers it, so the rest keep fitting. */
    private static VectorClock dropNotFitting(VectorClock sessionClock, Map<Key, CachedVersion> entries) {
        while (true) {
            VectorClock snapshot = commitClockOf(sessionClock, entries.values());
            if (!entries.values().removeIf(e -> !snapshot.leq(e.newestUpTo()))) return snapshot;
        }
    }

    /** {@code base} joined with every entry's commit clock. */
    static VectorClock commitClockOf(VectorClock base, Collection<CachedVersion> entries) {
        VectorClock c = base;
        for (CachedVersion e : entries) c = c.max(e.commitClock());
        return c;
    }

    /**
     * Served and fetched entries after round one, checked together at their merged clock as algorithm 1 checks its
     * partitions (docs/design/client-cache.md, "Full hits, partial hits, misses").
     *
     * @param merged      the session's clock joined with every entry's commit clock: the clock of round two
     * @param fitting     the entries that are the newest of their keys at {@code merged}
     * @param readAgain   the keys to read at {@code merged} in round two, by partition, with the round one time to echo
     */
    public record Combined(VectorClock merged, Map<Key, CachedVersion> fitting, Map<Integer, RoundTwo> readAgain) {
        public boolean done() {
            return readAgain.isEmpty();
        }
    }

    /**
     * A round two to one partition.
     *
     * @param firstRoundTime the oldest round one time among its keys' entries: the partition's retention check is then
     *                       at least as strict for each of them
     */
    public record RoundTwo(List<Key> keys, long firstRoundTime) {
    }

    public static Combined combine(VectorClock sessionClock, Collection<CachedVersion> served,
                                   Collection<CachedVersion> fetched) {
        List<CachedVersion> all = new ArrayList<>(served);
        all.addAll(fetched);
        VectorClock merged = commitClockOf(sessionClock, all);
        Map<Key, CachedVersion> fitting = new LinkedHashMap<>();
        Map<Integer, List<CachedVersion>> again = new TreeMap<>();
        for (CachedVersion e : all) {
            if (e.newestAt(merged)) fitting.put(e.key(), e);
            else again.computeIfAbsent(e.partition(), p -> new ArrayList<>()).add(e);
        }
        Map<Integer, RoundTwo> readAgain = new TreeMap<>();
        again.forEach((p, entries) -> {
            List<Key> keys = new ArrayList<>();
            long oldest = Long.MAX_VALUE;
            for (CachedVersion e : entries) {
                keys.add(e.key());
                oldest = Math.min(oldest, e.partitionTime());
            }
            readAgain.put(p, new RoundTwo(keys, oldest));
        });
        return new Combined(merged, fitting, readAgain);
    }
}
