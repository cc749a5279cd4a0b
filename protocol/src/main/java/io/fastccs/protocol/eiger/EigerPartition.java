package io.fastccs.protocol.eiger;

import io.fastccs.protocol.PartitionConfig;
import io.fastccs.protocol.RequestChecks;
import io.fastccs.protocol.api.ClientReply;
import io.fastccs.protocol.api.PeerSink;
import io.fastccs.protocol.api.TimeSource;
import io.fastccs.protocol.api.Topology;
import io.fastccs.protocol.api.WriteLog;
import io.fastccs.protocol.eiger.EigerMessages.Abort;
import io.fastccs.protocol.eiger.EigerMessages.Ack;
import io.fastccs.protocol.eiger.EigerMessages.CheckTxn;
import io.fastccs.protocol.eiger.EigerMessages.CheckTxnReply;
import io.fastccs.protocol.eiger.EigerMessages.CohortWrite;
import io.fastccs.protocol.eiger.EigerMessages.Commit;
import io.fastccs.protocol.eiger.EigerMessages.CoordWrite;
import io.fastccs.protocol.eiger.EigerMessages.KeyVersion;
import io.fastccs.protocol.eiger.EigerMessages.OutcomeQuery;
import io.fastccs.protocol.eiger.EigerMessages.OutcomeReply;
import io.fastccs.protocol.eiger.EigerMessages.Read1;
import io.fastccs.protocol.eiger.EigerMessages.ReadAt;
import io.fastccs.protocol.eiger.EigerMessages.ReadReply;
import io.fastccs.protocol.eiger.EigerMessages.TxnStatus;
import io.fastccs.protocol.eiger.EigerMessages.WriteAck;
import io.fastccs.protocol.eiger.EigerMessages.WriteReply;
import io.fastccs.protocol.eiger.EigerMessages.YesVote;
import io.fastccs.protocol.messages.ClientRequest;
import io.fastccs.protocol.messages.ErrorCode;
import io.fastccs.protocol.messages.ErrorReply;
import io.fastccs.protocol.messages.KeyValue;
import io.fastccs.protocol.messages.Outcome;
import io.fastccs.protocol.messages.PeerMessage;
import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.spi.PartitionServer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
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
 */
public final class EigerPartition implements PartitionServer {
    /** Far above any Lamport time a real run reaches, and low enough that {@code time << 16} cannot overflow. */
    static final long MAX_CLOCK = 1L << 46;
    static final int MAX_PARTITIONS = 1 << 16;

    private final int self;
    private final PartitionConfig config;
    private final Topology topology;
    private final RequestChecks checks;
    private final PeerSink peers;
    private final TimeSource time;
    private final Set<EigerBug> bugs;
    private final EigerMetrics metrics = new EigerMetrics();

    /** Lamport clock. */
    private long clock;
    private final TreeMap<Key, KeyState> keys = new TreeMap<>();
    /** Transactions this partition is a cohort of and has marked pending, by id. */
    private final TreeMap<TxnId, PendingTxn> pending = new TreeMap<>();
    /** Round-two reads waiting for CheckTxn answers, in arrival order. */
    private final List<HeldRead> held = new ArrayList<>();
    /** Transactions this partition coordinates that are not decided yet (request or votes seen). */
    private final TreeMap<TxnId, CoordTxn> coordinating = new TreeMap<>();
    /** Decisions of transactions this partition coordinated (or presumed aborted). */
    private final TreeMap<TxnId, Decision> decisions = new TreeMap<>();
    /** The same, in decision order, for expiry: the tick looks at the oldest only, not at every decision kept. */
    private final ArrayDeque<DecisionEntry> decisionOrder = new ArrayDeque<>();
    /** The commits some cohort has not acknowledged yet: the ones the tick resends. */
    private final TreeMap<TxnId, Decision> unackedDecisions = new TreeMap<>();
    private long lastGcMicros;

    private static final class Version {
        final long stamp;
        final long evt;
        final byte[] value;
        final Key coordKey;
        final long committedAtMicros;

        Version(long stamp, long evt, byte[] value, Key coordKey, long committedAtMicros) {
            this.stamp = stamp;
            this.evt = evt;
            this.value = value;
            this.coordKey = coordKey;
            this.committedAtMicros = committedAtMicros;
        }
    }

    private static final class KeyState {
        final TreeMap<Long, Version> versions = new TreeMap<>();
        /** Pending marks: transaction id to pending time. */
        final TreeMap<TxnId, Long> marks = new TreeMap<>();
        /** Versions of this key were collected: reads at times before the oldest kept version cannot be answered. */
        boolean collected;
    }

    private static final class PendingTxn {
        final TxnId txnId;
        final int coordinator;
        final Key coordKey;
        final long pendingTime;
        final List<KeyValue> writes;
        final long markedAtMicros;
        long lastCheckMicros;

        PendingTxn(TxnId txnId, int coordinator, Key coordKey, long pendingTime, List<KeyValue> writes, long now) {
            this.txnId = txnId;
            this.coordinator = coordinator;
            this.coordKey = coordKey;
            this.pendingTime = pendingTime;
            this.writes = writes;
            this.markedAtMicros = now;
            this.lastCheckMicros = now;
        }
    }

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

    /** Where prepared and committed writes are made durable (the nodes); nowhere in the simulator. */
    private final WriteLog writeLog;

    EigerPartition(int self, PartitionConfig config, Topology topology, PeerSink peers, TimeSource time, WriteLog writeLog,
                   Set<EigerBug> bugs) {
        this.writeLog = writeLog;
        if (topology.partitions() > MAX_PARTITIONS)
            throw new IllegalArgumentException("Eiger stamps hold at most " + MAX_PARTITIONS + " partitions, got " + topology.partitions());
        this.self = self;
        this.config = config;
        this.topology = topology;
        this.checks = new RequestChecks(config, topology, self);
        this.peers = peers;
        this.time = time;
        this.bugs = bugs;
        this.lastGcMicros = time.nowMicros();
    }

    static long stamp(long commitTime, int coordinator) {
        return (commitTime << 16) | coordinator;
    }

    static long commitTimeOf(long stamp) {
        return stamp >>> 16;
    }

    static int coordinatorOf(long stamp) {
        return (int) (stamp & 0xFFFF);
    }

    @Override
    public int self() {
        return self;
    }

    public EigerMetrics metrics() {
        return metrics;
    }

    /** The Lamport clock (for tests and reports). */
    public long clock() {
        return clock;
    }

    private void receive(long remote) {
        clock = Math.max(clock, remote) + 1;
    }

    // ---------------------------------------------------------------- client requests

    @Override
    public void onClientRequest(ClientReply reply, ClientRequest request) {
        ErrorReply refused;
        if (request instanceof Read1 r) refused = checkKeys(r.requestId(), r.clock(), r.keys());
        else if (request instanceof ReadAt r) {
            refused = checkKeys(r.requestId(), r.clock(), r.keys());
            if (refused == null && (r.time() < 0 || r.time() > MAX_CLOCK))
                refused = invalid(r.requestId(), "read time " + r.time() + " out of range");
        } else if (request instanceof CohortWrite w) refused = checkCohortWrite(w);
        else if (request instanceof CoordWrite w) refused = checkCoordWrite(w);
        else if (request instanceof OutcomeQuery q) refused = checkClock(q.requestId(), q.clock());
        else refused = invalid(request.requestId(), "not an Eiger request: " + request.getClass().getSimpleName());
        if (refused != null) {
            metrics.requestsRefused++;
            reply.reply(refused);
            return;
        }
        if (request instanceof Read1 r) read1(reply, r);
        else if (request instanceof ReadAt r) readAt(reply, r);
        else if (request instanceof CohortWrite w) cohortWrite(reply, w);
        else if (request instanceof CoordWrite w) coordWrite(reply, w);
        else if (request instanceof OutcomeQuery q) outcomeQuery(reply, q);
    }

    private void read1(ClientReply reply, Read1 r) {
        receive(r.clock());
        metrics.firstRoundReads++;
        metrics.keysRead += r.keys().size();
        List<KeyVersion> out = new ArrayList<>(r.keys().size());
        for (Key k : r.keys()) {
            KeyState ks = keys.get(k);
            Version v = ks == null || ks.versions.isEmpty() ? null : ks.versions.lastEntry().getValue();
            long evt = v == null ? 0 : v.evt;
            long lvt = clock;
            if (ks != null && !ks.marks.isEmpty()) {
                long minPending = Long.MAX_VALUE;
                boolean mayTie = false;
                for (Map.Entry<TxnId, Long> m : ks.marks.entrySet()) {
                    minPending = Math.min(minPending, m.getValue());
                    // It commits above its pending time: at exactly evt too, and with a higher coordinator its stamp
                    // then wins over v's at evt itself. v is then not known to be valid at evt.
                    mayTie |= v != null && m.getValue() < evt && pending.get(m.getKey()).coordinator > coordinatorOf(v.stamp);
                }
                lvt = mayTie ? evt - 1 : Math.max(minPending - 1, evt);
            }
            out.add(v == null ? new KeyVersion(k, null, 0, 0, lvt, null) : new KeyVersion(k, v.value, v.stamp, v.evt, lvt, v.coordKey));
        }
        reply.reply(new ReadReply(r.requestId(), clock, out, false));
    }

    private void readAt(ClientReply reply, ReadAt r) {
        // Every later pending time and commit time at this partition is above t (a safe-side addition: an honest
        // client's clock is already above t).
        receive(Math.max(r.clock(), r.time()));
        metrics.secondRoundReads++;
        metrics.keysRead += r.keys().size();
        long t = r.time();
        TreeSet<TxnId> awaiting = new TreeSet<>();
        if (!bugs.contains(EigerBug.IGNORE_PENDING)) {
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
        HeldRead h = new HeldRead(reply, r.requestId(), r.keys(), t, awaiting, time.nowMicros());
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
        reply.reply(new ReadReply(requestId, clock, out, checked));
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
            send(e.getKey(), new CheckTxn(clock, e.getValue(), t));
        }
    }

    private void cohortWrite(ClientReply reply, CohortWrite w) {
        receive(w.clock());
        PendingTxn p = pending.get(w.txnId());
        if (p == null) {
            long pendingTime = ++clock;
            p = new PendingTxn(w.txnId(), w.coordinator(), w.coordKey(), pendingTime, w.writes(), time.nowMicros());
            pending.put(w.txnId(), p);
            writeLog.accepted(w.txnId(), w.writes());
            for (KeyValue kv : w.writes()) keys.computeIfAbsent(kv.key(), k -> new KeyState()).marks.put(w.txnId(), pendingTime);
            metrics.writesPrepared++;
        }
        send(p.coordinator, new YesVote(clock, p.txnId, p.pendingTime));
        reply.reply(new WriteAck(w.requestId(), clock));
    }

    private void coordWrite(ClientReply reply, CoordWrite w) {
        receive(w.clock());
        Decision d = decisions.get(w.txnId());
        if (d != null) {
            reply.reply(new WriteReply(w.requestId(), clock, d.outcome,
                    d.outcome == Outcome.COMMITTED ? stamp(d.commitTime, self) : 0));
            return;
        }
        CoordTxn c = coordinating.computeIfAbsent(w.txnId(), id -> new CoordTxn(id, time.nowMicros()));
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
        clock = Math.max(clock, maxVote) + 1;
        long ct = clock;
        long now = time.nowMicros();
        writeLog.accepted(c.txnId, c.writes);
        for (KeyValue kv : c.writes) install(kv.key(), new Version(stamp(ct, self), ct, kv.value(), c.coordKey, now));
        coordinating.remove(c.txnId);
        decided(c.txnId, new Decision(Outcome.COMMITTED, ct, now, new TreeSet<>(c.cohorts)));
        metrics.writesCommitted++;
        for (int p : c.cohorts) send(p, new Commit(clock, c.txnId, ct));
        c.reply.reply(new WriteReply(c.requestId, clock, Outcome.COMMITTED, stamp(ct, self)));
    }

    private void install(Key k, Version v) {
        keys.computeIfAbsent(k, x -> new KeyState()).versions.put(v.stamp, v);
    }

    private void outcomeQuery(ClientReply reply, OutcomeQuery q) {
        receive(q.clock());
        Decision d = decisions.get(q.txnId());
        if (d == null && !coordinating.containsKey(q.txnId())) d = presumeAbort(q.txnId());
        if (d == null) {
            reply.reply(new OutcomeReply(q.requestId(), clock, Outcome.UNDECIDED, 0));
        } else {
            reply.reply(new OutcomeReply(q.requestId(), clock, d.outcome,
                    d.outcome == Outcome.COMMITTED ? stamp(d.commitTime, self) : 0));
        }
    }

    /**
     * Records an abort for a transaction this coordinator has not heard of, so its request, should it arrive late,
     * is answered ABORTED and never commits.
     */
    private Decision presumeAbort(TxnId id) {
        metrics.presumedAborts++;
        metrics.writesAborted++;
        Decision d = new Decision(Outcome.ABORTED, 0, time.nowMicros(), new TreeSet<>());
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
        decided(c.txnId, new Decision(Outcome.ABORTED, 0, time.nowMicros(), new TreeSet<>()));
        metrics.writesAborted++;
        for (int p : c.votes.keySet()) if (p != self) send(p, new Abort(clock, c.txnId));
        if (c.haveRequest) c.reply.reply(new WriteReply(c.requestId, clock, Outcome.ABORTED, 0));
    }

    // ---------------------------------------------------------------- peer messages

    @Override
    public void onPeerMessage(int from, PeerMessage message) {
        if (from < 0 || from >= topology.partitions()) return;
        if (message instanceof YesVote v) onVote(from, v);
        else if (message instanceof Commit c) {
            receive(c.clock());
            applyCommit(c.txnId(), c.commitTime(), from);
        } else if (message instanceof Abort a) {
            receive(a.clock());
            dropPending(a.txnId());
        } else if (message instanceof Ack a) {
            receive(a.clock());
            Decision d = decisions.get(a.txnId());
            if (d != null && d.unacked.remove(from) && d.unacked.isEmpty()) {
                unackedDecisions.remove(a.txnId());
                if (d.expired) decisions.remove(a.txnId());
            }
        } else if (message instanceof CheckTxn c) onCheck(from, c);
        else if (message instanceof CheckTxnReply r) onCheckReply(from, r);
        // anything else is another protocol's message: ignored
    }

    private void onVote(int from, YesVote v) {
        if (v.clock() < 0 || v.clock() > MAX_CLOCK || v.pendingTime() < 0 || v.pendingTime() > MAX_CLOCK) return;
        receive(v.clock());
        Decision d = decisions.get(v.txnId());
        if (d != null) {
            if (d.outcome == Outcome.COMMITTED) send(from, new Commit(clock, v.txnId(), d.commitTime));
            else send(from, new Abort(clock, v.txnId()));
            return;
        }
        CoordTxn c = coordinating.computeIfAbsent(v.txnId(), id -> new CoordTxn(id, time.nowMicros()));
        c.votes.put(from, v.pendingTime());
        tryCommit(c);
    }

    /** A cohort learns a commit (from Commit or a CheckTxn answer): applies its writes, drops the mark, acks. */
    private void applyCommit(TxnId id, long ct, int coordinator) {
        PendingTxn p = pending.remove(id);
        if (p != null) {
            long now = time.nowMicros();
            for (KeyValue kv : p.writes) {
                KeyState ks = keys.get(kv.key());
                ks.marks.remove(id);
                ks.versions.put(stamp(ct, p.coordinator), new Version(stamp(ct, p.coordinator), ct, kv.value(), p.coordKey, now));
            }
            metrics.writesCommitted++;
            resolved(id);
        }
        send(coordinator, new Ack(clock, id));
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

    private void onCheck(int from, CheckTxn c) {
        if (c.clock() < 0 || c.clock() > MAX_CLOCK) return;
        receive(c.clock());
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
        send(from, new CheckTxnReply(clock, out));
    }

    private void onCheckReply(int from, CheckTxnReply r) {
        if (r.clock() < 0 || r.clock() > MAX_CLOCK) return;
        receive(r.clock());
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
        long now = time.nowMicros();
        long timeout = config.transactionTimeoutMicros();
        long interval = config.checkIntervalMicros();
        // Coordinator: abort what did not gather its request and every vote in time.
        List<CoordTxn> expired = new ArrayList<>();
        for (CoordTxn c : coordinating.values()) if (now - c.firstHeardMicros >= timeout) expired.add(c);
        for (CoordTxn c : expired) {
            metrics.coordinatorTimeouts++;
            abort(c);
        }
        // Coordinator: resend commits not acknowledged; forget old decisions (kept while a cohort has not acknowledged).
        for (Map.Entry<TxnId, Decision> e : unackedDecisions.entrySet()) {
            Decision d = e.getValue();
            if (now - d.lastResendMicros >= Math.max(interval, timeout / 4)) {
                d.lastResendMicros = now;
                for (int p : d.unacked) send(p, new Commit(clock, e.getKey(), d.commitTime));
            }
        }
        while (!decisionOrder.isEmpty() && now - decisionOrder.peekFirst().decision().decidedAtMicros >= config.decisionRetentionMicros()) {
            DecisionEntry oldest = decisionOrder.pollFirst();
            if (decisions.get(oldest.txnId()) != oldest.decision()) continue; // forgotten and decided again since
            if (oldest.decision().unacked.isEmpty()) decisions.remove(oldest.txnId());
            else oldest.decision().expired = true;
        }
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

    private void send(int to, PeerMessage m) {
        peers.send(to, m);
    }

    // ---------------------------------------------------------------- validation

    private ErrorReply checkClock(long requestId, long remote) {
        if (remote < 0 || remote > MAX_CLOCK) return invalid(requestId, "clock " + remote + " out of range");
        return null;
    }

    private ErrorReply checkKeys(long requestId, long remote, List<Key> ks) {
        ErrorReply e = checkClock(requestId, remote);
        return e != null ? e : checks.keys(requestId, ks);
    }

    private ErrorReply checkWrites(long requestId, long remote, TxnId txnId, List<KeyValue> writes) {
        ErrorReply e = checkClock(requestId, remote);
        if (e != null) return e;
        if (txnId == null) return invalid(requestId, "no transaction id");
        return checks.writes(requestId, writes);
    }

    private ErrorReply checkCohortWrite(CohortWrite w) {
        ErrorReply e = checkWrites(w.requestId(), w.clock(), w.txnId(), w.writes());
        if (e != null) return e;
        int n = topology.partitions();
        if (w.coordinator() < 0 || w.coordinator() >= n) return invalid(w.requestId(), "coordinator " + w.coordinator() + " out of range");
        if (w.coordinator() == self) return invalid(w.requestId(), "a cohort write sent to its own coordinator " + self);
        if (w.coordKey() == null || w.coordKey().length() == 0) return invalid(w.requestId(), "empty coordinator key");
        if (topology.ownerOf(w.coordKey()) != w.coordinator())
            return invalid(w.requestId(), "coordinator key " + w.coordKey() + " is not owned by coordinator " + w.coordinator());
        PendingTxn p = pending.get(w.txnId());
        if (p != null && p.coordinator != w.coordinator())
            return invalid(w.requestId(), "transaction " + w.txnId() + " is pending with another coordinator");
        return null;
    }

    private ErrorReply checkCoordWrite(CoordWrite w) {
        ErrorReply e = checkWrites(w.requestId(), w.clock(), w.txnId(), w.writes());
        if (e != null) return e;
        e = checks.key(w.requestId(), w.coordKey());
        if (e != null) return e;
        int n = topology.partitions();
        if (w.participants().isEmpty() || w.participants().size() > n) return invalid(w.requestId(), "bad participant list " + w.participants());
        Set<Integer> seen = new HashSet<>();
        for (Integer p : w.participants())
            if (p == null || p < 0 || p >= n || !seen.add(p)) return invalid(w.requestId(), "bad participant list " + w.participants());
        if (!seen.contains(self)) return invalid(w.requestId(), "participants " + w.participants() + " do not include coordinator " + self);
        if (w.deps().size() > config.maxKeysPerRequest())
            return invalid(w.requestId(), w.deps().size() + " dependencies, more than the maximum of " + config.maxKeysPerRequest());
        return null;
    }

    private static ErrorReply invalid(long requestId, String message) {
        return RequestChecks.invalid(requestId, message);
    }

    @Override
    public String toString() {
        return "EigerPartition{" + self + ", L=" + clock + ", pending=" + pending.size() + ", held=" + held.size()
                + ", coordinating=" + coordinating.size() + ", decisions=" + decisions.size() + "}";
    }
}
