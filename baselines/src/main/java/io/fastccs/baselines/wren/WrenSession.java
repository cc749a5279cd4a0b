package io.fastccs.baselines.wren;

import io.fastccs.core.Outgoing;
import io.fastccs.core.api.Topology;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.spi.AbstractReadStep;
import io.fastccs.core.spi.AbstractWriteStep;
import io.fastccs.core.spi.ProtocolSession;
import io.fastccs.core.spi.ReadResult;
import io.fastccs.core.spi.ReadStep;
import io.fastccs.core.spi.WriteStep;
import io.fastccs.baselines.wren.WrenMessages.CommitReply;
import io.fastccs.baselines.wren.WrenMessages.CommitRequest;
import io.fastccs.baselines.wren.WrenMessages.OutcomeRequest;
import io.fastccs.baselines.wren.WrenMessages.Slice;
import io.fastccs.baselines.wren.WrenMessages.SliceReply;
import io.fastccs.baselines.wren.WrenMessages.Start;
import io.fastccs.baselines.wren.WrenMessages.StartReply;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * A Wren client session: its stable time {@code lst}, its highest write time {@code hwt} and its write cache
 * {key -> (value, stamp)} of own writes not yet known stable. Both reads and writes start with a START round to one
 * partition (as Wren's {@code TxStart}); a read then slices the partitions owning keys not in the cache, a write sends
 * every write to its coordinator.
 */
final class WrenSession implements ProtocolSession {
    private final Topology topology;
    private final long clientId;
    private final LongSupplier requestIds;
    private final boolean writeCache;
    private long lst;
    private long hwt;
    private long txnCounter;

    private record Cached(byte[] value, WrenStamp stamp) {
    }

    private final TreeMap<Key, Cached> cache = new TreeMap<>();

    WrenSession(Topology topology, long clientId, LongSupplier requestIds, Set<WrenBug> bugs) {
        this.topology = topology;
        this.clientId = clientId;
        this.requestIds = requestIds;
        this.writeCache = !bugs.contains(WrenBug.NO_WRITE_CACHE);
    }

    @Override
    public long clientId() {
        return clientId;
    }

    /** The session's stable time (the last snapshot time it was given). */
    long stableTime() {
        return lst;
    }

    long highestWriteTime() {
        return hwt;
    }

    int cachedWrites() {
        return cache.size();
    }

    /**
     * A START reply: adopt the snapshot time and forget cached writes it covers. Returns the session's stable time, at
     * or above {@code lt}: a late reply (to a START of an abandoned transaction) may have raised it above this one, and
     * the cache no longer holds the writes below it.
     */
    private long onSnapshot(long lt) {
        lst = Math.max(lst, lt);
        cache.values().removeIf(c -> c.stamp().ct() <= lst);
        return lst;
    }

    @Override
    public ReadStep read(Collection<Key> keys) {
        if (keys == null || keys.isEmpty()) throw new IllegalArgumentException("a read needs at least one key");
        List<Key> list = List.copyOf(keys);
        if (new HashSet<>(list).size() != list.size()) throw new IllegalArgumentException("keys must be distinct: " + keys);
        return new Read(list);
    }

    @Override
    public WriteStep write(Map<Key, byte[]> writes, RandomGenerator random) {
        if (writes == null || writes.isEmpty()) throw new IllegalArgumentException("a write needs at least one key");
        return new Write(new TxnId(clientId, ++txnCounter), new LinkedHashMap<>(writes), random);
    }

    private final class Read extends AbstractReadStep {
        private final List<Key> keys;
        private final Map<Key, ReadValue> got = new HashMap<>();
        private final Map<Long, Integer> awaiting = new HashMap<>();
        private long startRequest = -1;
        private boolean started;
        private int rounds;
        private int sliced;

        Read(List<Key> keys) {
            this.keys = keys;
        }

        @Override
        public List<Outgoing> start() {
            if (started) throw new IllegalStateException("already started");
            started = true;
            startRequest = requestIds.getAsLong();
            rounds = 1;
            return List.of(new Outgoing(topology.ownerOf(keys.get(0)), new Start(startRequest, lst)));
        }

        @Override
        public List<Outgoing> onResponse(ClientResponse response) {
            if (isFinished()) return List.of();
            long id = response.requestId();
            if (id == startRequest) {
                startRequest = -1;
                if (response instanceof StartReply s) return slice(s.lt());
                fail(response);
                return List.of();
            }
            Integer partition = awaiting.remove(id);
            if (partition == null) return List.of();
            if (!(response instanceof SliceReply s)) {
                fail(response);
                return List.of();
            }
            for (ReadValue v : s.values()) got.put(v.key(), v);
            if (awaiting.isEmpty()) finish();
            return List.of();
        }

        private List<Outgoing> slice(long startLt) {
            // Read at the session's stable time, never below it: the cache was pruned up to it.
            long lt = onSnapshot(startLt);
            List<Key> uncached = new ArrayList<>(keys.size());
            for (Key k : keys) {
                Cached c = cache.get(k); // left in the cache only if newer than lt
                if (c != null) got.put(k, new ReadValue(k, c.value(), c.stamp().ct()));
                else uncached.add(k);
            }
            Map<Integer, List<Key>> byOwner = topology.byOwner(uncached);
            if (byOwner.isEmpty()) {
                finish();
                return List.of();
            }
            rounds = 2;
            sliced = byOwner.size();
            List<Outgoing> out = new ArrayList<>(byOwner.size());
            for (Map.Entry<Integer, List<Key>> e : byOwner.entrySet()) {
                long id = requestIds.getAsLong();
                awaiting.put(id, e.getKey());
                out.add(new Outgoing(e.getKey(), new Slice(id, List.copyOf(e.getValue()), lt)));
            }
            return out;
        }

        private void finish() {
            Map<Key, ReadValue> values = new LinkedHashMap<>();
            for (Key k : keys) {
                ReadValue v = got.get(k);
                if (v == null) {
                    fail(ErrorReply.of(-1, ErrorCode.INTERNAL, "no value returned for key " + k));
                    return;
                }
                values.put(k, v);
            }
            succeed(new ReadResult(values, rounds, sliced));
        }

        private void fail(ClientResponse response) {
            fail(response instanceof ErrorReply e ? e
                    : ErrorReply.of(response.requestId(), ErrorCode.INTERNAL, "unexpected answer to a read: " + response));
            awaiting.clear();
        }
    }

    private final class Write extends AbstractWriteStep {
        private final Map<Key, byte[]> writes;
        private final int coordinator;
        private final Set<Long> outcomeRequests = new HashSet<>();
        private long startRequest = -1;
        private long commitRequest = -1;
        private boolean started;

        Write(TxnId txnId, Map<Key, byte[]> writes, RandomGenerator random) {
            super(txnId);
            this.writes = writes;
            List<Integer> participants = new ArrayList<>(new TreeSet<>(writes.keySet().stream().map(topology::ownerOf).toList()));
            this.coordinator = participants.get(random.nextInt(participants.size()));
        }

        @Override
        public int coordinator() {
            return coordinator;
        }

        @Override
        public List<Outgoing> start() {
            if (started) throw new IllegalStateException("already started");
            started = true;
            startRequest = requestIds.getAsLong();
            return List.of(new Outgoing(coordinator, new Start(startRequest, lst)));
        }

        @Override
        public List<Outgoing> onResponse(ClientResponse response) {
            long id = response.requestId();
            if (id == startRequest) {
                startRequest = -1;
                if (isFinished()) return List.of();
                if (!(response instanceof StartReply s)) {
                    failed(asFailure(response));
                    aborted(); // nothing was sent to a coordinator
                    return List.of();
                }
                onSnapshot(s.lt());
                List<KeyValue> kvs = new ArrayList<>(writes.size());
                for (Map.Entry<Key, byte[]> e : writes.entrySet()) kvs.add(new KeyValue(e.getKey(), e.getValue()));
                commitRequest = requestIds.getAsLong();
                return List.of(new Outgoing(coordinator, new CommitRequest(commitRequest, txnId(), s.lt(), hwt, kvs)));
            }
            boolean query = outcomeRequests.remove(id);
            if (!query && id != commitRequest) return List.of();
            if (id == commitRequest) commitRequest = -1;
            if (response instanceof CommitReply c && txnId().equals(c.txnId())) {
                if (outcome() != Outcome.UNDECIDED) return List.of();
                if (c.outcome() == Outcome.COMMITTED) committedAt(c.ct());
                else if (c.outcome() == Outcome.ABORTED) aborted();
            } else if (!query) {
                // A coordinator refuses a commit request before preparing anything: it can never commit.
                failed(asFailure(response));
                if (outcome() == Outcome.UNDECIDED) aborted();
            }
            return List.of();
        }

        private void committedAt(long ct) {
            WrenStamp stamp = new WrenStamp(ct, txnId());
            committed(stamp);
            hwt = Math.max(hwt, ct);
            if (!writeCache) return;
            for (Map.Entry<Key, byte[]> e : writes.entrySet()) {
                Cached old = cache.get(e.getKey());
                if (old == null || old.stamp().compareTo(stamp) < 0) cache.put(e.getKey(), new Cached(e.getValue(), stamp));
            }
        }

        private ErrorReply asFailure(ClientResponse response) {
            return response instanceof ErrorReply e ? e
                    : ErrorReply.of(response.requestId(), ErrorCode.INTERNAL, "unexpected answer to a write: " + response);
        }

        /**
         * Asks the coordinator. It answers COMMITTED with the commit time, UNDECIDED while the transaction is within its
         * timeout, ABORTED after (deciding the abort then if need be) or for a transaction it never saw (it then
         * remembers the abort, so a commit request arriving later is refused).
         */
        @Override
        public Outgoing queryOutcome() {
            long id = requestIds.getAsLong();
            outcomeRequests.add(id);
            return new Outgoing(coordinator, new OutcomeRequest(id, txnId()));
        }

        /** START first, then the commit request with the writes. */
        @Override
        public int roundsBeforeWrites() {
            return 1;
        }
    }
}
