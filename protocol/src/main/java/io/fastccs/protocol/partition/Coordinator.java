package io.fastccs.protocol.partition;

import io.fastccs.protocol.Bug;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.ClientReply;
import io.fastccs.protocol.api.PartitionStore.Decision;
import io.fastccs.protocol.api.PartitionStore.TxnRecord;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.protocol.messages.BasedClock;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.protocol.messages.CompactCommit;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.Refused;
import io.fastccs.protocol.messages.StatusQuery;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The coordinator of a write-only transaction (algorithm 2, lines 27-34, and the fault handling of section 3.8): it
 * collects the participants' votes (sequence number and proposed commit time, each durable in its prepare), decides,
 * and answers participants and clients that ask about it later. A commit is implied by the durable prepares, so it is
 * told at once and recorded lazily; an abort is recorded durably before anyone hears of it. A coordinator that lost its
 * votes resolves the transaction from the participants' records (docs/design/one-round-writes.md). Our own part of a
 * transaction we coordinate is the participant's; a decision is applied to it last.
 */
final class Coordinator {
    private final PartitionState state;
    private final PartitionConfig config;
    private final Checks checks;
    private final Stabilization stabilization;
    private final Participant participant;
    private final int self;

    /** Transactions we coordinate that are still collecting votes. */
    private final Map<TxnId, Coordination> coordinating = new LinkedHashMap<>();

    /** A vote: the participant's sequence number and the commit time it proposed. */
    private record Vote(long sequence, long proposedTime) {
    }

    private static final class Coordination {
        final long firstSeenAt;
        List<Integer> participants;
        VectorClock clientClock;
        /** The stable base epoch the client's request named (0: none). */
        long clientBaseEpoch;
        final Map<Integer, Vote> votes = new LinkedHashMap<>();
        /**
         * Resolving after we lost our votes: every participant was asked for its record, and only a refusal aborts, never
         * a timeout (a participant that is slow to answer may hold a prepare whose commit was told before the crash).
         */
        boolean resolving;
        long nextQueryAt;

        Coordination(long firstSeenAt) {
            this.firstSeenAt = firstSeenAt;
        }
    }

    Coordinator(PartitionState state, Checks checks, Stabilization stabilization, Participant participant) {
        this.state = state;
        this.config = state.config;
        this.checks = checks;
        this.stabilization = stabilization;
        this.participant = participant;
        this.self = state.self;
    }

    /** Transactions still collecting votes here. */
    int coordinatingCount() {
        return coordinating.size();
    }

    /**
     * Our own vote, on the write request we just prepared as a participant, with the client's clock and dependency time
     * and the base epoch its clock was relative to (0: none).
     */
    void onOwnVote(WriteRequest w, long sequence, long proposedTime, long clientBaseEpoch) {
        TxnId id = w.txnId();
        Coordination c = coordinating.computeIfAbsent(id, x -> new Coordination(state.time.nowMicros()));
        if (c.participants != null && !sameSet(c.participants, w.participants())) {
            abortConflicting(id, c, w.participants());
            return;
        }
        c.participants = w.participants();
        c.clientClock = w.clock();
        c.clientBaseEpoch = clientBaseEpoch;
        c.votes.put(self, new Vote(sequence, proposedTime));
        maybeCommit(id, c);
    }

    /**
     * Status resolution (docs/design/one-round-writes.md, "Recovery is status resolution"): we restarted with our own
     * prepare of a transaction we coordinate and no decision, so its votes are gone and a commit may have been told.
     * Every other participant is asked what it holds; all prepares: the same commit as before (the commit clock and
     * time are functions of the prepares); any refusal: abort.
     */
    void resolve(TxnRecord own) {
        TxnId id = own.txnId();
        Coordination c = new Coordination(state.time.nowMicros());
        c.participants = own.participants();
        c.clientClock = own.clientClock();
        c.resolving = true;
        c.votes.put(self, new Vote(own.sequence(), own.proposedTime()));
        coordinating.put(id, c);
        state.metrics.resolutions++;
        query(id, c, c.firstSeenAt);
        maybeCommit(id, c);
    }

    private void query(TxnId id, Coordination c, long now) {
        StatusQuery q = new StatusQuery(id, self, c.participants);
        for (int p : c.participants) if (p != self && !c.votes.containsKey(p)) state.peers.send(p, q);
        c.nextQueryAt = now + config.checkIntervalMicros();
    }

    /** Our own part refused the write request: abort at once, unless already decided. */
    void onRefusedHere(WriteRequest w) {
        if (!state.decisions.containsKey(w.txnId())) decide(w.txnId(), w.participants(), Outcome.ABORTED, null, 0);
    }

    /** The coordinator collects a participant's sequence number (algorithm 2, lines 27-34). */
    void onPrepared(int from, Prepared p) {
        if (p.from() != from || !checks.validParticipants(p.participants()) || !p.participants().contains(from)
                || !p.participants().contains(self) || p.sequence() <= 0) return;
        TxnId id = p.txnId();
        Decision d = state.decisions.get(id);
        if (d != null) { // a late or repeated vote: tell the voter what was decided
            if (d.participants().isEmpty() || d.participants().contains(from))
                state.peers.send(from, d.outcome() == Outcome.COMMITTED ? commitMessage(d, 0) : new Abort(id));
            return;
        }
        Coordination c = coordinating.computeIfAbsent(id, x -> new Coordination(state.time.nowMicros()));
        if (c.participants == null) c.participants = p.participants();
        else if (!sameSet(c.participants, p.participants())) {
            abortConflicting(id, c, p.participants());
            return;
        }
        c.votes.put(from, new Vote(p.sequence(), p.proposedTime()));
        maybeCommit(id, c);
    }

    void onRefused(int from, Refused r) {
        if (r.from() != from || !checks.validParticipants(r.participants()) || !r.participants().contains(from)
                || !r.participants().contains(self) || state.decisions.containsKey(r.txnId())) return;
        Coordination c = coordinating.get(r.txnId());
        decide(r.txnId(), c != null && c.participants != null ? c.participants : r.participants(), Outcome.ABORTED, null, 0);
    }

    /** A client asks the coordinator what became of a transaction it lost track of. */
    void onOutcomeQuery(ClientReply reply, OutcomeQuery q) {
        Decision d = state.decisions.get(q.txnId());
        if (d == null && coordinating.containsKey(q.txnId())) {
            reply.reply(new OutcomeReply(q.requestId(), q.txnId(), Outcome.UNDECIDED, null, 0));
            return;
        }
        if (d == null) d = presumeAbort(q.txnId());
        reply.reply(new OutcomeReply(q.requestId(), q.txnId(), d.outcome(), d.commitClock(), d.commitTime()));
    }

    void onCheckCommit(int from, CheckCommit c) {
        if (c.from() != from) return;
        Decision d = state.decisions.get(c.txnId());
        if (d == null) {
            Coordination open = coordinating.get(c.txnId());
            if (open != null) {
                if (open.resolving) return; // resolving: answered once the participants have
                if (state.time.nowMicros() - open.firstSeenAt < config.transactionTimeoutMicros()) return; // still collecting
                state.metrics.coordinatorTimeouts++;
                decide(c.txnId(), open.participants, Outcome.ABORTED, null, 0);
                d = state.decisions.get(c.txnId());
            } else {
                d = presumeAbort(c.txnId());
            }
        }
        state.peers.send(from, d.outcome() == Outcome.COMMITTED ? commitMessage(d, 0) : new Abort(c.txnId()));
    }

    /** A vote that has not come within the timeout will not be waited for (section 3.8). */
    void checkTimeouts(long now) {
        if (coordinating.isEmpty()) return;
        List<TxnId> expired = null;
        for (Map.Entry<TxnId, Coordination> e : coordinating.entrySet()) {
            Coordination c = e.getValue();
            if (c.resolving) {
                if (now >= c.nextQueryAt) query(e.getKey(), c, now);
                continue;
            }
            if (now - c.firstSeenAt >= config.transactionTimeoutMicros()) {
                if (expired == null) expired = new ArrayList<>();
                expired.add(e.getKey());
            }
        }
        if (expired != null)
            for (TxnId id : expired) {
                state.metrics.coordinatorTimeouts++;
                decide(id, coordinating.get(id).participants, Outcome.ABORTED, null, 0);
            }
    }

    /** Participants were told different participant lists: a broken client. The transaction cannot commit. */
    private void abortConflicting(TxnId id, Coordination c, List<Integer> other) {
        TreeSet<Integer> everyone = new TreeSet<>(c.participants);
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
        // The commit time is the largest proposal: each is above the client's dependency time and follows its
        // participant's clock (Participant.proposeTime), and a resolver computes the same from the prepares.
        long[] commit = c.clientClock.toArray();
        long commitTime = 0;
        for (Map.Entry<Integer, Vote> vote : c.votes.entrySet()) {
            commit[vote.getKey()] = vote.getValue().sequence();
            commitTime = Math.max(commitTime, vote.getValue().proposedTime());
        }
        decide(id, c.participants, Outcome.COMMITTED, VectorClock.wrap(commit), commitTime, c.clientBaseEpoch);
    }

    /**
     * The decision for a participant. Between partitions that stabilize up and down a tree, the commit clock goes
     * relative to a stable base it is at least ({@code clientBaseEpoch}, the base its client named, which every
     * participant expanded the request with, else our newest), else whole (docs/design/stable-bases.md, "Commit
     * decisions").
     */
    PeerMessage commitMessage(Decision d, long clientBaseEpoch) {
        BasedClock based = stabilization.relativeToBase(d.commitClock(), clientBaseEpoch);
        return based != null ? new CompactCommit(d.txnId(), based, d.commitTime())
                : new Commit(d.txnId(), d.commitClock(), d.commitTime());
    }

    /**
     * Tells the other participants and applies the decision here. An abort is recorded durably first (what is sent
     * waits for it): a resolver that found every prepare would otherwise commit it. A commit is told first and recorded
     * after, for outcome queries: the prepares it rests on are durable already.
     */
    void decide(TxnId id, List<Integer> participants, Outcome outcome, VectorClock commitClock, long commitTime) {
        decide(id, participants, outcome, commitClock, commitTime, 0);
    }

    /** As above; a commit goes to the participants relative to {@code clientBaseEpoch} if it can (0: none). */
    private void decide(TxnId id, List<Integer> participants, Outcome outcome, VectorClock commitClock, long commitTime,
                        long clientBaseEpoch) {
        if (state.decisions.containsKey(id)) throw new IllegalStateException("transaction " + id + " is already decided");
        Decision d = new Decision(id, outcome, commitClock, commitTime, participants == null ? List.of() : participants,
                state.time.nowMicros());
        boolean saveFirst = outcome == Outcome.ABORTED && !config.has(Bug.ABORT_TOLD_BEFORE_DURABLE);
        if (saveFirst) state.store.saveDecision(d);
        state.decisions.put(id, d);
        coordinating.remove(id);
        if (participants != null) {
            PeerMessage m = outcome == Outcome.COMMITTED ? commitMessage(d, clientBaseEpoch) : new Abort(id);
            for (int p : participants) if (p != self) state.peers.send(p, m);
        }
        if (!saveFirst) state.store.saveDecision(d);
        participant.onDecided(id, outcome, commitClock, commitTime);
    }

    private Decision presumeAbort(TxnId id) {
        state.metrics.presumedAborts++;
        decide(id, null, Outcome.ABORTED, null, 0);
        return state.decisions.get(id);
    }
}
