package io.fastccs.protocol.partition;

import io.fastccs.core.RequestChecks;
import io.fastccs.core.api.Topology;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The checks on a request before the partition acts on it: the protocol-neutral ones on keys and values
 * ({@link RequestChecks}), and FastCCS's own on clocks, participants and dependency times. A request that fails one
 * is refused and changes nothing.
 */
final class Checks {
    /** Far above any real sequence number, and low enough that the sum of 4096 entries cannot overflow. */
    static final long MAX_CLOCK_ENTRY = 1L << 50;

    private final PartitionState state;
    private final RequestChecks requests;

    Checks(PartitionState state, Topology topology) {
        this.state = state;
        this.requests = new RequestChecks(state.config, topology, state.self, true);
    }

    /** Null if a read of {@code keys} at {@code clock} is valid here, else the error to answer. */
    ErrorReply read(long requestId, List<Key> keys, VectorClock clock) {
        ErrorReply error = requests.keys(requestId, keys);
        return error != null ? error : clock(requestId, clock);
    }

    ErrorReply clock(long requestId, VectorClock clock) {
        int n = state.n;
        if (clock.size() != n)
            return invalid(requestId, "clock of " + clock.size() + " entries for a cluster of " + n + " partitions");
        for (int k = 0; k < n; k++)
            if (clock.get(k) > MAX_CLOCK_ENTRY)
                return invalid(requestId, "clock entry " + k + " is " + clock.get(k) + ", beyond any sequence number");
        return null;
    }

    ErrorReply write(WriteRequest w) {
        long id = w.requestId();
        ErrorReply e = clock(id, w.clock());
        if (e != null) return e;
        if (w.dependencyTime() < 0) return invalid(id, "negative dependency time " + w.dependencyTime());
        long ahead = w.dependencyTime() - state.time.nowMicros();
        if (ahead > state.config.transactionTimeoutMicros())
            return invalid(id, "dependency time " + w.dependencyTime() + " is " + ahead / 1000 + " ms ahead of this "
                    + "partition's clock (more than the transaction timeout): the nodes' clocks disagree, or the client is broken");
        if (!validParticipants(w.participants())) return invalid(id, "bad participant list " + w.participants());
        int self = state.self;
        if (!w.participants().contains(self)) return invalid(id, "participants " + w.participants() + " do not include " + self);
        if (!w.participants().contains(w.coordinator()))
            return invalid(id, "coordinator " + w.coordinator() + " is not a participant");
        return requests.writes(id, w.writes());
    }

    boolean validParticipants(List<Integer> participants) {
        int n = state.n;
        if (participants.isEmpty() || participants.size() > n) return false;
        Set<Integer> seen = new HashSet<>();
        for (Integer p : participants) if (p == null || p < 0 || p >= n || !seen.add(p)) return false;
        return true;
    }

    static ErrorReply invalid(long requestId, String message) {
        return RequestChecks.invalid(requestId, message);
    }
}
