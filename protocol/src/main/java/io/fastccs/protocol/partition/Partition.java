package io.fastccs.protocol.partition;

import io.fastccs.protocol.ClockCompaction;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.ClientReply;
import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.protocol.api.PartitionStore.Decision;
import io.fastccs.core.api.PeerSink;
import io.fastccs.core.api.TimeSource;
import io.fastccs.core.api.Topology;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.protocol.messages.CompactCommit;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.Refused;
import io.fastccs.protocol.messages.StatusQuery;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.StabilizeDown;
import io.fastccs.protocol.messages.StabilizeUp;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;

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
 *
 * <p>This class is what hosts see: it takes requests, peer messages and ticks, and hands each to the role it
 * concerns (see the package's documentation for the roles and their layering).
 */
public final class Partition {
    private final PartitionState state;
    private final Stabilization stabilization;
    private final Collector collector;
    private final CompactFront front;
    private final Reads reads;
    private final Participant participant;
    private final Coordinator coordinator;

    private Partition(int self, PartitionConfig config, Topology topology, PartitionStore store, PeerSink peers,
                      TimeSource time) {
        this.state = new PartitionState(self, topology.partitions(), config, store, peers, time);
        Checks checks = new Checks(state, topology);
        long now = time.nowMicros();
        this.stabilization = new Stabilization(state, now);
        this.collector = new Collector(state, now);
        this.front = new CompactFront(state, stabilization);
        this.reads = new Reads(state, checks, stabilization);
        this.participant = new Participant(state, checks, collector);
        this.coordinator = new Coordinator(state, checks, stabilization, participant);
    }

    /**
     * Starts partition {@code self} from whatever {@code store} holds: empty for a new partition, or the durable
     * records of an earlier run after a crash.
     */
    public static Partition start(int self, PartitionConfig config, Topology topology, PartitionStore store,
                                  PeerSink peers, TimeSource time) {
        Partition p = new Partition(self, config, topology, store, peers, time);
        Recovery.recover(p.state, p.coordinator, p.participant, p.collector, store.recover());
        return p;
    }

    public int self() {
        return state.self;
    }

    public PartitionMetrics metrics() {
        return state.metrics;
    }

    /** A copy of the snapshot vector clock. */
    public VectorClock snapshot() {
        return VectorClock.of(state.svc);
    }

    /** {@code svc[self]}, the settled prefix. */
    public long settledPrefix() {
        return state.settledPrefix();
    }

    /**
     * From now on the host reports which part of the settled prefix is durable ({@link #onSettledDurable}), and reads
     * show this partition's own entry and versions only up to that part (docs/design/replication-reads.md, "What a read
     * answer rests on"): a read answer then depends on no write still on its way to disk or through the group's log, so the host
     * may send it at once instead of behind every write made before it. What recovery found is durable already.
     */
    public void trackDurableSettled() {
        state.trackDurableSettled();
    }

    /** The settled prefix up to {@code settled} is durable (the host saw the writes made up to its advance persist). */
    public void onSettledDurable(long settled) {
        state.onSettledDurable(settled);
    }

    /** How far reads show our own entry: the settled prefix, or its durable part when the host tracks that. */
    public long readableSettled() {
        return state.readableSettled();
    }

    /** The highest sequence number assigned so far. */
    public long lastSequence() {
        return state.lastSequence;
    }

    /** Write transactions prepared here whose sequence number is not yet within the settled prefix. */
    public int unsettledCount() {
        return state.unsettled.size();
    }

    /** This partition's decision on {@code id} as coordinator, or null (for tests). */
    Decision decisionOf(TxnId id) {
        return state.decisions.get(id);
    }

    public int pendingCount() {
        return state.pending.size();
    }

    /** The newest stable base we name to clients (0: none; for tests). */
    long stableEpoch() {
        return stabilization.stableEpoch();
    }

    /** Tests: the stable base of {@code epoch} this partition knows, or null. */
    long[] baseForTest(long epoch) {
        return stabilization.baseOf(epoch);
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
        return new ReadSnapshot(state.svc.clone(), state.time.nowMicros());
    }

    /**
     * Round one answered at {@code arrival}, the snapshot taken when the request arrived (null: now): the answer an
     * immediate answer would have been, unless the snapshot is older than the version retention (then it is answered
     * now; see Reads).
     */
    public void onFirstRoundRead(ClientReply reply, FirstRoundRead r, ReadSnapshot arrival) {
        if (arrival == null) reads.onFirstRoundRead(reply, r, null, 0);
        else reads.onFirstRoundRead(reply, r, arrival.svc(), arrival.time());
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
     * it (the client sends it again relative to epoch 0), and answered in compact form (CompactFront).
     */
    private void onCompactRequest(ClientReply reply, ClientRequest compact, ReadSnapshot arrival) {
        CompactFront.Expanded expanded = front.expand(reply, compact);
        if (expanded == null) return;
        // Our commit decision, if we coordinate this write, goes relative to the base its client named: the commit
        // clock is the client's clock with the participants' sequence numbers, so it names little beyond it.
        if (expanded.request() instanceof FirstRoundRead r) onFirstRoundRead(expanded.reply(), r, arrival);
        else dispatch(expanded.reply(), expanded.request(), expanded.baseEpoch());
    }

    /** A partition's snapshot clock and time at one moment; see {@link #readSnapshotNow()}. */
    public record ReadSnapshot(long[] svc, long time) {
    }

    /**
     * Round two (algorithm 2, lines 11-16): the newest versions with commit clock at most the client's merged clock.
     * The client's own entry for us is capped at what we settled, so no clock can make unsettled data visible.
     */
    public void onSecondRoundRead(ClientReply reply, SecondRoundRead r) {
        reads.onSecondRoundRead(reply, r);
    }

    /** A participant receives its part of a write-only transaction (algorithm 2, lines 17-26). */
    public void onWrite(ClientReply reply, WriteRequest w) {
        onWrite(reply, w, 0);
    }

    /**
     * As above, for a request whose clock was relative to the base of {@code baseEpoch} (0: none). When we coordinate
     * the transaction, our own part's outcome is the coordinator's next step.
     */
    private void onWrite(ClientReply reply, WriteRequest w, long baseEpoch) {
        switch (participant.onWrite(reply, w)) {
            case VOTED_HERE -> coordinator.onOwnVote(w, state.lastSequence, state.lastProposed, baseEpoch);
            case REFUSED_HERE -> coordinator.onRefusedHere(w);
            case ANSWERED, VOTED -> {
            }
        }
    }

    /** A client asks the coordinator what became of a transaction it lost track of. */
    public void onOutcomeQuery(ClientReply reply, OutcomeQuery q) {
        coordinator.onOutcomeQuery(reply, q);
    }

    // -------------------------------------------------------------------------------------------------- peer side

    /** Handles any message from partition {@code from}. Messages claiming an impossible sender are dropped. */
    public void onPeerMessage(int from, PeerMessage message) {
        if (from < 0 || from >= state.n || from == state.self) return;
        if (message instanceof Prepared p) coordinator.onPrepared(from, p);
        else if (message instanceof Commit c) participant.onCommit(from, c);
        else if (message instanceof Abort a) participant.onAbort(from, a);
        else if (message instanceof CheckCommit c) coordinator.onCheckCommit(from, c);
        else if (message instanceof Stabilize s) stabilization.onStabilize(from, s);
        else if (message instanceof StabilizeUp u) stabilization.onStabilizeUp(from, u);
        else if (message instanceof StabilizeDown d) stabilization.onStabilizeDown(from, d);
        else if (message instanceof CompactCommit c) onCompactCommit(from, c);
        else if (message instanceof Refused r) coordinator.onRefused(from, r);
        else if (message instanceof StatusQuery q) participant.onStatusQuery(from, q);
        else throw new IllegalArgumentException("unknown peer message " + message);
    }

    /**
     * A commit decision relative to a stable base. One we cannot expand is dropped, and we ask the coordinator at once
     * ({@link CheckCommit}): it answers relative to a newer base, or whole.
     */
    private void onCompactCommit(int from, CompactCommit c) {
        Commit full = front.expand(c);
        if (full != null) participant.onCommit(from, full);
        else participant.onUnexpandedCommit(from, c.txnId());
    }

    // -------------------------------------------------------------------------------------------------- time

    /**
     * Periodic work: stabilization, timeouts, GC and expiry of remembered outcomes. The host calls it often,
     * at least every stabilization interval; it does nothing that is not yet due.
     */
    public void tick() {
        long now = state.time.nowMicros();
        stabilization.tick(now);
        coordinator.checkTimeouts(now);
        participant.checkTimeouts(now);
        collector.tick(now);
    }

    @Override
    public String toString() {
        return "Partition{" + state.self + ", sn=" + state.lastSequence + ", svc[self]=" + state.settledPrefix()
                + ", unsettled=" + state.unsettled.size() + ", coordinating=" + coordinator.coordinatingCount() + "}";
    }
}
