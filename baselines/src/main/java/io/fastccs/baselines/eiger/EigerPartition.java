package io.fastccs.baselines.eiger;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.ClientReply;
import io.fastccs.core.api.PeerSink;
import io.fastccs.core.api.TimeSource;
import io.fastccs.core.api.Topology;
import io.fastccs.core.api.WriteLog;
import io.fastccs.baselines.eiger.EigerMessages.Abort;
import io.fastccs.baselines.eiger.EigerMessages.Ack;
import io.fastccs.baselines.eiger.EigerMessages.CheckTxn;
import io.fastccs.baselines.eiger.EigerMessages.CheckTxnReply;
import io.fastccs.baselines.eiger.EigerMessages.CohortWrite;
import io.fastccs.baselines.eiger.EigerMessages.Commit;
import io.fastccs.baselines.eiger.EigerMessages.CoordWrite;
import io.fastccs.baselines.eiger.EigerMessages.KeyVersion;
import io.fastccs.baselines.eiger.EigerMessages.OutcomeQuery;
import io.fastccs.baselines.eiger.EigerMessages.Read1;
import io.fastccs.baselines.eiger.EigerMessages.ReadAt;
import io.fastccs.baselines.eiger.EigerMessages.ReadReply;
import io.fastccs.baselines.eiger.EigerMessages.TxnStatus;
import io.fastccs.baselines.eiger.EigerMessages.WriteAck;
import io.fastccs.baselines.eiger.EigerMessages.YesVote;
import io.fastccs.baselines.eiger.EigerState.KeyState;
import io.fastccs.baselines.eiger.EigerState.PendingTxn;
import io.fastccs.baselines.eiger.EigerState.Version;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.spi.PartitionServer;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One Eiger partition (single datacenter), as a pure state machine: a Lamport clock, a version chain per key, pending
 * marks of write-only transactions, the coordinator side of their two-phase commit, and reads in one or two client
 * rounds, with a CheckTxn to the coordinator (the "third round") when a round-two read meets a pending write that may
 * have committed before the read's effective time.
 *
 * <p>A version's stamp is {@code (commitTime << 16) | coordinatorPartition}: unique (a coordinator never commits twice
 * at one time) and the order in which versions of a key win. Its EVT is the commit time; its LVT is implied by the
 * next version (or by pending marks and the clock for the newest one).
 *
 * <p>Every map whose iteration decides what is sent is a TreeMap or LinkedHashMap, so runs are deterministic.
 *
 * <p>This class is the cohort and the reads, and dispatches; the coordinator side is {@link EigerCoordinator}, the
 * request checks {@link EigerChecks}, and what both sides share {@link EigerState}.
 */
public final class EigerPartition implements PartitionServer {
    private final EigerState state;
    private final EigerChecks checks;
    private final EigerCoordinator coordinator;
    private final PartitionConfig config;
    private final EigerMetrics metrics;
    private final TreeMap<Key, KeyState> keys;
    private final TreeMap<TxnId, PendingTxn> pending;

    /** Round-two reads waiting for CheckTxn answers, in arrival order. */
    private final List<HeldRead> held = new ArrayList<>();
    private long lastGcMicros;

    private static final class HeldRead {
        final ClientReply reply;
        final long requestId;
        final List<Key> keys;
        final long time;
        final TreeSet<TxnId> awaiting;
        long lastSentMicros;

        HeldRead(ClientReply reply, long requestId, List<Key> keys, long time, TreeSet<TxnId> awaiting, long now) {
            this.reply = reply;
            this.requestId = requestId;
            this.keys = keys;
            this.time = time;
            this.awaiting = awaiting;
            this.lastSentMicros = now;
        }
    }

    EigerPartition(int self, PartitionConfig config, Topology topology, PeerSink peers, TimeSource time, WriteLog writeLog,
                   Set<EigerBug> bugs) {
        this.state = new EigerState(self, config, topology, peers, time, writeLog, bugs);
        this.checks = new EigerChecks(state);
        this.coordinator = new EigerCoordinator(state);
        this.config = config;
        this.metrics = state.metrics;
        this.keys = state.keys;
        this.pending = state.pending;
        this.lastGcMicros = time.nowMicros();
    }

    @Override
    public int self() {
        return state.self;
    }

    public EigerMetrics metrics() {
        return metrics;
    }

    /** The Lamport clock (for tests and reports). */
    public long clock() {
        return state.clock;
    }

    // ---------------------------------------------------------------- client requests

    @Override
    public void onClientRequest(ClientReply reply, ClientRequest request) {
        ErrorReply refused = checks.check(request);
        if (refused != null) {
            metrics.requestsRefused++;
            reply.reply(refused);
            return;
        }
        if (request instanceof Read1 r) read1(reply, r);
        else if (request instanceof ReadAt r) readAt(reply, r);
        else if (request instanceof CohortWrite w) cohortWrite(reply, w);
        else if (request instanceof CoordWrite w) coordinator.coordWrite(reply, w);
        else if (request instanceof OutcomeQuery q) coordinator.outcomeQuery(reply, q);
    }

    private void read1(ClientReply reply, Read1 r) {
        state.receive(r.clock());
        metrics.firstRoundReads++;
        metrics.keysRead += r.keys().size();
        List<KeyVersion> out = new ArrayList<>(r.keys().size());
        for (Key k : r.keys()) {
            KeyState ks = keys.get(k);
            Version v = ks == null || ks.versions.isEmpty() ? null : ks.versions.lastEntry().getValue();
            long evt = v == null ? 0 : v.evt;
            long lvt = state.clock;
            if (ks != null && !ks.marks.isEmpty()) {
                long minPending = Long.MAX_VALUE;
                boolean mayTie = false;
                for (Map.Entry<TxnId, Long> m : ks.marks.entrySet()) {
                    minPending = Math.min(minPending, m.getValue());
                    // It commits above its pending time: at exactly evt too, and with a higher coordinator its stamp
                    // then wins over v's at evt itself. v is then not known to be valid at evt.
                    mayTie |= v != null && m.getValue() < evt
                            && pending.get(m.getKey()).coordinator > Stamps.coordinatorOf(v.stamp);
                }
                lvt = mayTie ? evt - 1 : Math.max(minPending - 1, evt);
            }
            out.add(v == null ? new KeyVersion(k, null, 0, 0, lvt, null) : new KeyVersion(k, v.value, v.stamp, v.evt, lvt, v.coordKey));
        }
        reply.reply(new ReadReply(r.requestId(), state.clock, out, false));
    }

    private void readAt(ClientReply reply, ReadAt r) {
        // Every later pending time and commit time at this partition is above t (a safe-side addition: an honest
        // client's clock is already above t).
        state.receive(Math.max(r.clock(), r.time()));
        metrics.secondRoundReads++;
        metrics.keysRead += r.keys().size();
        long t = r.time();
        TreeSet<TxnId> awaiting = new TreeSet<>();
        if (!state.bugs.contains(EigerBug.IGNORE_PENDING)) {
            for (Key k : r.keys()) {
                KeyState ks = keys.get(k);
                if (ks == null) continue;
                for (Map.Entry<TxnId, Long> m : ks.marks.entrySet())
                    if (m.getValue() <= t) awaiting.add(m.getKey());
            }
        }
        if (awaiting.isEmpty()) {
            answerReadAt(reply, r.requestId(), r.keys(), t, false);
            return;
        }
        metrics.thirdRounds++;
        HeldRead h = new HeldRead(reply, r.requestId(), r.keys(), t, awaiting, state.time.nowMicros());
        held.add(h);
        sendChecks(awaiting, t);
    }

    private void answerReadAt(ClientReply reply, long requestId, List<Key> ks, long t, boolean checked) {
        List<KeyVersion> out = new ArrayList<>(ks.size());
        for (Key k : ks) {
            KeyState st = keys.get(k);
            Version v = null;
            if (st != null)
                for (Version c : st.versions.descendingMap().values())
                    if (c.evt <= t) {
                        v = c;
                        break;
                    }
            if (v == null && st != null && st.collected) {
                metrics.snapshotsExpired++;
                reply.reply(ErrorReply.of(requestId, ErrorCode.SNAPSHOT_EXPIRED,
                        "versions of " + k + " at time " + t + " were collected; restart the read"));
                return;
            }
            out.add(v == null ? new KeyVersion(k, null, 0, 0, t, null) : new KeyVersion(k, v.value, v.stamp, v.evt, t, v.coordKey));
        }
        reply.reply(new ReadReply(requestId, state.clock, out, checked));
    }

    /** CheckTxn(ids, t) to each coordinator of {@code ids} (t = -1: a timeout check). */
    private void sendChecks(Set<TxnId> ids, long t) {
        TreeMap<Integer, List<TxnId>> byCoordinator = new TreeMap<>();
        for (TxnId id : ids) {
            PendingTxn p = pending.get(id);
            if (p == null) continue;
            byCoordinator.computeIfAbsent(p.coordinator, c -> new ArrayList<>()).add(id);
        }
        for (Map.Entry<Integer, List<TxnId>> e : byCoordinator.entrySet()) {
            metrics.checkTxnsSent++;
            state.send(e.getKey(), new CheckTxn(state.clock, e.getValue(), t));
        }
    }

    private void cohortWrite(ClientReply reply, CohortWrite w) {
        state.receive(w.clock());
        PendingTxn p = pending.get(w.txnId());
        if (p == null) {
            long pendingTime = ++state.clock;
            p = new PendingTxn(w.txnId(), w.coordinator(), w.coordKey(), pendingTime, w.writes(), state.time.nowMicros());
            pending.put(w.txnId(), p);
            state.writeLog.accepted(w.txnId(), w.writes());
            for (KeyValue kv : w.writes()) keys.computeIfAbsent(kv.key(), k -> new KeyState()).marks.put(w.txnId(), pendingTime);
            metrics.writesPrepared++;
        }
        state.send(p.coordinator, new YesVote(state.clock, p.txnId, p.pendingTime));
        reply.reply(new WriteAck(w.requestId(), state.clock));
    }

    // ---------------------------------------------------------------- peer messages

    @Override
    public void onPeerMessage(int from, PeerMessage message) {
        if (from < 0 || from >= state.topology.partitions()) return;
        if (message instanceof YesVote v) coordinator.onVote(from, v);
        else if (message instanceof Commit c) {
            state.receive(c.clock());
            applyCommit(c.txnId(), c.commitTime(), from);
        } else if (message instanceof Abort a) {
            state.receive(a.clock());
            dropPending(a.txnId());
        } else if (message instanceof Ack a) coordinator.onAck(from, a);
        else if (message instanceof CheckTxn c) coordinator.onCheck(from, c);
        else if (message instanceof CheckTxnReply r) onCheckReply(from, r);
        // anything else is another protocol's message: ignored
    }

    /** A cohort learns a commit (from Commit or a CheckTxn answer): applies its writes, drops the mark, acks. */
    private void applyCommit(TxnId id, long ct, int coordinator) {
        PendingTxn p = pending.remove(id);
        if (p != null) {
            long now = state.time.nowMicros();
            long stamp = Stamps.stamp(ct, p.coordinator);
            for (KeyValue kv : p.writes) {
                KeyState ks = keys.get(kv.key());
                ks.marks.remove(id);
                ks.versions.put(stamp, new Version(stamp, ct, kv.value(), p.coordKey, now));
            }
            metrics.writesCommitted++;
            resolved(id);
        }
        state.send(coordinator, new Ack(state.clock, id));
    }

    private void dropPending(TxnId id) {
        PendingTxn p = pending.remove(id);
        if (p == null) return;
        for (KeyValue kv : p.writes) keys.get(kv.key()).marks.remove(id);
        metrics.writesAborted++;
        resolved(id);
    }

    /** Transaction {@code id} is no longer pending here: held reads stop waiting for it. */
    private void resolved(TxnId id) {
        for (HeldRead h : held) h.awaiting.remove(id);
        answerReadyReads();
    }

    private void answerReadyReads() {
        for (Iterator<HeldRead> it = held.iterator(); it.hasNext(); ) {
            HeldRead h = it.next();
            if (!h.awaiting.isEmpty()) continue;
            it.remove();
            answerReadAt(h.reply, h.requestId, h.keys, h.time, true);
        }
    }

    private void onCheckReply(int from, CheckTxnReply r) {
        if (r.clock() < 0 || r.clock() > Stamps.MAX_CLOCK) return;
        state.receive(r.clock());
        for (TxnStatus s : r.statuses()) {
            PendingTxn p = pending.get(s.txnId());
            if (p == null || p.coordinator != from) continue;
            switch (s.outcome()) {
                case COMMITTED -> applyCommit(s.txnId(), s.commitTime(), from);
                case ABORTED -> dropPending(s.txnId());
                case UNDECIDED -> {
                    // It commits, if ever, at a time above r.clock(): reads at or before that need not wait for it.
                    for (HeldRead h : held) if (h.time <= r.clock()) h.awaiting.remove(s.txnId());
                }
            }
        }
        answerReadyReads();
    }

    // ---------------------------------------------------------------- tick

    @Override
    public void tick() {
        long now = state.time.nowMicros();
        long timeout = config.transactionTimeoutMicros();
        long interval = config.checkIntervalMicros();
        coordinator.tick(now);
        // Cohort: ask about transactions pending for longer than the timeout.
        TreeSet<TxnId> stale = new TreeSet<>();
        for (PendingTxn p : pending.values())
            if (now - p.markedAtMicros >= timeout && now - p.lastCheckMicros >= interval) {
                p.lastCheckMicros = now;
                stale.add(p.txnId);
            }
        if (!stale.isEmpty()) sendChecks(stale, -1);
        // Held reads whose CheckTxn (or its answer) may have been lost.
        for (HeldRead h : held)
            if (now - h.lastSentMicros >= interval) {
                h.lastSentMicros = now;
                sendChecks(h.awaiting, h.time);
            }
        if (now - lastGcMicros >= config.gcIntervalMicros()) {
            lastGcMicros = now;
            collect(now);
        }
    }

    /**
     * Drops the versions older than the newest version committed more than the retention ago (keeping at least the
     * newest). Commit times are Lamport times, so age is measured by the TimeSource at install.
     */
    private void collect(long now) {
        long horizon = now - config.versionRetentionMicros();
        for (KeyState ks : keys.values()) {
            if (ks.versions.size() < 2) continue;
            Long keepFrom = null;
            for (Version v : ks.versions.descendingMap().values())
                if (v.committedAtMicros < horizon) {
                    keepFrom = v.stamp;
                    break;
                }
            if (keepFrom == null) continue;
            Map<Long, Version> older = ks.versions.headMap(keepFrom, false);
            if (older.isEmpty()) continue;
            metrics.versionsCollected += older.size();
            older.clear();
            ks.collected = true;
        }
    }

    @Override
    public String toString() {
        return "EigerPartition{" + state.self + ", L=" + state.clock + ", pending=" + pending.size() + ", held=" + held.size()
                + ", coordinating=" + coordinator.coordinatingCount() + ", decisions=" + coordinator.decisionCount() + "}";
    }
}
