package io.fastccs.baselines.eiger;

import io.fastccs.core.Outgoing;
import io.fastccs.core.api.Topology;
import io.fastccs.baselines.eiger.EigerMessages.CohortWrite;
import io.fastccs.baselines.eiger.EigerMessages.CoordWrite;
import io.fastccs.baselines.eiger.EigerMessages.Dep;
import io.fastccs.baselines.eiger.EigerMessages.KeyVersion;
import io.fastccs.baselines.eiger.EigerMessages.OutcomeQuery;
import io.fastccs.baselines.eiger.EigerMessages.OutcomeReply;
import io.fastccs.baselines.eiger.EigerMessages.Read1;
import io.fastccs.baselines.eiger.EigerMessages.ReadAt;
import io.fastccs.baselines.eiger.EigerMessages.ReadReply;
import io.fastccs.baselines.eiger.EigerMessages.WriteAck;
import io.fastccs.baselines.eiger.EigerMessages.WriteReply;
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

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * An Eiger client session: a Lamport clock, the dependency set (nearest dependencies as (key, version) pairs, cleared
 * and replaced by the coordinator key on each write, as Eiger's ClientContext does), and the highest commit time it has
 * observed (its read floor, a departure from Eiger's client for read-your-writes; see {@link ReadTxn}).
 */
public final class EigerSession implements ProtocolSession {
    private final Topology topology;
    private final long clientId;
    private final LongSupplier requestIds;
    private final Set<EigerBug> bugs;
    private long clock;
    /** Highest EVT this session has read or committed: no later read is answered at an earlier time. */
    private long floor;
    private final LinkedHashMap<Key, Long> deps = new LinkedHashMap<>();
    private long txnSeq;

    EigerSession(Topology topology, long clientId, LongSupplier requestIds, Set<EigerBug> bugs) {
        this.topology = topology;
        this.clientId = clientId;
        this.requestIds = requestIds;
        this.bugs = bugs;
    }

    @Override
    public long clientId() {
        return clientId;
    }

    /** The session's Lamport clock. */
    public long clock() {
        return clock;
    }

    /** The dependency set, as (key, version) pairs. */
    public List<Dep> dependencies() {
        List<Dep> out = new ArrayList<>(deps.size());
        deps.forEach((k, v) -> out.add(new Dep(k, v)));
        return out;
    }

    private void receive(long remote) {
        clock = Math.max(clock, remote) + 1;
    }

    @Override
    public ReadStep read(Collection<Key> keys) {
        List<Key> list = List.copyOf(keys);
        if (list.isEmpty()) throw new IllegalArgumentException("a read needs at least one key");
        if (new HashSet<>(list).size() != list.size()) throw new IllegalArgumentException("a read's keys must be distinct");
        return new ReadTxn(list);
    }

    @Override
    public WriteStep write(Map<Key, byte[]> writes, RandomGenerator random) {
        if (writes.isEmpty()) throw new IllegalArgumentException("a write needs at least one key");
        return new WriteTxn(writes, random);
    }

    /**
     * A read-only transaction: round one everywhere; if the validity intervals do not overlap (minLVT < maxEVT), round
     * two at t = the smallest LVT above maxEVT (maxEVT if none) for the keys whose LVT is below t. maxEVT also takes the
     * session's floor, so a read never goes back behind what the session saw or wrote (Eiger's client does not do
     * this; without it a one-key read at a cohort that has not yet received the Commit of the session's own write
     * returns the old value).
     */
    final class ReadTxn extends AbstractReadStep {
        private final List<Key> keys;
        private final Map<Long, Integer> awaiting = new LinkedHashMap<>();
        private final Map<Key, KeyVersion> got = new LinkedHashMap<>();
        private int round;
        private boolean waited;
        private int secondRoundPartitions;

        ReadTxn(List<Key> keys) {
            this.keys = keys;
        }

        @Override
        public List<Outgoing> start() {
            round = 1;
            List<Outgoing> out = new ArrayList<>();
            for (Map.Entry<Integer, List<Key>> e : topology.byOwner(keys).entrySet()) {
                long id = requestIds.getAsLong();
                awaiting.put(id, e.getKey());
                out.add(new Outgoing(e.getKey(), new Read1(id, clock, e.getValue())));
            }
            return out;
        }

        @Override
        public List<Outgoing> onResponse(ClientResponse response) {
            if (isFinished() || !awaiting.containsKey(response.requestId())) return List.of();
            awaiting.remove(response.requestId());
            if (response instanceof ErrorReply e) {
                fail(e);
                return List.of();
            }
            if (!(response instanceof ReadReply r)) {
                fail(ErrorReply.of(response.requestId(), ErrorCode.INTERNAL, "unexpected answer to a read: " + response));
                return List.of();
            }
            receive(r.clock());
            if (r.checkedCoordinator()) waited = true;
            for (KeyVersion kv : r.values()) got.put(kv.key(), kv);
            if (!awaiting.isEmpty()) return List.of();
            if (round == 2) {
                finish(waited ? 3 : 2);
                return List.of();
            }
            long maxEvt = floor, minLvt = Long.MAX_VALUE;
            TreeMap<Long, List<Key>> byLvt = new TreeMap<>();
            for (Key k : keys) {
                KeyVersion kv = got.get(k);
                if (kv == null) {
                    fail(ErrorReply.of(r.requestId(), ErrorCode.INTERNAL, "no value for " + k + " in round one"));
                    return List.of();
                }
                maxEvt = Math.max(maxEvt, kv.evt());
                minLvt = Math.min(minLvt, kv.lvt());
                byLvt.computeIfAbsent(kv.lvt(), x -> new ArrayList<>()).add(k);
            }
            if (minLvt >= maxEvt || bugs.contains(EigerBug.FIRST_ROUND_ONLY)) {
                finish(1);
                return List.of();
            }
            Long higher = byLvt.higherKey(maxEvt);
            long t = higher == null ? maxEvt : higher;
            List<Key> again = new ArrayList<>();
            for (Key k : keys) if (got.get(k).lvt() < t) again.add(k);
            round = 2;
            List<Outgoing> out = new ArrayList<>();
            for (Map.Entry<Integer, List<Key>> e : topology.byOwner(again).entrySet()) {
                long id = requestIds.getAsLong();
                awaiting.put(id, e.getKey());
                out.add(new Outgoing(e.getKey(), new ReadAt(id, clock, e.getValue(), t)));
            }
            secondRoundPartitions = out.size();
            return out;
        }

        private void finish(int rounds) {
            Map<Key, ReadValue> values = new LinkedHashMap<>();
            for (Key k : keys) {
                KeyVersion kv = got.get(k);
                if (kv.value() == null) {
                    values.put(k, new ReadValue(k, null, 0));
                } else {
                    values.put(k, new ReadValue(k, kv.value(), kv.version()));
                    floor = Math.max(floor, kv.evt());
                    deps.put(kv.coordKey() != null ? kv.coordKey() : k, kv.version());
                }
            }
            succeed(new ReadResult(values, rounds, rounds == 1 ? 0 : secondRoundPartitions));
        }

    }

    /**
     * A write-only transaction: one request per participant; the coordinator (a random participant, its coordinator
     * key a random key it owns among the writes) gets every participant and the dependency set. Confirmed when the
     * coordinator answers COMMITTED.
     */
    final class WriteTxn extends AbstractWriteStep {
        private final int coordinator;
        private final List<Outgoing> requests = new ArrayList<>();
        private final Set<Long> ours = new HashSet<>();

        WriteTxn(Map<Key, byte[]> writes, RandomGenerator random) {
            super(new TxnId(clientId, ++txnSeq));
            TxnId txnId = txnId();
            TreeMap<Integer, List<KeyValue>> byOwner = new TreeMap<>();
            for (Map.Entry<Key, byte[]> e : writes.entrySet())
                byOwner.computeIfAbsent(topology.ownerOf(e.getKey()), p -> new ArrayList<>()).add(new KeyValue(e.getKey(), e.getValue()));
            List<Integer> participants = new ArrayList<>(byOwner.keySet());
            coordinator = participants.get(random.nextInt(participants.size()));
            List<KeyValue> own = byOwner.get(coordinator);
            Key coordKey = own.get(random.nextInt(own.size())).key();
            for (Map.Entry<Integer, List<KeyValue>> e : byOwner.entrySet()) {
                long id = requestIds.getAsLong();
                ours.add(id);
                if (e.getKey() == coordinator)
                    requests.add(new Outgoing(e.getKey(), new CoordWrite(id, clock, txnId, coordKey, e.getValue(), participants, dependencies())));
                else
                    requests.add(new Outgoing(e.getKey(), new CohortWrite(id, clock, txnId, coordinator, coordKey, e.getValue())));
            }
        }

        /** The coordinator partition. */
        public int coordinator() {
            return coordinator;
        }

        @Override
        public List<Outgoing> start() {
            return List.copyOf(requests);
        }

        @Override
        public List<Outgoing> onResponse(ClientResponse response) {
            if (!ours.contains(response.requestId()) || outcome() != Outcome.UNDECIDED) return List.of();
            if (response instanceof WriteAck a) receive(a.clock());
            else if (response instanceof WriteReply w) {
                receive(w.clock());
                decided(w.outcome(), w.stamp());
            } else if (response instanceof OutcomeReply o) {
                receive(o.clock());
                decided(o.outcome(), o.stamp());
            } else if (response instanceof ErrorReply e) {
                failed(e);
                // A refused request (bad input, wrong owner) stores nothing: that participant never votes, so the
                // coordinator cannot commit. Other errors say nothing certain.
                if (e.code() == ErrorCode.INVALID_REQUEST || e.code() == ErrorCode.NOT_OWNER) aborted();
            } else {
                failed(ErrorReply.of(response.requestId(), ErrorCode.INTERNAL, "unexpected answer to a write: " + response));
            }
            return List.of();
        }

        private void decided(Outcome o, long s) {
            if (o == Outcome.COMMITTED) {
                committed(s);
                failed(null);
                floor = Math.max(floor, Stamps.commitTimeOf(s));
                deps.clear();
                deps.put(coordKeyOf(), s);
            } else if (o == Outcome.ABORTED) {
                aborted();
                failed(null);
            }
        }

        private Key coordKeyOf() {
            for (Outgoing o : requests) if (o.request() instanceof CoordWrite c) return c.coordKey();
            throw new AssertionError();
        }

        @Override
        public Outgoing queryOutcome() {
            long id = requestIds.getAsLong();
            ours.add(id);
            return new Outgoing(coordinator, new OutcomeQuery(id, clock, txnId()));
        }
    }
}
