package io.fastccs.baselines.wren;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.RequestChecks;
import io.fastccs.core.api.ClientReply;
import io.fastccs.core.api.PeerSink;
import io.fastccs.core.api.TimeSource;
import io.fastccs.core.api.Topology;
import io.fastccs.core.api.WriteLog;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.spi.PartitionServer;
import io.fastccs.baselines.wren.WrenMessages.Abort;
import io.fastccs.baselines.wren.WrenMessages.CheckTxn;
import io.fastccs.baselines.wren.WrenMessages.Commit;
import io.fastccs.baselines.wren.WrenMessages.CommitReply;
import io.fastccs.baselines.wren.WrenMessages.CommitRequest;
import io.fastccs.baselines.wren.WrenMessages.Lst;
import io.fastccs.baselines.wren.WrenMessages.OutcomeRequest;
import io.fastccs.baselines.wren.WrenMessages.Prepare;
import io.fastccs.baselines.wren.WrenMessages.PrepareReply;
import io.fastccs.baselines.wren.WrenMessages.Slice;
import io.fastccs.baselines.wren.WrenMessages.SliceReply;
import io.fastccs.baselines.wren.WrenMessages.Start;
import io.fastccs.baselines.wren.WrenMessages.StartReply;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One Wren partition (single datacenter), as a pure state machine.
 *
 * <p>State: a hybrid logical clock {@code hlc} ({@link Hlc}), the installed-up-to time {@code vv} (the local stable time
 * sent to peers), the prepared transactions {id -> (pt, writes)}, the committed-but-not-installed queue ordered by
 * (ct, id), the peers' local stable times and the global stable time {@code glst}. A version is visible to a snapshot
 * at {@code lt} iff its commit time is at most {@code lt}; a key shows the greatest (ct, id) at or below {@code lt}.
 *
 * <p>Invariants kept: {@code glst <= vv} of every partition; every transaction committed with {@code ct <= vv} here
 * is installed here; a future prepare here gets {@code pt > vv}. Everything iterates in a deterministic order.
 */
final class WrenPartition implements PartitionServer {
    private final int self;
    private final PartitionConfig config;
    private final Topology topology;
    private final RequestChecks checks;
    private final PeerSink peers;
    private final TimeSource time;
    private final boolean applyAtMinPt;

    private long hlc;
    private long vv;
    private long glst;
    private final long[] lst;
    private long lastStabilizeMicros = Long.MIN_VALUE;
    private long lastGcMicros = Long.MIN_VALUE;
    /** Slices below this time may miss collected versions; they are refused. */
    private long gcFloor;

    private record Version(WrenStamp stamp, byte[] value) {
    }

    /** Per key, the installed versions in ascending (ct, id) order. */
    private final Map<Key, List<Version>> data = new HashMap<>();

    private static final class PreparedTxn {
        final int coordinator;
        final long pt;
        final List<KeyValue> writes;
        final long preparedAtMicros;
        long lastCheckMicros;

        PreparedTxn(int coordinator, long pt, List<KeyValue> writes, long preparedAtMicros) {
            this.coordinator = coordinator;
            this.pt = pt;
            this.writes = writes;
            this.preparedAtMicros = preparedAtMicros;
            this.lastCheckMicros = preparedAtMicros;
        }
    }

    private final TreeMap<TxnId, PreparedTxn> prepared = new TreeMap<>();
    private final TreeMap<WrenStamp, List<KeyValue>> committed = new TreeMap<>();
    /** Participant side: transactions told aborted, and when, so a late Prepare is not prepared again. */
    private final TreeMap<TxnId, Long> abortedHere = new TreeMap<>();

    private record Waiter(ClientReply reply, long requestId) {
    }

    private static final class CoordTxn {
        final TreeMap<Integer, List<KeyValue>> shares;
        final TreeMap<Integer, Long> votes = new TreeMap<>();
        final long startedAtMicros;
        final List<Waiter> waiters = new ArrayList<>();
        Outcome outcome = Outcome.UNDECIDED;
        long ct = -1;
        long decidedAtMicros;

        CoordTxn(TreeMap<Integer, List<KeyValue>> shares, long startedAtMicros) {
            this.shares = shares;
            this.startedAtMicros = startedAtMicros;
        }
    }

    /** Coordinator side: transactions this partition coordinates, and abort decisions presumed for unknown ones. */
    private final TreeMap<TxnId, CoordTxn> coordinated = new TreeMap<>();
    /** The undecided among them: what the tick checks for timeouts (decided ones are kept for a minute). */
    private final TreeMap<TxnId, CoordTxn> undecided = new TreeMap<>();

    /** Where prepared writes are made durable (the nodes); nowhere in the simulator. */
    private final WriteLog writeLog;

    WrenPartition(int self, PartitionConfig config, Topology topology, PeerSink peers, TimeSource time, WriteLog writeLog,
                  Set<WrenBug> bugs) {
        this.writeLog = writeLog;
        if (self < 0 || self >= topology.partitions())
            throw new IllegalArgumentException("partition " + self + " outside 0.." + (topology.partitions() - 1));
        this.self = self;
        this.config = config;
        this.topology = topology;
        this.checks = new RequestChecks(config, topology, self);
        this.peers = peers;
        this.time = time;
        this.applyAtMinPt = bugs.contains(WrenBug.APPLY_AT_MIN_PT);
        this.lst = new long[topology.partitions()];
    }

    @Override
    public int self() {
        return self;
    }

    // ---------------------------------------------------------------- client requests

    @Override
    public void onClientRequest(ClientReply reply, ClientRequest request) {
        if (request instanceof Start s) onStart(reply, s);
        else if (request instanceof Slice s) onSlice(reply, s);
        else if (request instanceof CommitRequest c) onCommitRequest(reply, c);
        else if (request instanceof OutcomeRequest o) onOutcomeRequest(reply, o);
        else reply.reply(ErrorReply.of(request.requestId(), ErrorCode.INVALID_REQUEST,
                    "not a Wren request: " + request.getClass().getSimpleName()));
    }

    private void onStart(ClientReply reply, Start s) {
        if (s.lst() < 0 || s.lst() > vv) {
            reply.reply(ErrorReply.of(s.requestId(), ErrorCode.INVALID_REQUEST, "stable time " + s.lst()
                    + " is negative or beyond this partition's installed time " + vv + "; no server gave it"));
            return;
        }
        glst = Math.max(glst, s.lst());
        reply.reply(new StartReply(s.requestId(), glst));
    }

    private void onSlice(ClientReply reply, Slice s) {
        ErrorReply bad = checks.keys(s.requestId(), s.keys());
        if (bad != null) {
            reply.reply(bad);
            return;
        }
        if (s.lt() < 0 || s.lt() > vv) {
            reply.reply(ErrorReply.of(s.requestId(), ErrorCode.INVALID_REQUEST, "snapshot time " + s.lt()
                    + " is negative or beyond this partition's installed time " + vv + "; no server gave it"));
            return;
        }
        if (s.lt() < gcFloor) {
            reply.reply(ErrorReply.of(s.requestId(), ErrorCode.SNAPSHOT_EXPIRED, "snapshot time " + Hlc.format(s.lt())
                    + " is older than the versions kept (" + Hlc.format(gcFloor) + "); start the read again"));
            return;
        }
        glst = Math.max(glst, s.lt());
        List<ReadValue> values = new ArrayList<>(s.keys().size());
        for (Key k : s.keys()) values.add(readAt(k, s.lt()));
        reply.reply(new SliceReply(s.requestId(), values));
    }

    /** The newest installed version of {@code k} with ct at most {@code lt}. */
    private ReadValue readAt(Key k, long lt) {
        List<Version> versions = data.get(k);
        if (versions != null)
            for (int i = versions.size() - 1; i >= 0; i--) {
                Version v = versions.get(i);
                if (v.stamp().ct() <= lt) return new ReadValue(k, v.value(), v.stamp().ct());
            }
        return new ReadValue(k, null, 0);
    }

    private ErrorReply checkCommit(CommitRequest c) {
        long id = c.requestId();
        if (c.txnId() == null) return ErrorReply.of(id, ErrorCode.INVALID_REQUEST, "no transaction id");
        if (c.lt() < 0 || c.hwt() < 0)
            return ErrorReply.of(id, ErrorCode.INVALID_REQUEST, "negative snapshot or write time");
        if (c.lt() > vv)
            return ErrorReply.of(id, ErrorCode.INVALID_REQUEST, "snapshot time " + c.lt()
                    + " is beyond this partition's installed time " + vv + "; no server gave it");
        if (Hlc.physical(c.hwt()) > time.nowMicros() + config.transactionTimeoutMicros())
            return ErrorReply.of(id, ErrorCode.INVALID_REQUEST, "write time " + Hlc.format(c.hwt())
                    + " is more than the transaction timeout ahead of this partition's clock; no server gave it");
        List<KeyValue> writes = c.writes();
        ErrorReply bad = checks.writesOfAnyPartition(id, writes); // the coordinator hands each participant its share
        if (bad != null) return bad;
        boolean mine = false;
        for (KeyValue kv : writes) mine |= topology.ownerOf(kv.key()) == self;
        if (!mine) {
            int owner = topology.ownerOf(writes.get(0).key());
            return new ErrorReply(id, ErrorCode.NOT_OWNER, "the coordinator must be a participant; partition " + self
                    + " owns none of the keys (" + writes.get(0).key() + " is owned by " + owner + ")", owner);
        }
        return null;
    }

    private void onCommitRequest(ClientReply reply, CommitRequest c) {
        ErrorReply bad = checkCommit(c);
        if (bad != null) {
            reply.reply(bad);
            return;
        }
        long now = time.nowMicros();
        CoordTxn existing = coordinated.get(c.txnId());
        if (existing != null) { // a retry, or a request arriving after its outcome was queried (then presumed aborted)
            if (existing.outcome == Outcome.UNDECIDED) existing.waiters.add(new Waiter(reply, c.requestId()));
            else reply.reply(new CommitReply(c.requestId(), c.txnId(), existing.outcome, existing.ct));
            return;
        }
        TreeMap<Integer, List<KeyValue>> shares = new TreeMap<>();
        for (KeyValue kv : c.writes())
            shares.computeIfAbsent(topology.ownerOf(kv.key()), p -> new ArrayList<>()).add(kv);
        CoordTxn t = new CoordTxn(shares, now);
        t.waiters.add(new Waiter(reply, c.requestId()));
        coordinated.put(c.txnId(), t);
        undecided.put(c.txnId(), t);
        long ht = Math.max(c.lt(), c.hwt());
        for (Map.Entry<Integer, List<KeyValue>> e : shares.entrySet()) {
            if (e.getKey() == self) continue;
            peers.send(e.getKey(), new Prepare(c.txnId(), ht, List.copyOf(e.getValue())));
        }
        // Our own share last: if we are the only participant this commits at once.
        long pt = prepare(c.txnId(), self, ht, List.copyOf(shares.get(self)));
        if (pt >= 0) onVote(self, c.txnId(), pt);
    }

    private void onOutcomeRequest(ClientReply reply, OutcomeRequest o) {
        if (o.txnId() == null) {
            reply.reply(ErrorReply.of(o.requestId(), ErrorCode.INVALID_REQUEST, "no transaction id"));
            return;
        }
        long now = time.nowMicros();
        CoordTxn t = coordinated.get(o.txnId());
        if (t == null) t = presumeAborted(o.txnId(), now);
        else if (t.outcome == Outcome.UNDECIDED && now - t.startedAtMicros >= config.transactionTimeoutMicros())
            abort(o.txnId(), t, now);
        reply.reply(new CommitReply(o.requestId(), o.txnId(), t.outcome, t.ct));
    }

    /**
     * Records an abort for a transaction this coordinator does not know (never saw, or forgot after deciding abort),
     * so that a commit request arriving later is answered ABORTED rather than committed.
     */
    private CoordTxn presumeAborted(TxnId id, long now) {
        CoordTxn t = new CoordTxn(new TreeMap<>(), now);
        t.outcome = Outcome.ABORTED;
        t.decidedAtMicros = now;
        coordinated.put(id, t);
        return t;
    }

    // ---------------------------------------------------------------- peer messages

    @Override
    public void onPeerMessage(int from, PeerMessage message) {
        if (from < 0 || from >= lst.length || from == self) return;
        if (message instanceof Prepare p) {
            if (p.txnId() == null || p.writes() == null || p.writes().isEmpty() || p.ht() < 0) return;
            long pt = prepare(p.txnId(), from, p.ht(), p.writes());
            if (pt >= 0) peers.send(from, new PrepareReply(p.txnId(), pt));
        } else if (message instanceof PrepareReply r) {
            if (r.txnId() != null) onVote(from, r.txnId(), r.pt());
        } else if (message instanceof Commit c) {
            if (c.txnId() != null) commit(c.txnId(), c.ct());
        } else if (message instanceof Abort a) {
            if (a.txnId() != null) abortHere(a.txnId());
        } else if (message instanceof CheckTxn c) {
            if (c.txnId() != null) onCheck(from, c.txnId());
        } else if (message instanceof Lst l) {
            lst[from] = Math.max(lst[from], l.lst());
        }
    }

    /** Participant: prepares above {@code ht}; returns pt, or -1 if the transaction was already aborted here. */
    private long prepare(TxnId id, int coordinator, long ht, List<KeyValue> writes) {
        PreparedTxn existing = prepared.get(id);
        if (existing != null) return existing.pt;
        if (abortedHere.containsKey(id)) return -1;
        for (KeyValue kv : writes) // a coordinator only forwards keys we own; anything else is dropped unprepared
            if (kv == null || kv.key() == null || kv.value() == null || topology.ownerOf(kv.key()) != self) return -1;
        long now = time.nowMicros();
        hlc = Math.max(Math.max(hlc + 1, ht + 1), Hlc.ofMicros(now));
        long pt = hlc;
        prepared.put(id, new PreparedTxn(coordinator, pt, writes, now));
        writeLog.accepted(id, writes);
        return pt;
    }

    /** Coordinator: a participant prepared at {@code pt}. */
    private void onVote(int from, TxnId id, long pt) {
        CoordTxn t = coordinated.get(id);
        if (t == null) return;
        if (t.outcome == Outcome.ABORTED) {
            send(from, new Abort(id));
            return;
        }
        if (t.outcome == Outcome.COMMITTED || !t.shares.containsKey(from)) return;
        t.votes.put(from, pt);
        if (t.votes.size() < t.shares.size()) return;
        long ct = t.votes.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        t.outcome = Outcome.COMMITTED;
        t.ct = ct;
        t.decidedAtMicros = time.nowMicros();
        undecided.remove(id);
        // Answer the client now (Wren replies before the commit is applied), then tell the participants.
        for (Waiter w : t.waiters) w.reply().reply(new CommitReply(w.requestId(), id, Outcome.COMMITTED, ct));
        t.waiters.clear();
        for (int p : t.shares.keySet()) send(p, new Commit(id, ct));
    }

    /** Sends to a partition, handling our own messages at once. */
    private void send(int to, PeerMessage m) {
        if (to != self) {
            peers.send(to, m);
        } else if (m instanceof Commit c) {
            commit(c.txnId(), c.ct());
        } else if (m instanceof Abort a) {
            abortHere(a.txnId());
        } else {
            throw new IllegalStateException("no local handling for " + m);
        }
    }

    /** Participant: committed at {@code ct}; queue for installation. */
    private void commit(TxnId id, long ct) {
        PreparedTxn p = prepared.get(id);
        if (p == null || ct < p.pt) return; // duplicate, or a commit time below our own vote: not from our coordinator
        prepared.remove(id);
        hlc = Math.max(Math.max(hlc, ct), Hlc.ofMicros(time.nowMicros()));
        committed.put(new WrenStamp(ct, id), p.writes);
    }

    private void abortHere(TxnId id) {
        prepared.remove(id);
        abortedHere.put(id, time.nowMicros());
    }

    /** Coordinator: a participant asks about a transaction it has held prepared past the timeout. */
    private void onCheck(int from, TxnId id) {
        long now = time.nowMicros();
        CoordTxn t = coordinated.get(id);
        if (t == null) t = presumeAborted(id, now);
        else if (t.outcome == Outcome.UNDECIDED && now - t.startedAtMicros >= config.transactionTimeoutMicros())
            abort(id, t, now);
        if (t.outcome == Outcome.COMMITTED) send(from, new Commit(id, t.ct));
        else if (t.outcome == Outcome.ABORTED) send(from, new Abort(id));
        // still undecided and within its timeout: the participant asks again later
    }

    /** Coordinator: decides abort (only ever for an undecided transaction) and tells everyone. */
    private void abort(TxnId id, CoordTxn t, long now) {
        if (t.outcome != Outcome.UNDECIDED) throw new IllegalStateException("abort after a decision: " + id);
        t.outcome = Outcome.ABORTED;
        t.decidedAtMicros = now;
        undecided.remove(id);
        for (Waiter w : t.waiters) w.reply().reply(new CommitReply(w.requestId(), id, Outcome.ABORTED, -1));
        t.waiters.clear();
        for (int p : t.shares.keySet()) send(p, new Abort(id));
    }

    // ---------------------------------------------------------------- periodic work

    @Override
    public void tick() {
        long now = time.nowMicros();
        timeouts(now);
        apply(now);
        stabilize(now);
        if (lastGcMicros == Long.MIN_VALUE || now - lastGcMicros >= config.gcIntervalMicros()) {
            lastGcMicros = now;
            gc(now);
        }
    }

    private void timeouts(long now) {
        long timeout = config.transactionTimeoutMicros();
        List<Map.Entry<TxnId, CoordTxn>> expired = new ArrayList<>();
        for (Map.Entry<TxnId, CoordTxn> e : undecided.entrySet())
            if (now - e.getValue().startedAtMicros >= timeout) expired.add(e);
        for (Map.Entry<TxnId, CoordTxn> e : expired) abort(e.getKey(), e.getValue(), now);

        List<Map.Entry<TxnId, PreparedTxn>> stuck = new ArrayList<>();
        for (Map.Entry<TxnId, PreparedTxn> e : prepared.entrySet()) {
            PreparedTxn p = e.getValue();
            if (now - p.preparedAtMicros >= timeout && now - p.lastCheckMicros >= config.checkIntervalMicros()) stuck.add(e);
        }
        for (Map.Entry<TxnId, PreparedTxn> e : stuck) {
            e.getValue().lastCheckMicros = now;
            if (e.getValue().coordinator == self) onCheck(self, e.getKey());
            else peers.send(e.getValue().coordinator, new CheckTxn(e.getKey()));
        }
    }

    /**
     * APPLY: the bound below which nothing new can commit here is one below the smallest prepare time (a transaction
     * prepared at pt may commit at exactly pt), or with nothing prepared the clock itself, moved up to now so a later
     * prepare gets a larger time. Committed transactions up to the bound are installed in (ct, id) order.
     */
    private void apply(long now) {
        long ub;
        if (!prepared.isEmpty()) {
            long minPt = Long.MAX_VALUE;
            for (PreparedTxn p : prepared.values()) minPt = Math.min(minPt, p.pt);
            ub = applyAtMinPt ? minPt : minPt - 1;
        } else {
            hlc = Math.max(hlc, Hlc.ofMicros(now));
            ub = hlc;
        }
        while (!committed.isEmpty() && committed.firstKey().ct() <= ub) {
            Map.Entry<WrenStamp, List<KeyValue>> e = committed.pollFirstEntry();
            for (KeyValue kv : e.getValue()) install(kv.key(), new Version(e.getKey(), kv.value()));
        }
        vv = Math.max(vv, ub);
    }

    private void install(Key key, Version v) {
        List<Version> versions = data.computeIfAbsent(key, k -> new ArrayList<>(1));
        int i = versions.size();
        while (i > 0 && versions.get(i - 1).stamp().compareTo(v.stamp()) > 0) i--;
        versions.add(i, v);
    }

    /** STABILIZE: our LST is vv; GLST is the smallest LST we know of. */
    private void stabilize(long now) {
        lst[self] = vv;
        if (lastStabilizeMicros == Long.MIN_VALUE || now - lastStabilizeMicros >= config.stabilizationIntervalMicros()) {
            lastStabilizeMicros = now;
            for (int p = 0; p < lst.length; p++)
                if (p != self) peers.send(p, new Lst(vv));
        }
        long min = Long.MAX_VALUE;
        for (long l : lst) min = Math.min(min, l);
        glst = Math.max(glst, min);
    }

    /**
     * Keeps per key every version newer than {@code cutoff = min(GLST, now - retention)} and the newest one at or below
     * it, so a snapshot at or above the cutoff still reads right; slices below it are refused from now on. Forgets
     * decisions nobody can ask about any more: aborts after the decision retention; commits after it once GLST passed
     * the commit time (then every participant has installed it, so none will ask).
     */
    private void gc(long now) {
        long cutoff = Math.min(glst, Hlc.ofMicros(now - config.versionRetentionMicros()));
        if (cutoff > gcFloor) {
            gcFloor = cutoff;
            for (List<Version> versions : data.values()) {
                if (versions.size() < 2) continue;
                int keep = -1;
                for (int i = versions.size() - 1; i >= 0; i--)
                    if (versions.get(i).stamp().ct() <= cutoff) {
                        keep = i;
                        break;
                    }
                if (keep > 0) versions.subList(0, keep).clear();
            }
        }
        long retention = config.decisionRetentionMicros();
        for (Iterator<Map.Entry<TxnId, CoordTxn>> it = coordinated.entrySet().iterator(); it.hasNext(); ) {
            CoordTxn t = it.next().getValue();
            if (t.outcome == Outcome.UNDECIDED || now - t.decidedAtMicros < retention) continue;
            if (t.outcome == Outcome.ABORTED || t.ct < glst) it.remove();
        }
        abortedHere.values().removeIf(at -> now - at >= retention);
    }

    // ---------------------------------------------------------------- for tests and metrics

    long hlc() {
        return hlc;
    }

    long installedUpTo() {
        return vv;
    }

    long glst() {
        return glst;
    }

    int preparedCount() {
        return prepared.size();
    }

    int committedQueued() {
        return committed.size();
    }

    int versionCount(Key key) {
        List<Version> v = data.get(key);
        return v == null ? 0 : v.size();
    }

    @Override
    public String toString() {
        return "WrenPartition{" + self + ", hlc=" + Hlc.format(hlc) + ", vv=" + Hlc.format(vv) + ", glst=" + Hlc.format(glst)
                + ", prepared=" + prepared.keySet() + ", committed=" + committed.keySet() + ", lst=" + Arrays.toString(lst) + "}";
    }
}
