package io.fastccs.protocol.partition;

import io.fastccs.protocol.Bug;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.ClientReply;
import io.fastccs.protocol.api.PartitionStore.Decision;
import io.fastccs.protocol.api.PartitionStore.TxnRecord;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.Refused;
import io.fastccs.protocol.messages.StatusQuery;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.protocol.partition.PartitionState.EarlyAbort;
import io.fastccs.protocol.partition.PartitionState.LocalTxn;
import io.fastccs.protocol.partition.PartitionState.Remembered;
import io.fastccs.core.primitives.KeyType;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.core.primitives.WriteKind;
import io.fastccs.core.typed.Operands;
import io.fastccs.protocol.typed.TypedFold;

import java.util.List;

/**
 * A partition's part in a write-only transaction (algorithm 2, lines 17-26 and 38-44): it prepares its writes under a
 * sequence number and proposes a commit time, votes once its prepare is durable, installs the versions of a commit
 * when told (the commit is implied by the durable prepares, so nothing more need be durable before the client hears
 * of it), and advances the settled prefix {@code svc[self]} over what is decided, answering the clients whose writes
 * the prefix then covers. It answers a coordinator's status queries from its records, fencing what it never prepared.
 */
final class Participant {
    /** What became of a write request, for the coordinator's part when we coordinate the transaction. */
    enum WriteOutcome {
        /** Answered (a known outcome, a duplicate of a pending request) or refused as invalid: nothing new. */
        ANSWERED,
        /** Prepared, and our vote sent to the coordinator. */
        VOTED,
        /** Prepared, and we coordinate it: our vote, the sequence number just assigned, is ours to count. */
        VOTED_HERE,
        /** Refused, and we coordinate it: ours to abort, since the other participants may have prepared it. */
        REFUSED_HERE
    }

    private final PartitionState state;
    private final PartitionConfig config;
    private final Checks checks;
    private final Collector collector;
    private final int self;

    Participant(PartitionState state, Checks checks, Collector collector) {
        this.state = state;
        this.config = state.config;
        this.checks = checks;
        this.collector = collector;
        this.self = state.self;
    }

    /** A participant receives its part of a write-only transaction (algorithm 2, lines 17-26). */
    WriteOutcome onWrite(ClientReply reply, WriteRequest w) {
        ErrorReply error = checks.write(w);
        if (error != null) {
            state.refuse(reply, error);
            return WriteOutcome.ANSWERED;
        }
        TxnId id = w.txnId();
        LocalTxn known = state.pending.get(id);
        if (known != null) { // a duplicate of a request we prepared: answer this one when the outcome is known
            known.replyTo = reply;
            known.requestId = w.requestId();
            return WriteOutcome.ANSWERED;
        }
        Remembered settled = state.recentlySettled.get(id);
        if (settled != null) {
            reply.reply(new WriteReply(w.requestId(), id, settled.outcome(), settled.commitClock(), settled.commitTime()));
            return WriteOutcome.ANSWERED;
        }
        Decision decided = state.decisions.get(id);
        if (decided != null) {
            // We coordinate it and decided it, so our own part was prepared and (not being pending) is settled; or we
            // fenced it, answering a coordinator's status query (an abort).
            reply.reply(new WriteReply(w.requestId(), id, decided.outcome(), decided.commitClock(), decided.commitTime()));
            return WriteOutcome.ANSWERED;
        }
        EarlyAbort early = state.earlyAborts.get(id);
        if (early != null && early.from() == w.coordinator()) {
            reply.reply(new WriteReply(w.requestId(), id, Outcome.ABORTED, null, 0));
            return WriteOutcome.ANSWERED;
        }
        String mismatch = typeMismatch(w.writes());
        if (mismatch != null) return refuseWrite(reply, w, mismatch);
        if (w.clock().get(self) > state.svc[self]) state.metrics.clockAhead++;

        long sequence = ++state.lastSequence;
        long proposed = proposeTime(w.dependencyTime());
        TxnRecord record = new TxnRecord(id, sequence, w.coordinator(), w.participants(), w.writes(), w.clock(),
                proposed, Outcome.UNDECIDED, null, 0);
        Prepared vote = new Prepared(id, self, sequence, w.participants(), proposed);
        boolean voteFirst = w.coordinator() != self && config.has(Bug.VOTE_BEFORE_PREPARE_DURABLE);
        if (voteFirst) state.peers.send(w.coordinator(), vote);
        state.store.savePrepared(record);
        LocalTxn t = new LocalTxn(record);
        t.replyTo = reply;
        t.requestId = w.requestId();
        state.unsettled.put(sequence, t);
        state.pending.put(id, t);
        state.metrics.writesPrepared++;

        if (w.coordinator() == self) return WriteOutcome.VOTED_HERE;
        t.nextCheckAt = state.time.nowMicros() + config.transactionTimeoutMicros();
        // After the prepare: the vote waits for it to be durable, since the commit it may complete rests on it.
        if (!voteFirst) state.peers.send(w.coordinator(), vote);
        return WriteOutcome.VOTED;
    }

    /**
     * The commit time we propose: our hybrid clock, above the client's dependency time (so the arbitration order extends
     * causality: docs/design/thesis.md, "The commit time comes first in the arbitration order") and above our previous
     * proposal. The commit time is the largest proposal of the participants.
     */
    private long proposeTime(long dependencyTime) {
        long t = Math.max(state.time.nowMicros(), state.lastProposed + 1);
        if (!config.has(Bug.COMMIT_TIME_IGNORES_DEPENDENCY)) t = Math.max(t, dependencyTime + 1);
        state.lastProposed = t;
        return t;
    }

    /**
     * A coordinator that lost its votes asks what we hold of {@code q}'s transaction: our vote again if we hold its
     * prepare (pending, or committed and retained), a refusal if we aborted it; holding nothing, a fence first (an
     * abort recorded durably, so a write request that arrives later is refused), then the refusal, which leaves only
     * once the fence is durable (docs/design/one-round-writes.md, "Recovery is status resolution").
     */
    void onStatusQuery(int from, StatusQuery q) {
        if (q.from() != from || !checks.validParticipants(q.participants()) || !q.participants().contains(from)
                || !q.participants().contains(self)) return;
        TxnId id = q.txnId();
        LocalTxn t = state.pending.get(id);
        TxnRecord held = t != null ? t.record : state.retained.get(id);
        if (held != null) {
            if (held.coordinator() != from) return;
            state.peers.send(from, new Prepared(id, self, held.sequence(), held.participants(), held.proposedTime()));
            return;
        }
        Remembered settled = state.recentlySettled.get(id);
        if (settled != null && settled.outcome() == Outcome.COMMITTED) return; // released: its coordinator decided durably
        if (settled == null && !state.decisions.containsKey(id)) {
            Decision fence = new Decision(id, Outcome.ABORTED, null, 0, q.participants(), state.time.nowMicros());
            if (!config.has(Bug.REFUSE_WITHOUT_FENCE)) state.store.saveDecision(fence);
            state.decisions.put(id, fence);
            state.metrics.fences++;
        }
        state.peers.send(from, new Refused(id, self, q.participants()));
    }

    /**
     * Null if every operation fits its key's type, else why not. A key's type is fixed by its first operation: that of
     * its stored versions, else of a transaction prepared here and not settled yet (if that one aborts, the key is
     * free again). Top-k keys also fix their k.
     */
    private String typeMismatch(List<KeyValue> writes) {
        for (KeyValue kv : writes) {
            List<Version> versions = state.store.versions(kv.key());
            KeyType fixed = null;
            int k = 0;
            if (!versions.isEmpty()) {
                fixed = TypedFold.typeOf(versions);
                k = TypedFold.topkOf(versions);
            } else {
                for (LocalTxn t : state.unsettled.values()) {
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
    private WriteOutcome refuseWrite(ClientReply reply, WriteRequest w, String why) {
        state.metrics.writesRefused++;
        state.refuse(reply, Checks.invalid(w.requestId(), why));
        if (w.coordinator() == self) return WriteOutcome.REFUSED_HERE;
        state.peers.send(w.coordinator(), new Refused(w.txnId(), self, w.participants()));
        return WriteOutcome.ANSWERED;
    }

    void onCommit(int from, Commit c) {
        LocalTxn t = state.pending.get(c.txnId());
        if (t == null || c.commitClock().size() != state.n) return; // duplicate, or not ours
        if (from != t.record.coordinator()) return; // only the coordinator decides
        if (c.commitClock().get(self) != t.sequence()) {
            discardDuplicate(t, c.commitClock(), c.commitTime());
            return;
        }
        commitLocal(t, c.commitClock(), c.commitTime());
    }

    /** A commit decision from {@code from} we could not expand: we ask the coordinator at once. */
    void onUnexpandedCommit(int from, TxnId id) {
        LocalTxn t = state.pending.get(id);
        if (t != null && from == t.record.coordinator()) askCoordinator(t, state.time.nowMicros());
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
        state.metrics.writesAborted--;
        if (replyTo != null)
            replyTo.reply(new WriteReply(t.requestId, t.record.txnId(), Outcome.COMMITTED, commitClock, commitTime));
    }

    void onAbort(int from, Abort a) {
        LocalTxn t = state.pending.get(a.txnId());
        if (t != null) {
            if (from == t.record.coordinator()) abortLocal(t);
        } else if (!state.recentlySettled.containsKey(a.txnId())) {
            state.earlyAborts.put(a.txnId(), new EarlyAbort(from, state.time.nowMicros()));
        }
    }

    /** Our coordinator's decision on {@code id}, applied to our part if it is still pending here. */
    void onDecided(TxnId id, Outcome outcome, VectorClock commitClock, long commitTime) {
        LocalTxn own = state.pending.get(id);
        if (own == null) return;
        if (outcome == Outcome.COMMITTED) commitLocal(own, commitClock, commitTime);
        else abortLocal(own);
    }

    /** Ask the coordinator about a transaction prepared long ago, and again until it answers. */
    void checkTimeouts(long now) {
        for (LocalTxn t : state.pending.values()) {
            if (t.record.coordinator() == self || now < t.nextCheckAt) continue;
            askCoordinator(t, now);
        }
    }

    private void askCoordinator(LocalTxn t, long now) {
        state.peers.send(t.record.coordinator(), new CheckCommit(t.record.txnId(), self));
        state.metrics.checkCommitsSent++;
        t.nextCheckAt = now + config.checkIntervalMicros();
    }

    /** COMMIT_LOCAL (algorithm 2, lines 38-44): install the versions; they stay invisible until the prefix reaches them. */
    private void commitLocal(LocalTxn t, VectorClock commitClock, long commitTime) {
        t.outcome = Outcome.COMMITTED;
        t.commitClock = commitClock;
        t.commitTime = commitTime;
        state.store.saveOutcome(t.record.txnId(), t.sequence(), Outcome.COMMITTED, commitClock, commitTime);
        if (t.record.coordinator() != self) state.retain(t.record.withOutcome(Outcome.COMMITTED, commitClock, commitTime));
        installVersions(t);
        settle(t);
        state.metrics.writesCommitted++;
        if (config.has(Bug.EARLY_WRITE_REPLY)) replyCommitted(t);
        advanceSettled();
    }

    void installVersions(LocalTxn t) {
        for (KeyValue kv : t.record.writes()) {
            // A remove keeps what its session had seen: it removes exactly the adds within that (TypedFold).
            byte[] value = kv.kind() != WriteKind.SET_REMOVE ? kv.value()
                    : new TypedFold.RemoveOperand(kv.value(), t.record.clientClock()).encode();
            Version version = new Version(t.sequence(), t.commitClock, t.commitTime, value, kv.kind());
            state.store.putVersion(kv.key(), version);
            if (kv.kind() != WriteKind.PUT) state.runningFolds.installed(kv.key(), version);
            collector.mayHoldOlderVersions(kv.key());
        }
    }

    private void abortLocal(LocalTxn t) {
        t.outcome = Outcome.ABORTED;
        state.store.saveOutcome(t.record.txnId(), t.sequence(), Outcome.ABORTED, null, 0);
        settle(t);
        state.metrics.writesAborted++;
        if (t.replyTo != null) { // an abort exposes no clock, so it need not wait for the prefix
            t.replyTo.reply(new WriteReply(t.requestId, t.record.txnId(), Outcome.ABORTED, null, 0));
            t.replyTo = null;
        }
        advanceSettled();
    }

    private void settle(LocalTxn t) {
        state.pending.remove(t.record.txnId());
        state.recentlySettled.put(t.record.txnId(),
                new Remembered(t.outcome, t.commitClock, t.commitTime, state.time.nowMicros()));
    }

    /** Advances svc[self] over the settled prefix and answers the clients whose writes it now covers. */
    void advanceSettled() {
        while (!state.unsettled.isEmpty()) {
            LocalTxn first = state.unsettled.firstEntry().getValue();
            if (first.outcome == Outcome.UNDECIDED) break;
            state.unsettled.pollFirstEntry();
            state.svc[self] = first.sequence();
            if (first.outcome == Outcome.COMMITTED) replyCommitted(first);
        }
    }

    private void replyCommitted(LocalTxn t) {
        if (t.replyTo == null) return;
        t.replyTo.reply(new WriteReply(t.requestId, t.record.txnId(), Outcome.COMMITTED, t.commitClock, t.commitTime));
        t.replyTo = null;
    }
}
