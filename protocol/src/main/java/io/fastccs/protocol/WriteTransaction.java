package io.fastccs.protocol;

import io.fastccs.core.Outgoing;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * A write-only transaction (algorithm 1, lines 20-26): every participant gets its writes, the client's clock and
 * a coordinator picked at random. It commits for the session once every participant answered committed: only
 * then has every participant settled it, so only then may the session adopt the commit clock.
 */
public final class WriteTransaction {
    private final ClientSession session;
    private final TxnId txnId;
    private final TreeMap<Integer, List<KeyValue>> writesByPartition = new TreeMap<>();
    private final List<Integer> participants;
    private final int coordinator;
    private final Map<Long, Integer> awaiting = new HashMap<>();
    private final Set<Long> outcomeQueries = new HashSet<>();
    private final Set<Integer> committed = new HashSet<>();
    private Outcome outcome = Outcome.UNDECIDED;
    private VectorClock commitClock;
    private long commitTime;
    private ErrorReply failure;
    private boolean started;

    WriteTransaction(ClientSession session, TxnId txnId, Map<Key, byte[]> writes, RandomGenerator random) {
        this(session, txnId, puts(writes), random);
    }

    /** A write of puts and commutative operations, one per key ({@link io.fastccs.core.primitives.WriteKind}). */
    WriteTransaction(ClientSession session, TxnId txnId, List<KeyValue> operations, RandomGenerator random) {
        if (operations.isEmpty()) throw new IllegalArgumentException("a write needs at least one key");
        this.session = session;
        this.txnId = txnId;
        java.util.Set<Key> seen = new java.util.HashSet<>();
        for (KeyValue kv : operations) {
            if (!seen.add(kv.key())) throw new IllegalArgumentException("key " + kv.key() + " has two operations in one write");
            writesByPartition.computeIfAbsent(session.topology().ownerOf(kv.key()), p -> new ArrayList<>()).add(kv);
        }
        this.participants = List.copyOf(writesByPartition.keySet());
        this.coordinator = participants.get(random.nextInt(participants.size()));
    }

    private static List<KeyValue> puts(Map<Key, byte[]> writes) {
        List<KeyValue> puts = new ArrayList<>(writes.size());
        for (Map.Entry<Key, byte[]> e : new LinkedHashMap<>(writes).entrySet()) puts.add(new KeyValue(e.getKey(), e.getValue()));
        return puts;
    }

    public TxnId txnId() {
        return txnId;
    }

    public int coordinator() {
        return coordinator;
    }

    public List<Integer> participants() {
        return participants;
    }

    /** The request for every participant, coordinator included. */
    public List<Outgoing> start() {
        if (started) throw new IllegalStateException("already started");
        started = true;
        List<Outgoing> out = new ArrayList<>(participants.size());
        for (Map.Entry<Integer, List<KeyValue>> e : writesByPartition.entrySet()) {
            long id = session.nextRequestId();
            awaiting.put(id, e.getKey());
            out.add(new Outgoing(e.getKey(), new WriteRequest(id, txnId, coordinator, participants, e.getValue(),
                    session.clock(), session.time())));
        }
        return out;
    }

    /**
     * Asks the coordinator for the outcome, after the host gave up waiting for the participants. Its answer goes
     * to {@link #onResponse}; it settles the outcome but does not let the session adopt the clock.
     */
    public Outgoing queryOutcome() {
        long id = session.nextRequestId();
        awaiting.put(id, coordinator);
        outcomeQueries.add(id);
        return new Outgoing(coordinator, new OutcomeQuery(id, txnId));
    }

    /** Feeds one response. Responses this transaction is not waiting for are ignored. */
    public void onResponse(ClientResponse response) {
        Integer partition = awaiting.remove(response.requestId());
        if (partition == null) return;
        boolean query = outcomeQueries.remove(response.requestId());
        int n = session.clock().size();
        if (response instanceof ErrorReply && query) return; // says nothing about the outcome: stay undecided
        if ((response instanceof WriteReply w && w.commitClock() != null && w.commitClock().size() != n)
                || (response instanceof OutcomeReply o && o.commitClock() != null && o.commitClock().size() != n)) {
            failure = ErrorReply.of(response.requestId(), ErrorCode.INTERNAL, "commit clock of the wrong size in " + response);
            return;
        }
        if (response instanceof WriteReply w && w.txnId().equals(txnId)) {
            onWriteReply(partition, w);
        } else if (response instanceof OutcomeReply o && o.txnId().equals(txnId)) {
            if (o.outcome() != Outcome.UNDECIDED && outcome == Outcome.UNDECIDED) {
                outcome = o.outcome();
                commitClock = o.commitClock();
                commitTime = o.commitTime();
            }
        } else if (response instanceof ErrorReply e) {
            // A participant refuses a write request before it prepares, so it never votes and the coordinator must abort.
            failure = e;
            if (outcome == Outcome.UNDECIDED) outcome = Outcome.ABORTED;
        } else {
            failure = ErrorReply.of(response.requestId(), ErrorCode.INTERNAL, "unexpected answer to a write: " + response);
        }
    }

    private void onWriteReply(int partition, WriteReply w) {
        if (w.outcome() == Outcome.ABORTED) {
            outcome = Outcome.ABORTED;
            awaiting.clear();
            return;
        }
        if (w.outcome() != Outcome.COMMITTED || w.commitClock() == null) return;
        committed.add(partition);
        commitClock = w.commitClock();
        commitTime = w.commitTime();
        outcome = Outcome.COMMITTED;
        if (committed.size() == participants.size()) session.advance(commitClock, commitTime);
    }

    /** Every participant answered, or the transaction aborted or failed. */
    public boolean isFinished() {
        return outcome == Outcome.ABORTED || failure != null || isConfirmed();
    }

    /** Committed, and every participant confirmed it settled: the session has adopted the commit clock. */
    public boolean isConfirmed() {
        return outcome == Outcome.COMMITTED && committed.size() == participants.size();
    }

    /** What is known of the outcome: COMMITTED as soon as any participant or the coordinator said so. */
    public Outcome outcome() {
        return outcome;
    }

    public VectorClock commitClock() {
        return commitClock;
    }

    /** The commit time, once committed; 0 before. */
    public long commitTime() {
        return commitTime;
    }

    public ErrorReply failure() {
        return failure;
    }
}
