package io.fastccs.protocol.partition;

import io.fastccs.protocol.Bug;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.ClientReply;
import io.fastccs.protocol.api.PartitionStore.Decision;
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
 * collects the participants' sequence numbers, decides, records the decision durably before anyone hears of it, and
 * answers participants and clients that ask about it later. Our own part of a transaction we coordinate is the
 * participant's; a decision is applied to it last.
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
    /** The time of our last commit decision: our hybrid clock never goes back while we run. */
    private long lastCommitTime;

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
    void onOwnVote(WriteRequest w, long sequence, long clientBaseEpoch) {
        TxnId id = w.txnId();
        Coordination c = coordinating.computeIfAbsent(id, x -> new Coordination(state.time.nowMicros()));
        if (c.participants != null && !sameSet(c.participants, w.participants())) {
            abortConflicting(id, c, w.participants());
            return;
        }
        c.participants = w.participants();
        c.clientClock = w.clock();
        c.clientBaseEpoch = clientBaseEpoch;
        c.dependencyTime = w.dependencyTime();
        c.votes.put(self, sequence);
        maybeCommit(id, c);
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
            state.peers.send(from, d.outcome() == Outcome.COMMITTED ? commitMessage(d, 0) : new Abort(id));
            return;
        }
        Coordination c = coordinating.computeIfAbsent(id, x -> new Coordination(state.time.nowMicros()));
        if (c.participants == null) c.participants = p.participants();
        else if (!sameSet(c.participants, p.participants())) {
            abortConflicting(id, c, p.participants());
            return;
        }
        c.votes.put(from, p.sequence());
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
        for (Map.Entry<TxnId, Coordination> e : coordinating.entrySet())
            if (now - e.getValue().firstSeenAt >= config.transactionTimeoutMicros()) {
                if (expired == null) expired = new ArrayList<>();
                expired.add(e.getKey());
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
        long[] commit = c.clientClock.toArray();
        for (Map.Entry<Integer, Long> vote : c.votes.entrySet()) commit[vote.getKey()] = vote.getValue();
        decide(id, c.participants, Outcome.COMMITTED, VectorClock.wrap(commit), commitTime(c.dependencyTime),
                c.clientBaseEpoch);
    }

    /**
     * A hybrid clock: our time, raised above the client's dependency time (so the arbitration order extends causality:
     * docs/design/thesis.md, "The commit time comes first in the arbitration order") and above our previous commit (so our own commits never share a time).
     */
    private long commitTime(long dependencyTime) {
        long t = Math.max(state.time.nowMicros(), lastCommitTime + 1);
        if (!config.has(Bug.COMMIT_TIME_IGNORES_DEPENDENCY)) t = Math.max(t, dependencyTime + 1);
        lastCommitTime = t;
        return t;
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

    /** Records the decision durably, tells the other participants, then applies it here. */
    void decide(TxnId id, List<Integer> participants, Outcome outcome, VectorClock commitClock, long commitTime) {
        decide(id, participants, outcome, commitClock, commitTime, 0);
    }

    /** As above; a commit goes to the participants relative to {@code clientBaseEpoch} if it can (0: none). */
    private void decide(TxnId id, List<Integer> participants, Outcome outcome, VectorClock commitClock, long commitTime,
                        long clientBaseEpoch) {
        if (state.decisions.containsKey(id)) throw new IllegalStateException("transaction " + id + " is already decided");
        Decision d = new Decision(id, outcome, commitClock, commitTime, participants == null ? List.of() : participants,
                state.time.nowMicros());
        state.store.saveDecision(d);
        state.decisions.put(id, d);
        coordinating.remove(id);
        if (participants != null) {
            PeerMessage m = outcome == Outcome.COMMITTED ? commitMessage(d, clientBaseEpoch) : new Abort(id);
            for (int p : participants) if (p != self) state.peers.send(p, m);
        }
        participant.onDecided(id, outcome, commitClock, commitTime);
    }

    private Decision presumeAbort(TxnId id) {
        state.metrics.presumedAborts++;
        decide(id, null, Outcome.ABORTED, null, 0);
        return state.decisions.get(id);
    }
}
