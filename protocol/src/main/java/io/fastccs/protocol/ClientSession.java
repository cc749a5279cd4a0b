package io.fastccs.protocol;

import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.primitives.VectorClock;
import io.fastccs.protocol.api.Topology;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * One client session (algorithm 1): its vector clock, which summarizes everything the session wrote or saw, the
 * largest commit time among those (its writes are stamped above it, so the arbitration order extends causality),
 * and the transactions it starts. A session runs one transaction at a time; sessions sharing a client do not
 * share clocks, so one end user's causality is not tangled with another's (thesis section 3.5).
 *
 * <p>Pure state: a host sends the {@link Outgoing} requests a transaction produces and feeds back the responses.
 */
public final class ClientSession {
    private final Topology topology;
    private final long clientId;
    private final LongSupplier requestIds;
    private long nextTxnSequence;
    private VectorClock clock;
    private long time;
    private Set<Bug> bugs = Set.of();

    /**
     * @param clientId   a random 64-bit id, unique among sessions (transactions are numbered from 1 per session, so
     *                   two sessions with the same id would make the same transaction ids)
     * @param clock      the causal context to start from: zero for a new session, or a resumed one
     * @param time       the largest commit time of that context: 0 for a new session
     * @param requestIds request ids for this session's messages, unique per connection
     */
    public ClientSession(Topology topology, long clientId, VectorClock clock, long time, LongSupplier requestIds) {
        if (clock.size() != topology.partitions())
            throw new IllegalArgumentException("clock of " + clock.size() + " entries for " + topology.partitions() + " partitions");
        if (time < 0) throw new IllegalArgumentException("negative commit time " + time);
        this.time = time;
        this.topology = topology;
        this.clientId = clientId;
        this.clock = clock;
        this.requestIds = requestIds;
    }

    /** The session's causal context. */
    public VectorClock clock() {
        return clock;
    }

    /** The largest commit time the session has read or written. */
    public long time() {
        return time;
    }

    public long clientId() {
        return clientId;
    }

    Topology topology() {
        return topology;
    }

    long nextRequestId() {
        return requestIds.getAsLong();
    }

    void advance(VectorClock observed, long observedTime) {
        clock = clock.max(observed);
        time = Math.max(time, observedTime);
    }

    boolean has(Bug bug) {
        return bugs.contains(bug);
    }

    /** Test-only: make this session behave in a deliberately broken way. */
    void withBugs(Set<Bug> bugs) {
        this.bugs = bugs.isEmpty() ? Set.of() : EnumSet.copyOf(bugs);
    }

    /** A read-only transaction over {@code keys}; call {@link ReadTransaction#start()} to get its first requests. */
    public ReadTransaction read(Collection<Key> keys) {
        return new ReadTransaction(this, keys);
    }

    /**
     * A write-only transaction; {@code random} picks the coordinator among the participants (algorithm 1, line 21).
     */
    public WriteTransaction write(Map<Key, byte[]> writes, RandomGenerator random) {
        return new WriteTransaction(this, new TxnId(clientId, ++nextTxnSequence), writes, random);
    }
}
