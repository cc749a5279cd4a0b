package io.fastccs.client.internal.cache;

import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A client's reads over a {@link ModelCluster} through a {@link ClientCache}, as the read path runs them
 * (docs/design/client-cache.md, "Full hits, partial hits, misses"), or through one of the broken rules a checked
 * history must give away.
 */
final class ModelReader {
    enum Rule {
        /** {@link CachedSnapshot}'s. */
        AS_DESIGNED,
        /** Serves every entry whose lease is on, also past the clock it was known to be newest up to. */
        PAST_NEWEST_UP_TO,
        /** Chooses the snapshot without the session's clock: it may be older than the session's past. */
        OLDER_THAN_SESSION_PAST,
        /** Fetches a partial hit's misses at the partitions' snapshot and combines them with the served keys unchecked. */
        PARTIAL_FROM_OTHER_SNAPSHOT
    }

    /** What one read returned, and the rounds it took. */
    record Read(Map<Key, ReadValue> values, int rounds) {
    }

    private final ModelCluster cluster;
    private final ClientCache cache;
    private final Rule rule;
    private final Map<Long, VectorClock> sessionClocks = new HashMap<>();

    ModelReader(ModelCluster cluster, ClientCache cache, Rule rule) {
        this.cluster = cluster;
        this.cache = cache;
        this.rule = rule;
    }

    VectorClock clockOf(long session) {
        return sessionClocks.computeIfAbsent(session, s -> VectorClock.zero(cluster.partitions));
    }

    void write(long session, List<Long> keys) {
        sessionClocks.put(session, cluster.write(session, clockOf(session), keys));
    }

    Read read(long session, List<Key> keys) {
        VectorClock clock = clockOf(session);
        long now = cache.nowNanos();
        CachedSnapshot.Choice choice = choose(clock, keys, cache.lookup(keys), now);
        cache.recordServed(choice, now);
        Map<Key, CachedVersion> result = new HashMap<>(choice.served());
        int rounds = 0;
        if (!choice.fullHit()) {
            rounds = 1;
            VectorClock clientClock = rule == Rule.PARTIAL_FROM_OTHER_SNAPSHOT ? clock : choice.snapshot();
            List<CachedVersion> fetched = new ArrayList<>();
            byPartition(choice.misses()).forEach((p, ks) -> fetched.addAll(enter(cluster.roundOne(ks, clientClock, now))));
            if (rule == Rule.PARTIAL_FROM_OTHER_SNAPSHOT) {
                for (CachedVersion e : fetched) result.put(e.key(), e);
            } else {
                CachedSnapshot.Combined combined = CachedSnapshot.combine(clock, choice.served().values(), fetched);
                result.putAll(combined.fitting());
                if (!combined.done()) rounds = 2;
                for (CachedSnapshot.RoundTwo r : combined.readAgain().values())
                    for (CachedVersion e : enter(cluster.roundTwo(r.keys(), combined.merged(), r.firstRoundTime())))
                        result.put(e.key(), e);
            }
        }
        Map<Key, ReadValue> values = new LinkedHashMap<>();
        for (Key k : keys) {
            values.put(k, result.get(k).value());
            clock = clock.max(result.get(k).commitClock());
        }
        sessionClocks.put(session, clock);
        cluster.recordRead(session, keys, values);
        return new Read(values, rounds);
    }

    private CachedSnapshot.Choice choose(VectorClock clock, List<Key> keys, Map<Key, CachedVersion> found, long now) {
        switch (rule) {
            case PAST_NEWEST_UP_TO: {
                Map<Key, CachedVersion> served = new LinkedHashMap<>(found);
                List<Key> misses = new ArrayList<>();
                for (Key k : keys) if (!served.containsKey(k)) misses.add(k);
                return new CachedSnapshot.Choice(CachedSnapshot.commitClockOf(clock, served.values()), served, misses);
            }
            case OLDER_THAN_SESSION_PAST:
                return CachedSnapshot.choose(VectorClock.zero(cluster.partitions), keys, found, cluster::ownerOf, now);
            default:
                return CachedSnapshot.choose(clock, keys, found, cluster::ownerOf, now);
        }
    }

    private Map<Integer, List<Key>> byPartition(Collection<Key> keys) {
        Map<Integer, List<Key>> out = new TreeMap<>();
        for (Key k : keys) out.computeIfAbsent(cluster.ownerOf(k), p -> new ArrayList<>()).add(k);
        return out;
    }

    /** Enters an answer in the cache, as the read path does with every answer. */
    private List<CachedVersion> enter(List<CachedVersion> answer) {
        for (CachedVersion e : answer)
            cache.put(e.value(), e.partition(), e.commitClock(), e.commitTime(), e.newestUpTo(), e.partitionTime());
        return answer;
    }
}
