package io.fastccs.protocol.partition;

import io.fastccs.protocol.Bug;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.ClientReply;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.WaitingVersion;
import io.fastccs.protocol.partition.PartitionState.LocalTxn;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.KeyType;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.core.primitives.WriteKind;
import io.fastccs.protocol.typed.TypedFold;

import java.util.ArrayList;
import java.util.List;

/**
 * Both read rounds of algorithm 2. A read changes nothing but counters: it answers from the versions the store holds,
 * at a snapshot that never shows our own entry beyond the settled prefix, whatever the client's clock says.
 */
final class Reads {
    /**
     * Waiting versions listed in one read answer, at most about this many bytes (keys, values and commit clocks): a
     * hot key can have many, each with a whole commit clock. Beyond it the answer says its list is incomplete.
     */
    static final int MAX_WAITING_BYTES = 64 * 1024;

    private final PartitionState state;
    private final PartitionConfig config;
    private final Checks checks;
    private final Stabilization stabilization;
    private final int self;
    private final int n;

    Reads(PartitionState state, Checks checks, Stabilization stabilization) {
        this.state = state;
        this.config = state.config;
        this.checks = checks;
        this.stabilization = stabilization;
        this.self = state.self;
        this.n = state.n;
    }

    /**
     * Round one (algorithm 2, lines 2-10): the newest versions within svc, as the client's clock extends it for this
     * read, answered at the snapshot {@code arrivalSvc} taken at {@code arrivalTime} when the request arrived (null:
     * now). The answer is the one an immediate answer would have been: a version with {@code ct <= svc} at arrival was
     * settled here before the request arrived, so it was in the chain, and GC keeps the newest version within any
     * snapshot for the version retention (pitfall 3). A snapshot older than the retention is not used (the read is
     * answered now).
     */
    void onFirstRoundRead(ClientReply reply, FirstRoundRead r, long[] arrivalSvc, long arrivalTime) {
        ErrorReply error = checks.read(r.requestId(), r.keys(), r.clock());
        if (error != null) {
            state.refuse(reply, error);
            return;
        }
        state.metrics.firstRoundReads++;
        boolean pinned = arrivalSvc != null && (state.time.nowMicros() - arrivalTime < config.versionRetentionMicros()
                || config.has(Bug.PIN_BEYOND_RETENTION));
        long[] base = pinned ? arrivalSvc : state.svc;
        long[] view = clientView(r.clock(), base);
        view[self] = Math.min(view[self], readableFor(r.clock()));
        reply.reply(readAt(r.requestId(), r.keys(), view, view, pinned ? arrivalTime : state.time.nowMicros(), true));
    }

    /**
     * Round two (algorithm 2, lines 11-16): the newest versions with commit clock at most the client's merged clock.
     * The client's own entry for us is capped at what we settled, so no clock can make unsettled data visible.
     */
    void onSecondRoundRead(ClientReply reply, SecondRoundRead r) {
        ErrorReply error = checks.read(r.requestId(), r.keys(), r.clock());
        if (error != null) {
            state.refuse(reply, error);
            return;
        }
        long now = state.time.nowMicros();
        if (now - r.firstRoundTime() > config.versionRetentionMicros()) {
            state.metrics.snapshotsExpired++;
            state.refuse(reply, ErrorReply.of(r.requestId(), ErrorCode.SNAPSHOT_EXPIRED,
                    "round two came " + (now - r.firstRoundTime()) + "us after round one, beyond the version retention of "
                            + config.versionRetentionMicros() + "us; restart the read"));
            return;
        }
        state.metrics.secondRoundReads++;
        long[] view = clientView(r.clock(), state.svc);
        view[self] = Math.min(view[self], readableFor(r.clock()));
        long[] at = r.clock().toArray();
        // Capped at what settled, not at its durable part: the client may have seen more of us than the durable part
        // this partition has heard of (the news comes after the replies resting on it), and the host then holds the
        // answer until what it shows is durable.
        at[self] = Math.min(at[self], state.svc[self]);
        reply.reply(readAt(r.requestId(), r.keys(), at, view, state.time.nowMicros(), false));
    }

    /**
     * How far a read of this client shows our own entry: the durable part of the settled prefix when it covers what the
     * client has already seen of this partition, else the whole prefix, and the host holds that answer until it is
     * durable. Capping below the client's own entry would hide its own writes, or what it saw elsewhere, from it: the
     * news that a prefix is durable reaches the partition a moment after the replies that rest on it have left.
     */
    private long readableFor(VectorClock clientClock) {
        long readable = state.readableSettled();
        if (clientClock.get(self) <= readable || config.has(Bug.READ_BELOW_CLIENT_CLOCK)) return readable;
        return state.svc[self];
    }

    /**
     * The snapshot this client's read may use: svc, with the entries of other partitions raised to the client's clock
     * (the client saw k settle this far, thesis 3.3.3), never our own. For this request only: the thesis merges the
     * client's clock into svc, but then one client claiming a clock beyond anything settled (a broken or hostile
     * one) would make every later reader see transactions here before their other participants settled them
     * (fractured reads), and versions written with a forged clock would become visible to everybody
     * (HostileClockTest).
     */
    private long[] clientView(VectorClock clock, long[] base) {
        long[] view = base.clone();
        if (config.has(Bug.IGNORE_CLIENT_CLOCK)) return view;
        for (int k = 0; k < n; k++) {
            long v = clock.get(k);
            if (v <= view[k]) continue;
            if (k == self) state.metrics.clockAhead++; // never trust a client about our own settled prefix
            else view[k] = v;
        }
        return view;
    }

    /**
     * The newest version of each key with commit clock within {@code at}; the reply reports {@code snapshot}, and lists the
     * newer versions it left out whose sequence numbers are within {@code at}'s own entry, so that the client can tell
     * what a round two at a clock whose entry for us is at most that one would return (docs/design/second-rounds.md,
     * "Waiting versions").
     */
    private ReadReply readAt(long requestId, List<Key> keys, long[] at, long[] snapshot, long serverTime,
                             boolean listWaiting) {
        List<ReadValue> values = new ArrayList<>(keys.size());
        long[] maxCommit = new long[n];
        long maxCommitTime = 0;
        Waiting waiting = new Waiting(listWaiting);
        for (Key key : keys) {
            state.metrics.keysRead++;
            ReadValue value = null;
            if (config.has(Bug.EXPOSE_PENDING)) value = newestPending(key, maxCommit);
            if (value == null) {
                List<Version> versions = state.store.versions(key);
                KeyType type = TypedFold.typeOf(versions);
                if (type != KeyType.REGISTER) {
                    Folded folded = foldAt(key, type, versions, at, maxCommit, waiting);
                    value = folded.value();
                    maxCommitTime = Math.max(maxCommitTime, folded.commitTime());
                } else {
                    Version found = null;
                    for (Version v : versions) {
                        if (!v.commitClock().leq(at)) {
                            waiting.consider(key, v, at[self]);
                            continue;
                        }
                        if (!config.has(Bug.NEWEST_BY_SEQUENCE)) {
                            found = v;
                            break;
                        }
                        if (found == null || v.sequence() > found.sequence()) found = v;
                    }
                    if (found != null) {
                        found.commitClock().maxInto(maxCommit);
                        maxCommitTime = Math.max(maxCommitTime, found.commitTime());
                        value = new ReadValue(key, found.value(), found.sequence());
                    }
                }
            }
            values.add(value != null ? value : new ReadValue(key, null, 0));
        }
        return new ReadReply(requestId, values, VectorClock.of(snapshot), VectorClock.wrap(maxCommit), maxCommitTime,
                serverTime, waiting.list, waiting.complete, stabilization.stableEpoch());
    }

    /** A typed key's value, and the largest commit time among the operations folded into it. */
    private record Folded(ReadValue value, long commitTime) {
    }

    /**
     * A typed key's value at {@code at}: the fold of every operation whose commit clock is within it, and the base that
     * garbage collection folded older ones into (within every snapshot a read may still use: see Collector). The
     * operations left out that are settled here wait in the answer, as versions do, so the client can fold them in
     * at its merged clock (docs/design/commutative-operations.md, "Both rounds fold the same set").
     */
    private Folded foldAt(Key key, KeyType type, List<Version> versions, long[] at, long[] maxCommit, Waiting waiting) {
        RunningFolds.Folded running = config.has(Bug.FOLD_IN_SEQUENCE_ORDER) ? null
                : state.runningFolds.forRead(key, type, versions, at, state.svc);
        TypedFold fold = running != null ? running.fold().copy() : new TypedFold(type);
        long sequence = 0;
        long foldedCommitTime = 0;
        if (running != null) {
            state.metrics.runningFoldReads++;
            for (int i = 0; i < n; i++) maxCommit[i] = Math.max(maxCommit[i], running.maxClock()[i]);
            foldedCommitTime = running.maxTime();
            sequence = running.maxSequence();
            versions = running.outside();
        }
        for (Version v : versions) {
            boolean visible = v.kind() == WriteKind.FOLDED
                    || (config.has(Bug.FOLD_IN_SEQUENCE_ORDER) ? v.sequence() <= at[self] : v.commitClock().leq(at));
            if (!visible) {
                waiting.consider(key, v, at[self]);
                continue;
            }
            fold.add(v);
            v.commitClock().maxInto(maxCommit);
            foldedCommitTime = Math.max(foldedCommitTime, v.commitTime());
            sequence = Math.max(sequence, v.sequence());
        }
        return new Folded(new ReadValue(key, fold.result(), sequence, type), foldedCommitTime);
    }

    /**
     * The versions a read answer lists as waiting: settled here (sequence number within the snapshot's own entry) but
     * left out for another partition's entry of their commit clock. At most about {@link #MAX_WAITING_BYTES}; beyond
     * that the answer says its list is incomplete and the client asks again.
     */
    private final class Waiting {
        List<WaitingVersion> list = List.of();
        boolean complete;
        long bytes;

        Waiting(boolean listing) {
            this.complete = listing;
        }

        void consider(Key key, Version v, long ownEntry) {
            if (!complete || v.sequence() > ownEntry || config.has(Bug.HIDDEN_VERSIONS_UNREPORTED)) return;
            bytes += key.length() + v.value().length + 10L * n + 20;
            if (bytes > MAX_WAITING_BYTES) {
                complete = false; // the client will ask again: no use listing more
                list = List.of();
                return;
            }
            if (list.isEmpty()) list = new ArrayList<>();
            list.add(new WaitingVersion(key, v.value(), v.sequence(), v.commitClock(), v.commitTime(), v.kind()));
        }
    }

    /** The broken variant EXPOSE_PENDING: the newest value a pending transaction writes to {@code key}. */
    private ReadValue newestPending(Key key, long[] maxCommit) {
        LocalTxn newest = null;
        for (LocalTxn t : state.pending.values())
            for (KeyValue kv : t.record.writes())
                if (kv.key().equals(key) && (newest == null || t.sequence() > newest.sequence())) newest = t;
        if (newest == null) return null;
        newest.record.clientClock().with(self, newest.sequence()).maxInto(maxCommit);
        for (KeyValue kv : newest.record.writes())
            if (kv.key().equals(key)) return new ReadValue(key, kv.value(), newest.sequence());
        return null;
    }
}
