package io.fastccs.baselines.eiger;

import io.fastccs.core.RequestChecks;
import io.fastccs.baselines.eiger.EigerMessages.CohortWrite;
import io.fastccs.baselines.eiger.EigerMessages.CoordWrite;
import io.fastccs.baselines.eiger.EigerMessages.OutcomeQuery;
import io.fastccs.baselines.eiger.EigerMessages.Read1;
import io.fastccs.baselines.eiger.EigerMessages.ReadAt;
import io.fastccs.baselines.eiger.EigerState.PendingTxn;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The checks on an Eiger client request before the partition acts on it: the protocol-neutral ones on keys and values
 * ({@link RequestChecks}), and Eiger's own on Lamport times, coordinators and participants.
 */
final class EigerChecks {
    private final EigerState state;
    private final RequestChecks checks;

    EigerChecks(EigerState state) {
        this.state = state;
        this.checks = new RequestChecks(state.config, state.topology, state.self);
    }

    /** Null if {@code request} is valid here, else the error to answer. */
    ErrorReply check(ClientRequest request) {
        if (request instanceof Read1 r) return checkKeys(r.requestId(), r.clock(), r.keys());
        if (request instanceof ReadAt r) {
            ErrorReply refused = checkKeys(r.requestId(), r.clock(), r.keys());
            if (refused == null && (r.time() < 0 || r.time() > Stamps.MAX_CLOCK))
                refused = invalid(r.requestId(), "read time " + r.time() + " out of range");
            return refused;
        }
        if (request instanceof CohortWrite w) return checkCohortWrite(w);
        if (request instanceof CoordWrite w) return checkCoordWrite(w);
        if (request instanceof OutcomeQuery q) return checkClock(q.requestId(), q.clock());
        return invalid(request.requestId(), "not an Eiger request: " + request.getClass().getSimpleName());
    }

    private ErrorReply checkClock(long requestId, long remote) {
        if (remote < 0 || remote > Stamps.MAX_CLOCK) return invalid(requestId, "clock " + remote + " out of range");
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
        int n = state.topology.partitions();
        int self = state.self;
        if (w.coordinator() < 0 || w.coordinator() >= n) return invalid(w.requestId(), "coordinator " + w.coordinator() + " out of range");
        if (w.coordinator() == self) return invalid(w.requestId(), "a cohort write sent to its own coordinator " + self);
        if (w.coordKey() == null || w.coordKey().length() == 0) return invalid(w.requestId(), "empty coordinator key");
        if (state.topology.ownerOf(w.coordKey()) != w.coordinator())
            return invalid(w.requestId(), "coordinator key " + w.coordKey() + " is not owned by coordinator " + w.coordinator());
        PendingTxn p = state.pending.get(w.txnId());
        if (p != null && p.coordinator != w.coordinator())
            return invalid(w.requestId(), "transaction " + w.txnId() + " is pending with another coordinator");
        return null;
    }

    private ErrorReply checkCoordWrite(CoordWrite w) {
        ErrorReply e = checkWrites(w.requestId(), w.clock(), w.txnId(), w.writes());
        if (e != null) return e;
        e = checks.key(w.requestId(), w.coordKey());
        if (e != null) return e;
        int n = state.topology.partitions();
        int self = state.self;
        if (w.participants().isEmpty() || w.participants().size() > n) return invalid(w.requestId(), "bad participant list " + w.participants());
        Set<Integer> seen = new HashSet<>();
        for (Integer p : w.participants())
            if (p == null || p < 0 || p >= n || !seen.add(p)) return invalid(w.requestId(), "bad participant list " + w.participants());
        if (!seen.contains(self)) return invalid(w.requestId(), "participants " + w.participants() + " do not include coordinator " + self);
        if (w.deps().size() > state.config.maxKeysPerRequest())
            return invalid(w.requestId(), w.deps().size() + " dependencies, more than the maximum of " + state.config.maxKeysPerRequest());
        return null;
    }

    private static ErrorReply invalid(long requestId, String message) {
        return RequestChecks.invalid(requestId, message);
    }
}
