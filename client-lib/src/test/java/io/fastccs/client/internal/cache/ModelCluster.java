package io.fastccs.client.internal.cache;

import io.fastccs.check.History;
import io.fastccs.check.Op;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Partitions as a read sees them, reduced to what the cache's rule rests on: every write settles at once everywhere,
 * a round one answers the newest version of each key within the partitions' clock (raised by the client's), a round
 * two the newest within the clock it is given. Versions of a key are in commit order, which extends causality here
 * since everything runs one step at a time. Records what it served as a history for the TCC checker.
 */
final class ModelCluster {
    /** A version of a key: its writer's id (the value the checker sees), commit clock and commit time. */
    record Version(long writer, VectorClock commitClock, long commitTime) {
    }

    final int partitions;
    private final long[] sequences;
    private VectorClock settled;
    private final Map<Key, List<Version>> versions = new HashMap<>();
    private final History.Builder history = History.builder();
    private long nextTxnId = 1;
    private long commitTime;

    ModelCluster(int partitions) {
        this.partitions = partitions;
        this.sequences = new long[partitions];
        this.settled = VectorClock.zero(partitions);
    }

    static Key key(long k) {
        return Key.of("k" + k);
    }

    static long keyNumber(Key k) {
        return Long.parseLong(new String(k.toBytes(), StandardCharsets.UTF_8).substring(1));
    }

    int ownerOf(Key k) {
        return (int) (keyNumber(k) % partitions);
    }

    /** A write-only transaction of {@code session}; returns its commit clock (the session's clock rises to it). */
    VectorClock write(long session, VectorClock sessionClock, List<Long> keys) {
        long txn = nextTxnId++;
        VectorClock ct = sessionClock;
        for (long k : keys) {
            int p = ownerOf(key(k));
            if (ct.get(p) <= sessionClock.get(p)) ct = ct.with(p, ++sequences[p]);
        }
        commitTime++;
        List<Op> ops = new ArrayList<>();
        for (long k : keys) {
            versions.computeIfAbsent(key(k), x -> new ArrayList<>()).add(new Version(txn, ct, commitTime));
            ops.add(Op.write(k, txn));
        }
        settled = settled.max(ct);
        history.committed(txn, session, ops.toArray(Op[]::new));
        return ct;
    }

    /** One partition's answer, as the cache enters it. */
    List<CachedVersion> roundOne(List<Key> keys, VectorClock clientClock, long now) {
        return answer(keys, settled.max(clientClock), null, now);
    }

    /** A round two at {@code clock}; {@code firstRoundTime} as the request echoes it. */
    List<CachedVersion> roundTwo(List<Key> keys, VectorClock clock, long firstRoundTime) {
        return answer(keys, clock, clock, firstRoundTime);
    }

    private List<CachedVersion> answer(List<Key> keys, VectorClock snapshot, VectorClock at, long partitionTime) {
        VectorClock readAt = at != null ? at : snapshot;
        List<Version> found = new ArrayList<>();
        VectorClock ctm = VectorClock.zero(partitions);
        long maxTime = 0;
        for (Key k : keys) {
            Version v = newestWithin(k, readAt);
            found.add(v);
            if (v != null) {
                ctm = ctm.max(v.commitClock());
                maxTime = Math.max(maxTime, v.commitTime());
            }
        }
        List<CachedVersion> out = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            Version v = found.get(i);
            ReadValue value = new ReadValue(keys.get(i), v == null ? null : Long.toString(v.writer()).getBytes(StandardCharsets.UTF_8),
                    v == null ? 0 : v.commitClock().get(ownerOf(keys.get(i))));
            out.add(new CachedVersion(value, ownerOf(keys.get(i)), ctm, maxTime, readAt, partitionTime, 0, Long.MAX_VALUE));
        }
        return out;
    }

    private Version newestWithin(Key k, VectorClock clock) {
        List<Version> vs = versions.getOrDefault(k, List.of());
        for (int i = vs.size() - 1; i >= 0; i--) if (vs.get(i).commitClock().leq(clock)) return vs.get(i);
        return null;
    }

    /** Records a read-only transaction of {@code session} that returned {@code values}, in the read's order. */
    void recordRead(long session, List<Key> keys, Map<Key, ReadValue> values) {
        List<Op> ops = new ArrayList<>();
        for (Key k : keys) {
            ReadValue v = values.get(k);
            ops.add(Op.read(keyNumber(k), v == null || v.value() == null ? 0
                    : Long.parseLong(new String(v.value(), StandardCharsets.UTF_8))));
        }
        history.committed(nextTxnId++, session, ops.toArray(Op[]::new));
    }

    History history() {
        return history.build();
    }
}
