package io.fastccs.protocol.partition;

import io.fastccs.core.primitives.Key;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.core.primitives.KeyType;
import io.fastccs.protocol.typed.TypedFold;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounds a read's work on a hot typed key: per key with many operations, the fold of those within the partition's svc
 * when it was last brought up to date (a clock C), and the operations outside it. A read whose clock is at least C
 * (every round one: its clock is svc, raised) folds only those outside, instead of every operation of one retention
 * (docs/design/commutative-operations.md, "A running fold per hot key"). Derived state in memory: built from the
 * store's versions, kept up with every operation installed here, rebuilt after a restart. Protocol thread only.
 */
final class RunningFolds {
    /** A key gets a running fold once a read finds at least this many versions. */
    static final int MIN_VERSIONS = 32;
    /** Operations outside the fold that make the next read bring it up to svc first. */
    private static final int MIGRATE_AT = 16;

    private final int n;
    private final Map<Key, Running> byKey;

    RunningFolds(int n, int maxKeys) {
        this.n = n;
        this.byKey = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Running> eldest) {
                return size() > maxKeys;
            }
        };
    }

    /** What a read folds: the operations it covers, as a fold, and their largest clock, time and sequence number. */
    record Folded(TypedFold fold, long[] maxClock, long maxTime, long maxSequence, List<Version> outside) {
    }

    private static final class Running {
        final long[] at;
        final TypedFold fold;
        final long[] maxClock;
        long maxTime, maxSequence;
        final List<Version> outside = new ArrayList<>();

        Running(long[] at, TypedFold fold, long[] maxClock) {
            this.at = at;
            this.fold = fold;
            this.maxClock = maxClock;
        }
    }

    /**
     * The key's running fold for a read at {@code at} (null when it has none and too few versions, or {@code at} is below
     * its clock): its fold to copy from, and the operations outside it, which the read looks at one by one.
     */
    Folded forRead(Key key, KeyType type, List<Version> versions, long[] at, long[] svc) {
        Running r = byKey.get(key);
        if (r == null) {
            if (versions.size() < MIN_VERSIONS) return null;
            r = new Running(svc.clone(), new TypedFold(type), new long[n]);
            for (Version v : versions) take(r, v, svc);
            byKey.put(key, r);
        } else if (r.outside.size() >= MIGRATE_AT) {
            // Every operation within the old clock is folded, every other one is outside: so after this, the fold holds
            // exactly those within svc (svc only grows, and one installed later is never within an earlier svc).
            List<Version> outside = new ArrayList<>(r.outside);
            r.outside.clear();
            System.arraycopy(svc, 0, r.at, 0, n);
            for (Version v : outside) take(r, v, svc);
        }
        for (int i = 0; i < n; i++) if (r.at[i] > at[i]) return null;
        return new Folded(r.fold, r.maxClock, r.maxTime, r.maxSequence, r.outside);
    }

    private static void take(Running r, Version v, long[] svc) {
        if (!v.commitClock().leq(svc)) {
            r.outside.add(v);
            return;
        }
        r.fold.add(v);
        v.commitClock().maxInto(r.maxClock);
        r.maxTime = Math.max(r.maxTime, v.commitTime());
        r.maxSequence = Math.max(r.maxSequence, v.sequence());
    }

    /** An operation of {@code key} was installed here. */
    void installed(Key key, Version v) {
        Running r = byKey.get(key);
        if (r != null) r.outside.add(v);
    }

    int size() {
        return byKey.size();
    }
}
