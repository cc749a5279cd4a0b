package io.fastccs.baselines.eiger;

import io.fastccs.core.api.ClientReply;
import io.fastccs.baselines.eiger.EigerMessages.Abort;
import io.fastccs.baselines.eiger.EigerMessages.Ack;
import io.fastccs.baselines.eiger.EigerMessages.CheckTxn;
import io.fastccs.baselines.eiger.EigerMessages.CheckTxnReply;
import io.fastccs.baselines.eiger.EigerMessages.Commit;
import io.fastccs.baselines.eiger.EigerMessages.CoordWrite;
import io.fastccs.baselines.eiger.EigerMessages.OutcomeQuery;
import io.fastccs.baselines.eiger.EigerMessages.OutcomeReply;
import io.fastccs.baselines.eiger.EigerMessages.TxnStatus;
import io.fastccs.baselines.eiger.EigerMessages.WriteReply;
import io.fastccs.baselines.eiger.EigerMessages.YesVote;
import io.fastccs.baselines.eiger.EigerState.Version;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The coordinator side of Eiger's two-phase commit: it gathers the client's request and the cohorts' votes, commits
 * its own writes at a Lamport time above every vote, tells the cohorts until each acknowledges, and answers CheckTxn
 * and outcome questions about what it decided, presuming abort for what it never heard of.
 */
final class EigerCoordinator {
    private final EigerState state;
    private final EigerMetrics metrics;
    private final int self;

    /** Transactions this partition coordinates that are not decided yet (request or votes seen). */
    private final TreeMap<TxnId, CoordTxn> coordinating = new TreeMap<>();
    /** Decisions of transactions this partition coordinated (or presumed aborted). */
    private final TreeMap<TxnId, Decision> decisions = new TreeMap<>();
    /** The same, in decision order, for expiry: the tick looks at the oldest only, not at every decision kept. */
    private final ArrayDeque<DecisionEntry> decisionOrder = new ArrayDeque<>();
    /** The commits some cohort has not acknowledged yet: the ones the tick resends. */
    private final TreeMap<TxnId, Decision> unackedDecisions = new TreeMap<>();

    private static final class CoordTxn {
        final TxnId txnId;
        final long firstHeardMicros;
        boolean haveRequest;
        ClientReply reply;
        long requestId;
        Key coordKey;
        List<KeyValue> writes = List.of();
        final TreeSet<Integer> cohorts = new TreeSet<>();
        final TreeMap<Integer, Long> votes = new TreeMap<>();

        CoordTxn(TxnId txnId, long now) {
            this.txnId = txnId;
            this.firstHeardMicros = now;
        }
    }

    private static final class Decision {
        final Outcome outcome;
        final long commitTime;
        final long decidedAtMicros;
        /** Cohorts that have not acknowledged a commit yet. */
        final TreeSet<Integer> unacked;
        long lastResendMicros;
        /** Past its retention while still unacknowledged: forgotten with its last acknowledgement. */
        boolean expired;

        Decision(Outcome outcome, long commitTime, long now, TreeSet<Integer> unacked) {
            this.outcome = outcome;
            this.commitTime = commitTime;
            this.decidedAtMicros = now;
            this.unacked = unacked;
            this.lastResendMicros = now;
        }
    }

    private record DecisionEntry(TxnId txnId, Decision decision) {
    }

    EigerCoordinator(EigerState state) {
        this.state = state;
        this.metrics = state.metrics;
        this.self = state.self;
    }

    int coordinatingCount() {
        return coordinating.size();
    }

    int decisionCount() {
        return decisions.size();
    }

    void coordWrite(ClientReply reply, CoordWrite w) {
        state.receive(w.clock());
        Decision d = decisions.get(w.txnId());
        if (d != null) {
            reply.reply(new WriteReply(w.requestId(), state.clock, d.outcome,
                    d.outcome == Outcome.COMMITTED ? Stamps.stamp(d.commitTime, self) : 0));
            return;
        }
        CoordTxn c = coordinating.computeIfAbsent(w.txnId(), id -> new CoordTxn(id, state.time.nowMicros()));
        c.haveRequest = true;
        c.reply = reply;
        c.requestId = w.requestId();
        c.coordKey = w.coordKey();
        c.writes = w.writes();
        c.cohorts.clear();
        for (int p : w.participants()) if (p != self) c.cohorts.add(p);
        // The dependency set w.deps() is not checked: in Eiger only a remote datacenter's replication checks
        // dependencies (StorageProxy.checkDependencies), and in a single datacenter there is none. It is carried (and
        // costs its bytes) as in Eiger.
        tryCommit(c);
    }

    private void tryCommit(CoordTxn c) {
        if (!c.haveRequest || !c.votes.keySet().containsAll(c.cohorts)) return;
        long maxVote = 0;
        for (int p : c.cohorts) maxVote = Math.max(maxVote, c.votes.get(p));
        state.clock = Math.max(state.clock, maxVote) + 1;
        long ct = state.clock;
        long now = state.time.nowMicros();
        state.writeLog.accepted(c.txnId, c.writes);
        for (KeyValue kv : c.writes)
            state.install(kv.key(), new Version(Stamps.stamp(ct, self), ct, kv.value(), c.coordKey, now));
        coordinating.remove(c.txnId);
        decided(c.txnId, new Decision(Outcome.COMMITTED, ct, now, new TreeSet<>(c.cohorts)));
        metrics.writesCommitted++;
        for (int p : c.cohorts) state.send(p, new Commit(state.clock, c.txnId, ct));
        c.reply.reply(new WriteReply(c.requestId, state.clock, Outcome.COMMITTED, Stamps.stamp(ct, self)));
    }

    void outcomeQuery(ClientReply reply, OutcomeQuery q) {
        state.receive(q.clock());
        Decision d = decisions.get(q.txnId());
        if (d == null && !coordinating.containsKey(q.txnId())) d = presumeAbort(q.txnId());
        if (d == null) {
            reply.reply(new OutcomeReply(q.requestId(), state.clock, Outcome.UNDECIDED, 0));
        } else {
            reply.reply(new OutcomeReply(q.requestId(), state.clock, d.outcome,
                    d.outcome == Outcome.COMMITTED ? Stamps.stamp(d.commitTime, self) : 0));
        }
    }

    /**
     * Records an abort for a transaction this coordinator has not heard of, so its request, should it arrive late,
     * is answered ABORTED and never commits.
     */
    private Decision presumeAbort(TxnId id) {
        metrics.presumedAborts++;
        metrics.writesAborted++;
        Decision d = new Decision(Outcome.ABORTED, 0, state.time.nowMicros(), new TreeSet<>());
        decided(id, d);
        return d;
    }

    private void decided(TxnId id, Decision d) {
        decisions.put(id, d);
        decisionOrder.addLast(new DecisionEntry(id, d));
        if (!d.unacked.isEmpty()) unackedDecisions.put(id, d);
    }

    /** Aborts an undecided coordinated transaction: tells the client and the cohorts that voted. */
    private void abort(CoordTxn c) {
        coordinating.remove(c.txnId);
        decided(c.txnId, new Decision(Outcome.ABORTED, 0, state.time.nowMicros(), new TreeSet<>()));
        metrics.writesAborted++;
        for (int p : c.votes.keySet()) if (p != self) state.send(p, new Abort(state.clock, c.txnId));
        if (c.haveRequest) c.reply.reply(new WriteReply(c.requestId, state.clock, Outcome.ABORTED, 0));
    }

    void onVote(int from, YesVote v) {
        if (v.clock() < 0 || v.clock() > Stamps.MAX_CLOCK || v.pendingTime() < 0 || v.pendingTime() > Stamps.MAX_CLOCK)
            return;
        state.receive(v.clock());
        Decision d = decisions.get(v.txnId());
        if (d != null) {
            if (d.outcome == Outcome.COMMITTED) state.send(from, new Commit(state.clock, v.txnId(), d.commitTime));
            else state.send(from, new Abort(state.clock, v.txnId()));
            return;
        }
        CoordTxn c = coordinating.computeIfAbsent(v.txnId(), id -> new CoordTxn(id, state.time.nowMicros()));
        c.votes.put(from, v.pendingTime());
        tryCommit(c);
    }

    void onAck(int from, Ack a) {
        state.receive(a.clock());
        Decision d = decisions.get(a.txnId());
        if (d != null && d.unacked.remove(from) && d.unacked.isEmpty()) {
            unackedDecisions.remove(a.txnId());
            if (d.expired) decisions.remove(a.txnId());
        }
    }

    void onCheck(int from, CheckTxn c) {
        if (c.clock() < 0 || c.clock() > Stamps.MAX_CLOCK) return;
        state.receive(c.clock());
        List<TxnStatus> out = new ArrayList<>(c.txnIds().size());
        for (TxnId id : c.txnIds()) {
            Decision d = decisions.get(id);
            if (d == null && c.time() < 0 && !coordinating.containsKey(id)) {
                // A cohort held this transaction pending for a transaction timeout and we never heard of it: abort.
                d = presumeAbort(id);
            }
            if (d != null) out.add(new TxnStatus(id, d.outcome, d.commitTime));
            else out.add(new TxnStatus(id, Outcome.UNDECIDED, 0));
        }
        // For UNDECIDED: this partition's clock is now above the asker's, which is above the read time; a later commit
        // takes a time above the clock sent here.
        state.send(from, new CheckTxnReply(state.clock, out));
    }

    /** The coordinator's part of the partition's tick. */
    void tick(long now) {
        long timeout = state.config.transactionTimeoutMicros();
        long interval = state.config.checkIntervalMicros();
        // Abort what did not gather its request and every vote in time.
        List<CoordTxn> expired = new ArrayList<>();
        for (CoordTxn c : coordinating.values()) if (now - c.firstHeardMicros >= timeout) expired.add(c);
        for (CoordTxn c : expired) {
            metrics.coordinatorTimeouts++;
            abort(c);
        }
        // Resend commits not acknowledged; forget old decisions (kept while a cohort has not acknowledged).
        for (Map.Entry<TxnId, Decision> e : unackedDecisions.entrySet()) {
            Decision d = e.getValue();
            if (now - d.lastResendMicros >= Math.max(interval, timeout / 4)) {
                d.lastResendMicros = now;
                for (int p : d.unacked) state.send(p, new Commit(state.clock, e.getKey(), d.commitTime));
            }
        }
        long retention = state.config.decisionRetentionMicros();
        while (!decisionOrder.isEmpty() && now - decisionOrder.peekFirst().decision().decidedAtMicros >= retention) {
            DecisionEntry oldest = decisionOrder.pollFirst();
            if (decisions.get(oldest.txnId()) != oldest.decision()) continue; // forgotten and decided again since
            if (oldest.decision().unacked.isEmpty()) decisions.remove(oldest.txnId());
            else oldest.decision().expired = true;
        }
    }
}
