package io.fastccs.protocol;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.messages.KeyValue;
import java.util.List;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.api.Topology;
import io.fastccs.core.spi.PartitionAnswer;

import io.fastccs.core.messages.ClientRequest;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.Rebase;

import java.util.BitSet;
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
    // What requests name of the clock (docs/design/stable-bases.md, "Requests"): the stable base of
    // baseEpoch (0: zeros) raised by the entries in explicit, which holds every entry of the clock above that base.
    private long baseEpoch;
    private final BitSet explicit = new BitSet();
    /** The newest stable base a partition named. */
    private long newestStable;
    /** The clock a move to a newer base was last asked for: one request per clock asks. */
    private VectorClock rebaseAskedFor;

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
        resetBase();
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

    /** Raises the clock and time by versions the client served the session from its cache, as a read would. */
    public void observe(VectorClock observed, long observedTime) {
        advance(observed, observedTime);
    }

    void advance(VectorClock observed, long observedTime) {
        for (int k = 0; k < clock.size(); k++) if (observed.get(k) > clock.get(k)) explicit.set(k);
        clock = clock.max(observed);
        time = Math.max(time, observedTime);
    }

    /**
     * {@code request} as it goes on the wire: its clock relative to the session's stable base; the first round one
     * sent with a clock asks to move to a newer base, if a partition named one.
     */
    public ClientRequest compact(ClientRequest request) {
        VectorClock c = ClockCompaction.clockOf(request);
        if (c == null) return request;
        // Until a partition names a stable base (its partitions stabilize up and down a tree), a clock goes whole; in a
        // cluster too large to stabilize all-to-all by default, while most of its entries are zero (a new session), as
        // its other entries relative to epoch 0.
        if (baseEpoch == 0 && newestStable == 0) {
            boolean large = c.size() > PartitionConfig.DEFAULT_STABILIZATION_FANOUT + 1;
            return large && nonZero(c).cardinality() * 2 < c.size() ? compactFull(request) : request;
        }
        if (c.size() != clock.size()) return compactFull(request);
        BitSet named = (BitSet) explicit.clone();
        for (int k = 0; k < c.size(); k++) {
            if (c.get(k) > clock.get(k)) named.set(k); // a round two's merged clock: what this read learned
            else if (c.get(k) < clock.get(k)) return compactFull(request); // not ours
        }
        long rebaseTo = 0;
        if (request instanceof FirstRoundRead && newestStable > baseEpoch && !c.equals(rebaseAskedFor)) {
            rebaseTo = newestStable;
            rebaseAskedFor = c;
        }
        return ClockCompaction.compact(request, baseEpoch, named, rebaseTo);
    }

    /** {@code request} relative to epoch 0, every non-zero entry named: for a partition that did not know our base. */
    public ClientRequest compactFull(ClientRequest request) {
        VectorClock c = ClockCompaction.clockOf(request);
        return c == null ? request : ClockCompaction.compact(request, 0, nonZero(c), 0);
    }

    /** A partition named {@code epoch} as its newest stable base. */
    public void noteStable(long epoch) {
        newestStable = Math.max(newestStable, epoch);
    }

    /**
     * Moves the clock to the base a partition answered {@code requestClock} with (the session's clock when its read
     * began; it has only grown since, by what the read returned): raised to that base, naming the entries of the
     * request above it and every entry that rose since.
     */
    public void rebase(VectorClock requestClock, Rebase r) {
        if (r.epoch() <= baseEpoch || !requestClock.leq(clock)) return;
        BitSet named = new BitSet(clock.size());
        for (int k : r.explicit()) named.set(k);
        for (int k = 0; k < clock.size(); k++) if (clock.get(k) > requestClock.get(k)) named.set(k);
        if (!has(Bug.REBASE_WITHOUT_LIFT)) clock = clock.max(r.lift().applyTo(requestClock));
        explicit.clear();
        explicit.or(named);
        baseEpoch = r.epoch();
    }

    /** Back to epoch 0: every non-zero entry named (a partition did not know our base). */
    public void resetBase() {
        baseEpoch = 0;
        explicit.clear();
        explicit.or(nonZero(clock));
    }

    private static BitSet nonZero(VectorClock c) {
        BitSet out = new BitSet(c.size());
        for (int k = 0; k < c.size(); k++) if (c.get(k) != 0) out.set(k);
        return out;
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
     * A read-only transaction over {@code keys} of which the client's cache answers some ({@code cached}, on partitions
     * holding no other of the keys): round one reads the others at the session's clock joined with the cached
     * versions' (docs/design/client-cache.md, "Full hits, partial hits, misses").
     */
    public ReadTransaction read(Collection<Key> keys, List<PartitionAnswer> cached) {
        return new ReadTransaction(this, keys, cached);
    }

    /**
     * A write-only transaction; {@code random} picks the coordinator among the participants (algorithm 1, line 21).
     */
    public WriteTransaction write(Map<Key, byte[]> writes, RandomGenerator random) {
        return new WriteTransaction(this, new TxnId(clientId, ++nextTxnSequence), writes, random);
    }
    /** A write-only transaction of puts and commutative operations, one per key. */
    public WriteTransaction write(List<KeyValue> operations, RandomGenerator random) {
        return new WriteTransaction(this, new TxnId(clientId, ++nextTxnSequence), operations, random);
    }

}
