package io.fastccs.protocol.partition;

import io.fastccs.protocol.Bug;
import io.fastccs.protocol.ClockCompaction;
import io.fastccs.protocol.PartitionConfig;
import io.fastccs.protocol.RequestChecks;
import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.protocol.api.ClientReply;
import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.protocol.api.PartitionStore.Decision;
import io.fastccs.protocol.api.PartitionStore.TxnRecord;
import io.fastccs.protocol.api.PeerSink;
import io.fastccs.protocol.api.TimeSource;
import io.fastccs.protocol.api.Topology;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.protocol.messages.ClientRequest;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.protocol.messages.ErrorCode;
import io.fastccs.protocol.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.KeyValue;
import io.fastccs.protocol.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.messages.PeerMessage;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.Refused;
import io.fastccs.protocol.primitives.KeyType;
import io.fastccs.protocol.typed.Operands;
import io.fastccs.protocol.typed.TypedFold;
import io.fastccs.protocol.primitives.WriteKind;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.protocol.messages.ReadValue;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.BasedClock;
import io.fastccs.protocol.messages.CompactCommit;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.Rebase;
import io.fastccs.protocol.messages.Settled;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.StabilizeDown;
import io.fastccs.protocol.messages.StabilizeUp;
import io.fastccs.protocol.messages.WaitingVersion;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One FastCCS partition (algorithm 2 of the thesis, with stabilization, GC and the fault handling of section 3.8).
 *
 * <p>The central invariant: {@code svc[self] >= x} promises that every sequence number {@code <= x} of this
 * partition is settled (committed or aborted). {@code svc[self]} therefore advances only over a contiguous prefix
 * of settled sequence numbers, aborted ones included, and no reply, stabilization message or read ever reveals a
 * commit clock whose own entry is beyond that prefix.
 *
 * <p>Not thread-safe: the host calls every method from one thread (or under one lock). Time, messaging and storage
 * come in through the {@code api} interfaces, so the simulator and a Cassandra node run the same code.
 */
public final class Partition {
    private final int self;
    private final int n;
    private final PartitionConfig config;
    private final Topology topology;
    private final RequestChecks checks;
    private final PartitionStore store;
    private final PeerSink peers;
    private final TimeSource time;
    private final PartitionMetrics metrics = new PartitionMetrics();

    private long lastSequence;
    /** The time of our last commit decision: our hybrid clock never goes back while we run. */
    private long lastCommitTime;
    /** The durable part of {@code svc[self]}, when the host tracks it; MAX_VALUE when it does not. */
    private long durableSettled = Long.MAX_VALUE;
    /** The snapshot vector clock; {@code svc[self]} is the settled prefix of our own sequence numbers. */
    private final long[] svc;
    /**
     * What each partition told us it settled, from stabilization only. Unlike svc, never raised by a client
     * clock: forgetting a commit decision must not rest on what clients claim.
     */
    private final long[] peerSettled;
    /** Our transactions with a sequence number above {@code svc[self]}, by sequence number. */
    private final TreeMap<Long, LocalTxn> unsettled = new TreeMap<>();
    /** Our transactions whose outcome is not known yet. */
    private final Map<TxnId, LocalTxn> pending = new LinkedHashMap<>();
    /** Settled transactions, remembered so a duplicated write request is answered instead of prepared twice. */
    private final Map<TxnId, Remembered> recentlySettled = new LinkedHashMap<>();
    /** Aborts that arrived before the write request (the client's request to us was slow). */
    private final Map<TxnId, EarlyAbort> earlyAborts = new LinkedHashMap<>();
    /** Transactions we coordinate that are still collecting votes. */
    private final Map<TxnId, Coordination> coordinating = new LinkedHashMap<>();
    /** Our decisions as coordinator, in decision order, kept for late participants and clients. */
    private final Map<TxnId, Decision> decisions = new LinkedHashMap<>();

    /** Samples of svc over time: GC keeps every version a round two within the retention window may ask for. */
    private final ArrayDeque<SvcSample> svcHistory = new ArrayDeque<>();
    /** Keys that may hold more than one version. */
    private final Set<Key> gcCandidates = new LinkedHashSet<>();
    /** Bounds the work of a read on a hot typed key. */
    private final RunningFolds runningFolds;

    private long nextStabilizationAt;
    private long lastStabilizationSentAt;
    private long lastStabilizedValue = -1;
    /** Where stabilization goes beyond {@code fanout + 1} partitions; null while they tell each other directly. */
    private final StabilizationTree tree;
    /** The stable bases clients' and peers' clocks are relative to; null without a tree (clocks relative to zero). */
    private final BaseWindow bases;
    /** At the root: the last base epoch issued, and the newest any report up named. */
    private long lastEpoch;
    /** At the root: when it last sent a round down. */
    private long lastDownAt = Long.MIN_VALUE / 2;
    private long newestEpochHeard;
    private long nextGcAt;

    private static final class LocalTxn {
        final TxnRecord record;
        Outcome outcome = Outcome.UNDECIDED;
        VectorClock commitClock;
        long commitTime;
        ClientReply replyTo;
        long requestId;
        long nextCheckAt;

        LocalTxn(TxnRecord record) {
            this.record = record;
        }

        long sequence() {
            return record.sequence();
        }
    }

    private static final class Coordination {
        final long firstSeenAt;
        List<Integer> participants;
        VectorClock clientClock;
        long dependencyTime;
        /** The stable base epoch the client's request named (0: none). */
        long clientBaseEpoch;
        final Map<Integer, Long> votes = new LinkedHashMap<>();

        Coordination(long firstSeenAt) {
            this.firstSeenAt = firstSeenAt;
        }
    }

    private record Remembered(Outcome outcome, VectorClock commitClock, long commitTime, long at) {
    }

    private record SvcSample(long at, long[] svc) {
    }

    /** An abort from partition {@code from}, honoured only if the late write request names it as coordinator. */
    private record EarlyAbort(int from, long at) {
    }

    private Partition(int self, PartitionConfig config, Topology topology, PartitionStore store, PeerSink peers,
                      TimeSource time) {
        this.n = topology.partitions();
        if (self < 0 || self >= n) throw new IllegalArgumentException("partition " + self + " outside 0.." + (n - 1));
        this.self = self;
        this.config = config;
        this.topology = topology;
        this.checks = new RequestChecks(config, topology, self, true);
        this.runningFolds = new RunningFolds(n, RUNNING_FOLD_KEYS);
        this.store = store;
        this.peers = peers;
        this.time = time;
        this.svc = new long[n];
        this.peerSettled = new long[n];
        this.tree = StabilizationTree.direct(n, config.stabilizationFanout()) ? null
                : new StabilizationTree(self, n, config.stabilizationFanout());
        this.bases = tree == null ? null : new BaseWindow(n);
        long now = time.nowMicros();
        // Epochs are numbered at most one per millisecond of the root's clock (never above its millisecond + 1), from
        // its start: a root restarted a millisecond or more later never gives a number it gave before (docs/design.md,
        // "Clocks relative to a stable base").
        this.lastEpoch = Math.max(0, now / 1000);
        this.nextStabilizationAt = now;
        this.nextGcAt = now;
    }

    /**
     * Starts partition {@code self} from whatever {@code store} holds: empty for a new partition, or the durable
     * records of an earlier run after a crash.
     */
    public static Partition start(int self, PartitionConfig config, Topology topology, PartitionStore store,
                                  PeerSink peers, TimeSource time) {
        Partition p = new Partition(self, config, topology, store, peers, time);
        p.recover(store.recover());
        return p;
    }

    private void recover(PartitionStore.Recovered recovered) {
        long now = time.nowMicros();
        if (recovered.snapshot() != null) {
            if (recovered.snapshot().size() != n)
                throw new IllegalStateException("stored snapshot has " + recovered.snapshot().size() + " entries, cluster has " + n);
            recovered.snapshot().maxInto(svc);
        }
        lastSequence = svc[self];
        // A recovered decision's retention counts from now: clients that lost track of a write during the outage can
        // only ask once we are back (DecisionAcrossDowntimeTest). This also keeps the map in decision-time order.
        for (Decision d : recovered.decisions())
            decisions.put(d.txnId(), new Decision(d.txnId(), d.outcome(), d.commitClock(), d.commitTime(), d.participants(),
                    now));
        for (TxnRecord r : recovered.transactions()) {
            lastSequence = Math.max(lastSequence, r.sequence());
            if (r.sequence() <= svc[self]) continue;
            LocalTxn t = new LocalTxn(r);
            unsettled.put(r.sequence(), t);
            if (r.outcome() == Outcome.UNDECIDED) {
                pending.put(r.txnId(), t);
                t.nextCheckAt = now; // ask the coordinator at once: we may have missed its decision while down
            } else {
                t.outcome = r.outcome();
                t.commitClock = r.commitClock();
                t.commitTime = r.commitTime();
                if (r.outcome() == Outcome.COMMITTED) installVersions(t); // idempotent: the crash may have cut it short
            }
        }
        // A sequence number with no record was assigned but never made durable, so nobody ever heard of it
        // (messages leave only after the records before them are durable): skip it like an abort.
        for (long sn = svc[self] + 1; sn <= lastSequence; sn++) {
            if (!unsettled.containsKey(sn)) {
                LocalTxn gap = new LocalTxn(new TxnRecord(new TxnId(-1, sn), sn, self, List.of(self), List.of(),
                        VectorClock.zero(n), Outcome.ABORTED, null, 0));
                gap.outcome = Outcome.ABORTED;
                unsettled.put(sn, gap);
            }
        }
        if (recovered.snapshot() != null || !recovered.transactions().isEmpty() || !recovered.decisions().isEmpty())
            metrics.recoveries++;
        for (LocalTxn t : List.copyOf(pending.values())) {
            if (t.record.coordinator() != self) continue;
            Decision d = decisions.get(t.record.txnId());
            if (d == null) {
                // Votes we collected as coordinator were volatile and are gone: no commit was decided (a decision is
                // durable before it is sent), so aborting is safe and frees the participants at once.
                decide(t.record.txnId(), t.record.participants(), Outcome.ABORTED, null, 0);
            } else {
                // Decided before the crash but maybe not sent, and not applied here: finish both now.
                PeerMessage m = d.outcome() == Outcome.COMMITTED ? commitMessage(d, 0) : new Abort(d.txnId());
                for (int p : d.participants()) if (p != self) peers.send(p, m);
                if (d.outcome() == Outcome.COMMITTED) commitLocal(t, d.commitClock(), d.commitTime());
                else abortLocal(t);
            }
        }
        gcCandidates.addAll(store.keysWithOlderVersions());
        advanceSettled();
    }

    public int self() {
        return self;
    }

    public PartitionMetrics metrics() {
        return metrics;
    }

    /** A copy of the snapshot vector clock. */
    public VectorClock snapshot() {
        return VectorClock.of(svc);
    }

    /** {@code svc[self]}, the settled prefix. */
    public long settledPrefix() {
        return svc[self];
    }

    /**
     * From now on the host reports which part of the settled prefix is durable ({@link #onSettledDurable}), and reads
     * show this partition's own entry and versions only up to that part (docs/design.md, "What a read answer rests
     * on"): a read answer then depends on no write still on its way to disk or through the group's log, so the host
     * may send it at once instead of behind every write made before it. What recovery found is durable already.
     */
    public void trackDurableSettled() {
        durableSettled = svc[self];
    }

    /** The settled prefix up to {@code settled} is durable (the host saw the writes made up to its advance persist). */
    public void onSettledDurable(long settled) {
        if (durableSettled == Long.MAX_VALUE) return; // not tracked: reads use svc[self]
        durableSettled = Math.max(durableSettled, Math.min(settled, svc[self]));
    }

    /** How far reads show our own entry: the settled prefix, or its durable part when the host tracks that. */
    public long readableSettled() {
        return config.has(Bug.READ_BEYOND_DURABLE) ? svc[self] : Math.min(svc[self], durableSettled);
    }

    /**
     * How far a read of this client shows our own entry: the durable part of the settled prefix when it covers what the
     * client has already seen of this partition, else the whole prefix, and the host holds that answer until it is
     * durable. Capping below the client's own entry would hide its own writes, or what it saw elsewhere, from it: the
     * news that a prefix is durable reaches the partition a moment after the replies that rest on it have left.
     */
    private long readableFor(VectorClock clientClock) {
        long readable = readableSettled();
        if (clientClock.get(self) <= readable || config.has(Bug.READ_BELOW_CLIENT_CLOCK)) return readable;
        return svc[self];
    }

    /** The highest sequence number assigned so far. */
    public long lastSequence() {
        return lastSequence;
    }

    /** Write transactions prepared here whose sequence number is not yet within the settled prefix. */
    public int unsettledCount() {
        return unsettled.size();
    }

    /** This partition's decision on {@code id} as coordinator, or null (for tests). */
    Decision decisionOf(TxnId id) {
        return decisions.get(id);
    }

    public int pendingCount() {
        return pending.size();
    }

    // ------------------------------------------------------------------------------------------------ client side

    /** Handles any client request. */
    public void onClientRequest(ClientReply reply, ClientRequest request) {
        if (ClockCompaction.basedClockOf(request) != null) {
            onCompactRequest(reply, request, null);
            return;
        }
        dispatch(reply, request, 0);
    }

    /** A full request whose clock was relative to the base of {@code baseEpoch} (0: none). */
    private void dispatch(ClientReply reply, ClientRequest request, long baseEpoch) {
        if (request instanceof FirstRoundRead r) onFirstRoundRead(reply, r);
        else if (request instanceof SecondRoundRead r) onSecondRoundRead(reply, r);
        else if (request instanceof WriteRequest w) onWrite(reply, w, baseEpoch);
        else if (request instanceof OutcomeQuery q) onOutcomeQuery(reply, q);
        else throw new IllegalArgumentException("unknown request " + request);
    }

    /** Round one (algorithm 2, lines 2-10): the newest versions within svc, as the client's clock extends it for this read. */
    public void onFirstRoundRead(ClientReply reply, FirstRoundRead r) {
        onFirstRoundRead(reply, r, null);
    }

    /**
     * What a round one arriving now would be answered at: the snapshot clock and this partition's time. A host that
     * must hold a read back (to bring its keys into memory) takes it when the read arrives and passes it to
     * {@link #onFirstRoundRead(ClientReply, FirstRoundRead, ReadSnapshot)}, so the delay does not show in the reply.
     */
    public ReadSnapshot readSnapshotNow() {
        return new ReadSnapshot(svc.clone(), time.nowMicros());
    }

    /**
     * Round one answered at {@code arrival}, the snapshot taken when the request arrived (null: now). The answer is
     * the one an immediate answer would have been: a version with {@code ct <= svc} at arrival was settled here before
     * the request arrived, so it was in the chain, and GC keeps the newest version within any snapshot for the
     * version retention (pitfall 3). A snapshot older than the retention is not used (the read is answered now).
     */
    public void onFirstRoundRead(ClientReply reply, FirstRoundRead r, ReadSnapshot arrival) {
        ErrorReply error = checkKeys(r.requestId(), r.keys());
        if (error == null) error = checkClock(r.requestId(), r.clock());
        if (error != null) {
            refuse(reply, error);
            return;
        }
        metrics.firstRoundReads++;
        boolean pinned = arrival != null && (time.nowMicros() - arrival.time() < config.versionRetentionMicros()
                || config.has(Bug.PIN_BEYOND_RETENTION));
        long[] base = pinned ? arrival.svc() : svc;
        long[] view = clientView(r.clock(), base);
        view[self] = Math.min(view[self], readableFor(r.clock()));
        reply.reply(readAt(r.requestId(), r.keys(), view, view, pinned ? arrival.time() : time.nowMicros(), true));
    }

    /**
     * A round one, full or compact, answered at {@code arrival} (null: now); for hosts that hold reads back, see
     * {@link #onFirstRoundRead(ClientReply, FirstRoundRead, ReadSnapshot)}.
     */
    public void onRead(ClientReply reply, ClientRequest request, ReadSnapshot arrival) {
        if (request instanceof CompactFirstRoundRead) onCompactRequest(reply, request, arrival);
        else if (request instanceof FirstRoundRead r) onFirstRoundRead(reply, r, arrival);
        else onClientRequest(reply, request);
    }

    /**
     * A request whose clock is relative to a stable base: expanded on our base of its epoch, refused if we do not know
     * it (the client sends it again relative to epoch 0), and answered in compact form, its clocks as differences from
     * the request's (docs/design.md, "Clocks relative to a stable base").
     */
    private void onCompactRequest(ClientReply reply, ClientRequest compact, ReadSnapshot arrival) {
        BasedClock based = ClockCompaction.basedClockOf(compact);
        long[] base = baseOf(based.epoch());
        if (base == null) {
            metrics.baseUnknown++;
            refuse(reply, ErrorReply.of(compact.requestId(), ErrorCode.BASE_UNKNOWN, "partition " + self
                    + " does not know the stable base of epoch " + based.epoch() + "; send the clock relative to epoch 0"));
            return;
        }
        ClientRequest full;
        try {
            full = ClockCompaction.expand(compact, base);
        } catch (IllegalArgumentException e) {
            refuse(reply, ErrorReply.of(compact.requestId(), ErrorCode.INVALID_REQUEST, e.getMessage()));
            return;
        }
        VectorClock requestClock = ClockCompaction.clockOf(full);
        long rebaseTo = compact instanceof CompactFirstRoundRead r ? r.rebaseTo() : 0;
        ClientReply compacting = response -> reply.reply(ClockCompaction.compact(response, requestClock, self,
                ClockCompaction.shows(response, self), stableEpoch(), rebaseTo > 0 ? rebase(requestClock, rebaseTo) : null));
        // Our commit decision, if we coordinate this write, goes relative to the base its client named: the commit
        // clock is the client's clock with the participants' sequence numbers, so it names little beyond it.
        if (full instanceof FirstRoundRead r) onFirstRoundRead(compacting, r, arrival);
        else dispatch(compacting, full, based.epoch());
    }

    /** The base of {@code epoch}: zeros for epoch 0, null when we do not know it. */
    private long[] baseOf(long epoch) {
        if (epoch == 0) return new long[n];
        return bases == null ? null : bases.base(epoch);
    }

    /** The newest stable base we name to clients: one epoch behind the newest we know, so the others know it too. */
    long stableEpoch() {
        if (bases == null || bases.newest() < 2) return 0;
        long stable = bases.newest() - 1;
        return bases.knows(stable) ? stable : 0;
    }

    /** Tests: the stable base of {@code epoch} this partition knows, or null. */
    long[] baseForTest(long epoch) {
        return baseOf(epoch);
    }

    /** What a client needs to move its clock {@code c} to the base of {@code epoch}; null if we do not know it. */
    private Rebase rebase(VectorClock c, long epoch) {
        return bases == null ? null : bases.rebase(c, epoch);
    }

    /** A partition's snapshot clock and time at one moment; see {@link #readSnapshotNow()}. */
    public record ReadSnapshot(long[] svc, long time) {
    }

    /**
     * Round two (algorithm 2, lines 11-16): the newest versions with commit clock at most the client's merged clock.
     * The client's own entry for us is capped at what we settled, so no clock can make unsettled data visible.
     */
    public void onSecondRoundRead(ClientReply reply, SecondRoundRead r) {
        ErrorReply error = checkKeys(r.requestId(), r.keys());
        if (error == null) error = checkClock(r.requestId(), r.clock());
        if (error != null) {
            refuse(reply, error);
            return;
        }
        long now = time.nowMicros();
        if (now - r.firstRoundTime() > config.versionRetentionMicros()) {
            metrics.snapshotsExpired++;
            refuse(reply, ErrorReply.of(r.requestId(), ErrorCode.SNAPSHOT_EXPIRED,
                    "round two came " + (now - r.firstRoundTime()) + "us after round one, beyond the version retention of "
                            + config.versionRetentionMicros() + "us; restart the read"));
            return;
        }
        metrics.secondRoundReads++;
        long[] view = clientView(r.clock(), svc);
        view[self] = Math.min(view[self], readableFor(r.clock()));
        long[] at = r.clock().toArray();
        // Capped at what settled, not at its durable part: the client may have seen more of us than the durable part
        // this partition has heard of (the news comes after the replies resting on it), and the host then holds the
        // answer until what it shows is durable.
        at[self] = Math.min(at[self], svc[self]);
        reply.reply(readAt(r.requestId(), r.keys(), at, view, time.nowMicros(), false));
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
            if (k == self) metrics.clockAhead++; // never trust a client about our own settled prefix
            else view[k] = v;
        }
        return view;
    }

    /**
     * Waiting versions listed in one read answer, at most about this many bytes (keys, values and commit clocks): a
     * hot key can have many, each with a whole commit clock. Beyond it the answer says its list is incomplete.
     */
    static final int MAX_WAITING_BYTES = 64 * 1024;

    /** Hot typed keys a partition keeps a running fold for (RunningFolds), the most recently read ones. */
    static final int RUNNING_FOLD_KEYS = 1024;

    /**
     * The newest version of each key with commit clock within {@code at}; the reply reports {@code snapshot}, and lists the
     * newer versions it left out whose sequence numbers are within {@code at}'s own entry, so that the client can tell
     * what a round two at a clock whose entry for us is at most that one would return (docs/design.md, "Second rounds a
     * partition can rule out").
     */
    private ReadReply readAt(long requestId, List<Key> keys, long[] at, long[] snapshot, long serverTime,
                             boolean listWaiting) {
        List<ReadValue> values = new ArrayList<>(keys.size());
        long[] maxCommit = new long[n];
        long maxCommitTime = 0;
        Waiting waiting = new Waiting(listWaiting);
        for (Key key : keys) {
            metrics.keysRead++;
            ReadValue value = null;
            if (config.has(Bug.EXPOSE_PENDING)) value = newestPending(key, maxCommit);
            if (value == null) {
                List<Version> versions = store.versions(key);
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
                serverTime, waiting.list, waiting.complete, stableEpoch());
    }

    /** A typed key's value, and the largest commit time among the operations folded into it. */
    private record Folded(ReadValue value, long commitTime) {
    }

    /**
     * A typed key's value at {@code at}: the fold of every operation whose commit clock is within it, and the base that
     * garbage collection folded older ones into (within every snapshot a read may still use: see collectGarbage). The
     * operations left out that are settled here wait in the answer, as versions do, so the client can fold them in
     * at its merged clock (docs/design.md, "Commutative operations").
     */
    private Folded foldAt(Key key, KeyType type, List<Version> versions, long[] at, long[] maxCommit, Waiting waiting) {
        RunningFolds.Folded running = config.has(Bug.FOLD_IN_SEQUENCE_ORDER) ? null
                : runningFolds.forRead(key, type, versions, at, svc);
        TypedFold fold = running != null ? running.fold().copy() : new TypedFold(type);
        long sequence = 0;
        long foldedCommitTime = 0;
        if (running != null) {
            metrics.runningFoldReads++;
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

    private ReadValue newestPending(Key key, long[] maxCommit) {
        LocalTxn newest = null;
        for (LocalTxn t : pending.values())
            for (KeyValue kv : t.record.writes())
                if (kv.key().equals(key) && (newest == null || t.sequence() > newest.sequence())) newest = t;
        if (newest == null) return null;
        newest.record.clientClock().with(self, newest.sequence()).maxInto(maxCommit);
        for (KeyValue kv : newest.record.writes())
            if (kv.key().equals(key)) return new ReadValue(key, kv.value(), newest.sequence());
        return null;
    }

    /** A participant receives its part of a write-only transaction (algorithm 2, lines 17-26). */
    public void onWrite(ClientReply reply, WriteRequest w) {
        onWrite(reply, w, 0);
    }

    /** As above, for a request whose clock was relative to the base of {@code baseEpoch} (0: none). */
    private void onWrite(ClientReply reply, WriteRequest w, long baseEpoch) {
        ErrorReply error = checkWrite(w);
        if (error != null) {
            refuse(reply, error);
            return;
        }
        TxnId id = w.txnId();
        LocalTxn known = pending.get(id);
        if (known != null) { // a duplicate of a request we prepared: answer this one when the outcome is known
            known.replyTo = reply;
            known.requestId = w.requestId();
            return;
        }
        Remembered settled = recentlySettled.get(id);
        if (settled != null) {
            reply.reply(new WriteReply(w.requestId(), id, settled.outcome(), settled.commitClock(), settled.commitTime()));
            return;
        }
        Decision decided = decisions.get(id);
        if (decided != null) {
            // We coordinate it and decided it, so our own part was prepared and (not being pending) is settled.
            reply.reply(new WriteReply(w.requestId(), id, decided.outcome(), decided.commitClock(), decided.commitTime()));
            return;
        }
        EarlyAbort early = earlyAborts.get(id);
        if (early != null && early.from() == w.coordinator()) {
            reply.reply(new WriteReply(w.requestId(), id, Outcome.ABORTED, null, 0));
            return;
        }
        String mismatch = typeMismatch(w.writes());
        if (mismatch != null) {
            refuseWrite(reply, w, mismatch);
            return;
        }
        if (w.clock().get(self) > svc[self]) metrics.clockAhead++;

        long sequence = ++lastSequence;
        TxnRecord record = new TxnRecord(id, sequence, w.coordinator(), w.participants(), w.writes(), w.clock(),
                Outcome.UNDECIDED, null, 0);
        store.savePrepared(record);
        LocalTxn t = new LocalTxn(record);
        t.replyTo = reply;
        t.requestId = w.requestId();
        unsettled.put(sequence, t);
        pending.put(id, t);
        metrics.writesPrepared++;

        if (w.coordinator() == self) {
            Coordination c = coordinating.computeIfAbsent(id, x -> new Coordination(time.nowMicros()));
            if (c.participants != null && !sameSet(c.participants, w.participants())) {
                abortConflicting(id, c, w.participants());
                return;
            }
            c.participants = w.participants();
            c.clientClock = w.clock();
            c.clientBaseEpoch = baseEpoch;
            c.dependencyTime = w.dependencyTime();
            c.votes.put(self, sequence);
            maybeCommit(id, c);
        } else {
            t.nextCheckAt = time.nowMicros() + config.transactionTimeoutMicros();
            peers.send(w.coordinator(), new Prepared(id, self, sequence, w.participants()));
        }
    }

    /**
     * Null if every operation fits its key's type, else why not. A key's type is fixed by its first operation: that of
     * its stored versions, else of a transaction prepared here and not settled yet (if that one aborts, the key is
     * free again). Top-k keys also fix their k.
     */
    private String typeMismatch(List<KeyValue> writes) {
        for (KeyValue kv : writes) {
            List<Version> versions = store.versions(kv.key());
            KeyType fixed = null;
            int k = 0;
            if (!versions.isEmpty()) {
                fixed = TypedFold.typeOf(versions);
                k = TypedFold.topkOf(versions);
            } else {
                for (LocalTxn t : unsettled.values()) {
                    if (t.outcome == Outcome.ABORTED) continue;
                    for (KeyValue other : t.record.writes()) {
                        if (!other.key().equals(kv.key())) continue;
                        fixed = other.kind().keyType();
                        if (other.kind() == WriteKind.TOPK_INSERT) k = Operands.topkK(other.value());
                    }
                }
            }
            if (fixed == null) continue;
            if (fixed != kv.kind().keyType())
                return "key " + kv.key() + " is " + fixed.description() + ": " + kv.kind() + " refused (a key keeps the type "
                        + "of its first operation)";
            if (fixed == KeyType.TOPK && k != Operands.topkK(kv.value()))
                return "key " + kv.key() + " is a top-" + k + ": an insert with k = " + Operands.topkK(kv.value()) + " refused";
        }
        return null;
    }

    /**
     * Refuses a write we will not prepare, and tells its coordinator, which aborts it at once: the other participants
     * may have prepared it, and would otherwise hold it for a transaction timeout.
     */
    private void refuseWrite(ClientReply reply, WriteRequest w, String why) {
        metrics.writesRefused++;
        refuse(reply, invalid(w.requestId(), why));
        if (w.coordinator() == self) {
            if (!decisions.containsKey(w.txnId())) decide(w.txnId(), w.participants(), Outcome.ABORTED, null, 0);
        } else {
            peers.send(w.coordinator(), new Refused(w.txnId(), self, w.participants()));
        }
    }

    private void onRefused(int from, Refused r) {
        if (r.from() != from || !validParticipants(r.participants()) || !r.participants().contains(from)
                || !r.participants().contains(self) || decisions.containsKey(r.txnId())) return;
        Coordination c = coordinating.get(r.txnId());
        decide(r.txnId(), c != null && c.participants != null ? c.participants : r.participants(), Outcome.ABORTED, null, 0);
    }

    /** A client asks the coordinator what became of a transaction it lost track of. */
    public void onOutcomeQuery(ClientReply reply, OutcomeQuery q) {
        Decision d = decisions.get(q.txnId());
        if (d == null && coordinating.containsKey(q.txnId())) {
            reply.reply(new OutcomeReply(q.requestId(), q.txnId(), Outcome.UNDECIDED, null, 0));
            return;
        }
        if (d == null) d = presumeAbort(q.txnId());
        reply.reply(new OutcomeReply(q.requestId(), q.txnId(), d.outcome(), d.commitClock(), d.commitTime()));
    }

    // -------------------------------------------------------------------------------------------------- peer side

    /** Handles any message from partition {@code from}. Messages claiming an impossible sender are dropped. */
    public void onPeerMessage(int from, PeerMessage message) {
        if (from < 0 || from >= n || from == self) return;
        if (message instanceof Prepared p) onPrepared(from, p);
        else if (message instanceof Commit c) onCommit(from, c);
        else if (message instanceof Abort a) onAbort(from, a);
        else if (message instanceof CheckCommit c) onCheckCommit(from, c);
        else if (message instanceof Stabilize s) onStabilize(from, s);
        else if (message instanceof StabilizeUp u) onStabilizeUp(from, u);
        else if (message instanceof StabilizeDown d) onStabilizeDown(from, d);
        else if (message instanceof CompactCommit c) onCompactCommit(from, c);
        else if (message instanceof Refused r) onRefused(from, r);
        else throw new IllegalArgumentException("unknown peer message " + message);
    }

    private void onStabilize(int from, Stabilize s) {
        if (s.from() != from) return;
        learnSettled(from, s.settled());
    }

    /**
     * A child's report: taken for the partitions of its subtree only, never for ourselves, and relayed to our parent at
     * once (the root gathers on its own tick), so a settled prefix reaches the root one interval after it is reported
     * whatever the depth.
     */
    private void onStabilizeUp(int from, StabilizeUp u) {
        if (tree == null || u.from() != from || !tree.isChild(from)) return;
        newestEpochHeard = Math.max(newestEpochHeard, u.epoch());
        List<Settled> taken = new ArrayList<>(u.entries().size());
        for (Settled e : u.entries())
            if (e.partition() != self && e.partition() >= 0 && e.partition() < n && tree.inSubtree(from, e.partition())) {
                learnSettled(e.partition(), e.settled());
                taken.add(e);
            }
        if (taken.isEmpty()) return;
        if (!tree.isRoot()) {
            tree.relayed(taken);
            peers.send(tree.parent(), new StabilizeUp(self, taken, Math.max(bases.newest(), newestEpochHeard)));
            metrics.stabilizationsSent++;
            return;
        }
        // The root sends what rose down at once, at most twice an interval, rather than at its next tick: a
        // settled prefix then comes down about as soon as all-to-all would bring it (docs/design.md).
        long now = time.nowMicros();
        if (now - lastDownAt >= config.stabilizationIntervalMicros() / 2) sendDown(now, ownReport());
    }

    /** What came down from our parent: taken for every partition but ourselves, and passed on to our children. */
    private void onStabilizeDown(int from, StabilizeDown d) {
        if (tree == null || d.from() != from || from != tree.parent()) return;
        for (Settled e : d.entries())
            if (e.partition() != self && e.partition() >= 0 && e.partition() < n) learnSettled(e.partition(), e.settled());
        if (d.epoch() > 0) addBase(d.epoch(), d.full(), d.entries());
        List<Integer> children = tree.children();
        if (!children.isEmpty()) {
            StabilizeDown forward = new StabilizeDown(self, d.entries(), d.epoch(), d.full());
            for (int c : children) peers.send(c, forward);
        }
    }

    private void addBase(long epoch, boolean full, List<Settled> entries) {
        int[] ps = new int[entries.size()];
        long[] vs = new long[entries.size()];
        for (int i = 0; i < ps.length; i++) {
            ps[i] = entries.get(i).partition();
            vs[i] = entries.get(i).settled();
        }
        if (!bases.add(epoch, full, ps, vs)) metrics.basesMissed++;
    }

    /**
     * A commit decision relative to a stable base. One we cannot expand is dropped, and we ask the coordinator at once
     * ({@link CheckCommit}): it answers relative to a newer base, or whole.
     */
    private void onCompactCommit(int from, CompactCommit c) {
        long[] base = baseOf(c.commitClock().epoch());
        if (base == null || c.commitClock().size() > n) {
            metrics.commitsUnexpanded++;
            LocalTxn t = pending.get(c.txnId());
            if (t != null && from == t.record.coordinator()) {
                peers.send(from, new CheckCommit(c.txnId(), self));
                metrics.checkCommitsSent++;
                t.nextCheckAt = time.nowMicros() + config.checkIntervalMicros();
            }
            return;
        }
        onCommit(from, new Commit(c.txnId(), c.commitClock().expand(base), c.commitTime()));
    }

    /** Stabilization told us partition {@code p} settled up to {@code settled}. */
    private void learnSettled(int p, long settled) {
        if (settled > svc[p]) svc[p] = settled;
        if (settled > peerSettled[p]) peerSettled[p] = settled;
    }

    /** The coordinator collects a participant's sequence number (algorithm 2, lines 27-34). */
    private void onPrepared(int from, Prepared p) {
        if (p.from() != from || !validParticipants(p.participants()) || !p.participants().contains(from)
                || !p.participants().contains(self) || p.sequence() <= 0) return;
        TxnId id = p.txnId();
        Decision d = decisions.get(id);
        if (d != null) { // a late or repeated vote: tell the voter what was decided
            peers.send(from, d.outcome() == Outcome.COMMITTED ? commitMessage(d, 0) : new Abort(id));
            return;
        }
        Coordination c = coordinating.computeIfAbsent(id, x -> new Coordination(time.nowMicros()));
        if (c.participants == null) c.participants = p.participants();
        else if (!sameSet(c.participants, p.participants())) {
            abortConflicting(id, c, p.participants());
            return;
        }
        c.votes.put(from, p.sequence());
        maybeCommit(id, c);
    }

    /** Participants were told different participant lists: a broken client. The transaction cannot commit. */
    private void abortConflicting(TxnId id, Coordination c, List<Integer> other) {
        java.util.TreeSet<Integer> everyone = new java.util.TreeSet<>(c.participants);
        everyone.addAll(other);
        decide(id, List.copyOf(everyone), Outcome.ABORTED, null, 0);
    }

    private static boolean sameSet(List<Integer> a, List<Integer> b) {
        return a.size() == b.size() && new HashSet<>(a).equals(new HashSet<>(b));
    }

    private void maybeCommit(TxnId id, Coordination c) {
        if (c.clientClock == null || c.votes.size() < c.participants.size()) return;
        // ct[j] = vc[j] outside the transaction, ct[p] = sn_p for each participant p (the thesis's max(vc[p], sn_p)
        // equals sn_p because a participant's sn exceeds anything a client can have seen of it).
        long[] commit = c.clientClock.toArray();
        for (Map.Entry<Integer, Long> vote : c.votes.entrySet()) commit[vote.getKey()] = vote.getValue();
        decide(id, c.participants, Outcome.COMMITTED, VectorClock.wrap(commit), commitTime(c.dependencyTime),
                c.clientBaseEpoch);
    }

    /**
     * A hybrid clock: our time, raised above the client's dependency time (so the arbitration order extends causality:
     * docs/design.md, point 1) and above our previous commit (so our own commits never share a time).
     */
    private long commitTime(long dependencyTime) {
        long t = Math.max(time.nowMicros(), lastCommitTime + 1);
        if (!config.has(Bug.COMMIT_TIME_IGNORES_DEPENDENCY)) t = Math.max(t, dependencyTime + 1);
        lastCommitTime = t;
        return t;
    }

    /**
     * The decision for a participant. Between partitions that stabilize up and down a tree, the commit clock goes
     * relative to a stable base it is at least ({@code clientBaseEpoch}, the base its client named, which every
     * participant expanded the request with, else our newest), else whole (docs/design.md, "Clocks relative to a stable
     * base").
     */
    private PeerMessage commitMessage(Decision d, long clientBaseEpoch) {
        long epoch = clientBaseEpoch;
        // The client's base only while it is recent enough that the participants surely keep it too.
        if (epoch == 0 || bases == null || bases.newest() - epoch > BaseWindow.KEPT / 2) epoch = stableEpoch();
        BasedClock based = epoch == 0 || bases == null || d.commitClock().size() != n ? null
                : bases.relativeTo(d.commitClock(), epoch);
        return based != null ? new CompactCommit(d.txnId(), based, d.commitTime())
                : new Commit(d.txnId(), d.commitClock(), d.commitTime());
    }

    /** Records the decision durably, tells the other participants, then applies it here. */
    private void decide(TxnId id, List<Integer> participants, Outcome outcome, VectorClock commitClock, long commitTime) {
        decide(id, participants, outcome, commitClock, commitTime, 0);
    }

    /** As above; a commit goes to the participants relative to {@code clientBaseEpoch} if it can (0: none). */
    private void decide(TxnId id, List<Integer> participants, Outcome outcome, VectorClock commitClock, long commitTime,
                        long clientBaseEpoch) {
        if (decisions.containsKey(id)) throw new IllegalStateException("transaction " + id + " is already decided");
        Decision d = new Decision(id, outcome, commitClock, commitTime, participants == null ? List.of() : participants,
                time.nowMicros());
        store.saveDecision(d);
        decisions.put(id, d);
        coordinating.remove(id);
        if (participants != null) {
            PeerMessage m = outcome == Outcome.COMMITTED ? commitMessage(d, clientBaseEpoch) : new Abort(id);
            for (int p : participants) if (p != self) peers.send(p, m);
        }
        LocalTxn own = pending.get(id);
        if (own != null) {
            if (outcome == Outcome.COMMITTED) commitLocal(own, commitClock, commitTime);
            else abortLocal(own);
        }
    }

    private Decision presumeAbort(TxnId id) {
        metrics.presumedAborts++;
        decide(id, null, Outcome.ABORTED, null, 0);
        return decisions.get(id);
    }

    private void onCommit(int from, Commit c) {
        LocalTxn t = pending.get(c.txnId());
        if (t == null || c.commitClock().size() != n) return; // duplicate, or not ours
        if (from != t.record.coordinator()) return; // only the coordinator decides
        if (c.commitClock().get(self) != t.sequence()) {
            discardDuplicate(t, c.commitClock(), c.commitTime());
            return;
        }
        commitLocal(t, c.commitClock(), c.commitTime());
    }

    /**
     * A commit clock built from another of our sequence numbers: this record came from a duplicated write request
     * that arrived after we forgot the original. The original committed under its own sequence number, so skip
     * this one like an abort, and tell the client the real outcome.
     */
    private void discardDuplicate(LocalTxn t, VectorClock commitClock, long commitTime) {
        ClientReply replyTo = t.replyTo;
        t.replyTo = null;
        abortLocal(t);
        metrics.writesAborted--;
        if (replyTo != null)
            replyTo.reply(new WriteReply(t.requestId, t.record.txnId(), Outcome.COMMITTED, commitClock, commitTime));
    }

    private void onAbort(int from, Abort a) {
        LocalTxn t = pending.get(a.txnId());
        if (t != null) {
            if (from == t.record.coordinator()) abortLocal(t);
        } else if (!recentlySettled.containsKey(a.txnId())) {
            earlyAborts.put(a.txnId(), new EarlyAbort(from, time.nowMicros()));
        }
    }

    private void onCheckCommit(int from, CheckCommit c) {
        if (c.from() != from) return;
        Decision d = decisions.get(c.txnId());
        if (d == null) {
            Coordination open = coordinating.get(c.txnId());
            if (open != null) {
                if (time.nowMicros() - open.firstSeenAt < config.transactionTimeoutMicros()) return; // still collecting
                metrics.coordinatorTimeouts++;
                decide(c.txnId(), open.participants, Outcome.ABORTED, null, 0);
                d = decisions.get(c.txnId());
            } else {
                d = presumeAbort(c.txnId());
            }
        }
        peers.send(from, d.outcome() == Outcome.COMMITTED ? commitMessage(d, 0) : new Abort(c.txnId()));
    }

    /** COMMIT_LOCAL (algorithm 2, lines 38-44): install the versions; they stay invisible until the prefix reaches them. */
    private void commitLocal(LocalTxn t, VectorClock commitClock, long commitTime) {
        t.outcome = Outcome.COMMITTED;
        t.commitClock = commitClock;
        t.commitTime = commitTime;
        store.saveOutcome(t.record.txnId(), t.sequence(), Outcome.COMMITTED, commitClock, commitTime);
        installVersions(t);
        settle(t);
        metrics.writesCommitted++;
        if (config.has(Bug.EARLY_WRITE_REPLY)) replyCommitted(t);
        advanceSettled();
    }

    private void installVersions(LocalTxn t) {
        for (KeyValue kv : t.record.writes()) {
            // A remove keeps what its session had seen: it removes exactly the adds within that (TypedFold).
            byte[] value = kv.kind() != WriteKind.SET_REMOVE ? kv.value()
                    : new TypedFold.RemoveOperand(kv.value(), t.record.clientClock()).encode();
            Version version = new Version(t.sequence(), t.commitClock, t.commitTime, value, kv.kind());
            store.putVersion(kv.key(), version);
            if (kv.kind() != WriteKind.PUT) runningFolds.installed(kv.key(), version);
            gcCandidates.add(kv.key());
        }
    }

    private void abortLocal(LocalTxn t) {
        t.outcome = Outcome.ABORTED;
        store.saveOutcome(t.record.txnId(), t.sequence(), Outcome.ABORTED, null, 0);
        settle(t);
        metrics.writesAborted++;
        if (t.replyTo != null) { // an abort exposes no clock, so it need not wait for the prefix
            t.replyTo.reply(new WriteReply(t.requestId, t.record.txnId(), Outcome.ABORTED, null, 0));
            t.replyTo = null;
        }
        advanceSettled();
    }

    private void settle(LocalTxn t) {
        pending.remove(t.record.txnId());
        recentlySettled.put(t.record.txnId(), new Remembered(t.outcome, t.commitClock, t.commitTime, time.nowMicros()));
    }

    /** Advances svc[self] over the settled prefix and answers the clients whose writes it now covers. */
    private void advanceSettled() {
        while (!unsettled.isEmpty()) {
            LocalTxn first = unsettled.firstEntry().getValue();
            if (first.outcome == Outcome.UNDECIDED) break;
            unsettled.pollFirstEntry();
            svc[self] = first.sequence();
            if (first.outcome == Outcome.COMMITTED) replyCommitted(first);
        }
    }

    private void replyCommitted(LocalTxn t) {
        if (t.replyTo == null) return;
        t.replyTo.reply(new WriteReply(t.requestId, t.record.txnId(), Outcome.COMMITTED, t.commitClock, t.commitTime));
        t.replyTo = null;
    }

    // -------------------------------------------------------------------------------------------------- time

    /**
     * Periodic work: stabilization, timeouts, GC and expiry of remembered outcomes. The host calls it often,
     * at least every stabilization interval; it does nothing that is not yet due.
     */
    public void tick() {
        long now = time.nowMicros();
        if (now >= nextStabilizationAt) {
            stabilize(now);
            nextStabilizationAt = now + config.stabilizationIntervalMicros();
        }
        checkTimeouts(now);
        if (now >= nextGcAt) {
            // Durable first: GC below relies on svc values, which must not go back after a restart.
            store.saveSnapshot(VectorClock.of(svc), self);
            collectGarbage(now);
            expireRemembered(now);
            nextGcAt = now + config.gcIntervalMicros();
        }
    }

    /**
     * Stabilization (section 3.3.3): tell every partition our settled prefix when it changed, and now and then anyway;
     * beyond {@code fanout + 1} partitions, through the tree.
     */
    private void stabilize(long now) {
        if (tree != null) {
            long own = ownReport();
            if (!tree.isRoot()) {
                StabilizationTree.Report r = tree.report(svc, own, now, config.stabilizationHeartbeatMicros(), false);
                if (r == null) return;
                peers.send(tree.parent(), new StabilizeUp(self, r.entries(), Math.max(bases.newest(), newestEpochHeard)));
                metrics.stabilizationsSent++;
                return;
            }
            sendDown(now, own);
            return;
        }
        long settled = svc[self];
        if (settled == lastStabilizedValue && now - lastStabilizationSentAt < config.stabilizationHeartbeatMicros()) return;
        Stabilize m = new Stabilize(self, settled);
        for (int p = 0; p < n; p++) if (p != self) peers.send(p, m);
        metrics.stabilizationsSent++;
        lastStabilizedValue = settled;
        lastStabilizationSentAt = now;
    }

    /**
     * What we report of ourselves up and down the tree: the durable part of our settled prefix (all of it when the host
     * does not track durability). The tree's entries become stable bases, and a client raises its clock to a base: with
     * replica groups, a prefix not yet durable could be lost in a failover and its sequence numbers given again, and a
     * clock holding it would then claim transactions its session never saw.
     */
    private long ownReport() {
        return config.has(Bug.TREE_REPORTS_UNSETTLED) ? lastSequence : readableSettled();
    }

    /**
     * The root's round: what rose goes down, as the base of a new epoch (at most one a millisecond of its clock; the
     * first one full).
     */
    private void sendDown(long now, long own) {
        long epoch = Math.max(lastEpoch, newestEpochHeard) + 1;
        boolean numbered = epoch <= now / 1000 + 1;
        StabilizationTree.Report r = tree.report(svc, own, now, config.stabilizationHeartbeatMicros(),
                numbered && bases.newest() == 0);
        lastDownAt = now;
        if (r == null) return;
        if (numbered) {
            lastEpoch = epoch;
            addBase(epoch, r.full(), r.entries());
        }
        StabilizeDown down = new StabilizeDown(self, r.entries(), numbered ? epoch : 0, r.full());
        for (int c : tree.children()) peers.send(c, down);
        metrics.stabilizationsSent++;
    }

    private void checkTimeouts(long now) {
        // Coordinator: a vote that has not come within the timeout will not be waited for (section 3.8).
        if (!coordinating.isEmpty()) {
            List<TxnId> expired = null;
            for (Map.Entry<TxnId, Coordination> e : coordinating.entrySet())
                if (now - e.getValue().firstSeenAt >= config.transactionTimeoutMicros()) {
                    if (expired == null) expired = new ArrayList<>();
                    expired.add(e.getKey());
                }
            if (expired != null)
                for (TxnId id : expired) {
                    metrics.coordinatorTimeouts++;
                    decide(id, coordinating.get(id).participants, Outcome.ABORTED, null, 0);
                }
        }
        // Participant: ask the coordinator about a transaction prepared long ago, and again until it answers.
        for (LocalTxn t : pending.values()) {
            if (t.record.coordinator() == self || now < t.nextCheckAt) continue;
            peers.send(t.record.coordinator(), new CheckCommit(t.record.txnId(), self));
            metrics.checkCommitsSent++;
            t.nextCheckAt = now + config.checkIntervalMicros();
        }
    }

    /**
     * Eiger-style GC (section 3.7). A round two at time t2 follows its round one here at t1 >= t2 - retention,
     * and asks for the newest version with commit clock at most a clock that covers what round one returned,
     * which was the newest version within svc(t1). So a version may go once a newer version of its key was
     * already within svc at some time before now - retention: every round two still allowed saw that newer one.
     */
    private void collectGarbage(long now) {
        svcHistory.addLast(new SvcSample(now, svc.clone()));
        long horizon = now - config.versionRetentionMicros();
        // Strictly older than the horizon: a round two whose round one was exactly at the horizon is still allowed.
        while (svcHistory.size() > 1 && svcHistory.peekFirst().at() < horizon) {
            Iterator<SvcSample> it = svcHistory.iterator();
            it.next();
            if (it.next().at() < horizon) svcHistory.pollFirst();
            else break;
        }
        SvcSample old = svcHistory.peekFirst();
        if (old == null || old.at() >= horizon) return;
        for (Iterator<Key> it = gcCandidates.iterator(); it.hasNext(); ) {
            Key key = it.next();
            if (!store.versionsInMemory(key)) continue; // never wait for the disk here; a later pass collects it
            List<Version> versions = store.versions(key);
            KeyType type = TypedFold.typeOf(versions);
            if (type != KeyType.REGISTER) {
                if (foldOld(key, type, versions, old.svc())) it.remove();
                continue;
            }
            int keep = -1;
            for (int i = 0; i < versions.size(); i++)
                if (versions.get(i).commitClock().leq(old.svc())) {
                    keep = i;
                    break;
                }
            int count = versions.size();
            if (keep >= 0 && keep < count - 1) {
                store.removeVersionsOlderThan(key, versions.get(keep));
                metrics.versionsCollected += count - 1 - keep;
            }
            if (keep == 0 || count <= 1) it.remove(); // only one version left that any read can want
        }
    }

    /**
     * Folds a typed key's operations that every read still allowed sees (commit clock within svc as it was a retention
     * ago, the same bound as for versions above) into one base version. Returns whether nothing is left to fold.
     */
    private boolean foldOld(Key key, KeyType type, List<Version> versions, long[] oldSvc) {
        List<Version> folded = new ArrayList<>();
        for (Version v : versions) if (v.kind() == WriteKind.FOLDED || v.commitClock().leq(oldSvc)) folded.add(v);
        if (folded.size() >= 2) {
            TypedFold fold = new TypedFold(type);
            long[] clock = new long[n];
            long sequence = 0, commitTime = 0;
            for (Version v : folded) {
                fold.add(v);
                v.commitClock().maxInto(clock);
                sequence = Math.max(sequence, v.sequence());
                commitTime = Math.max(commitTime, v.commitTime());
            }
            Version base = new Version(sequence, VectorClock.wrap(clock), commitTime, fold.base(), WriteKind.FOLDED);
            long s = sequence;
            List<Version> replaced = config.has(Bug.TYPED_OP_APPLIED_TWICE)
                    ? folded.stream().filter(v -> v.sequence() == s).toList() : folded;
            store.replaceVersions(key, replaced, base);
            metrics.versionsCollected += folded.size() - 1;
        }
        return folded.size() == versions.size();
    }

    /**
     * A decision is kept for the retention, so a client that lost track of its write can ask for the outcome, and
     * a commit decision also until every participant has settled the transaction, which stabilization tells us
     * (ct[p] <= what p reported settled), so no participant is left to ask. After that a coordinator that does not
     * know a transaction presumes it aborted, which is then right: only commits need remembering, and they were.
     */
    private void expireRemembered(long now) {
        long before = now - config.decisionRetentionMicros();
        for (Iterator<Decision> it = decisions.values().iterator(); it.hasNext(); ) {
            Decision d = it.next();
            if (d.decidedAt() > before) break; // decisions are in decision order
            if (d.outcome() != Outcome.COMMITTED || settledEverywhere(d)) {
                store.forgetDecision(d.txnId());
                it.remove();
            }
        }
        // Only duplicated write requests need these, and clients do not resend writes.
        long settledBefore = now - 2 * config.transactionTimeoutMicros();
        recentlySettled.values().removeIf(r -> r.at() <= settledBefore);
        earlyAborts.values().removeIf(e -> e.at() <= before);
    }

    private boolean settledEverywhere(Decision d) {
        for (int p : d.participants()) {
            long settled = p == self ? svc[self] : peerSettled[p];
            if (settled < d.commitClock().get(p)) return false;
        }
        return true;
    }

    // -------------------------------------------------------------------------------------------------- checks

    private void refuse(ClientReply reply, ErrorReply error) {
        metrics.requestsRefused++;
        reply.reply(error);
    }

    private ErrorReply checkKeys(long requestId, List<Key> keys) {
        return checks.keys(requestId, keys);
    }

    /** Far above any real sequence number, and low enough that the sum of 4096 entries cannot overflow. */
    static final long MAX_CLOCK_ENTRY = 1L << 50;

    private ErrorReply checkClock(long requestId, VectorClock clock) {
        if (clock.size() != n)
            return invalid(requestId, "clock of " + clock.size() + " entries for a cluster of " + n + " partitions");
        for (int k = 0; k < n; k++)
            if (clock.get(k) > MAX_CLOCK_ENTRY)
                return invalid(requestId, "clock entry " + k + " is " + clock.get(k) + ", beyond any sequence number");
        return null;
    }

    private ErrorReply checkWrite(WriteRequest w) {
        long id = w.requestId();
        ErrorReply e = checkClock(id, w.clock());
        if (e != null) return e;
        if (w.dependencyTime() < 0) return invalid(id, "negative dependency time " + w.dependencyTime());
        long ahead = w.dependencyTime() - time.nowMicros();
        if (ahead > config.transactionTimeoutMicros())
            return invalid(id, "dependency time " + w.dependencyTime() + " is " + ahead / 1000 + " ms ahead of this "
                    + "partition's clock (more than the transaction timeout): the nodes' clocks disagree, or the client is broken");
        if (!validParticipants(w.participants())) return invalid(id, "bad participant list " + w.participants());
        if (!w.participants().contains(self)) return invalid(id, "participants " + w.participants() + " do not include " + self);
        if (!w.participants().contains(w.coordinator()))
            return invalid(id, "coordinator " + w.coordinator() + " is not a participant");
        return checks.writes(id, w.writes());
    }

    private boolean validParticipants(List<Integer> participants) {
        if (participants.isEmpty() || participants.size() > n) return false;
        Set<Integer> seen = new HashSet<>();
        for (Integer p : participants) if (p == null || p < 0 || p >= n || !seen.add(p)) return false;
        return true;
    }

    private static ErrorReply invalid(long requestId, String message) {
        return RequestChecks.invalid(requestId, message);
    }

    @Override
    public String toString() {
        return "Partition{" + self + ", sn=" + lastSequence + ", svc[self]=" + svc[self] + ", unsettled=" + unsettled.size()
                + ", coordinating=" + coordinating.size() + "}";
    }
}
