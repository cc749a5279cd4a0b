package io.fastccs.protocol.eventual;

import io.fastccs.protocol.Outgoing;
import io.fastccs.protocol.api.Topology;
import io.fastccs.protocol.messages.ClientResponse;
import io.fastccs.protocol.messages.ErrorReply;
import io.fastccs.protocol.messages.KeyValue;
import io.fastccs.protocol.messages.Outcome;
import io.fastccs.protocol.messages.ReadValue;
import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.spi.ProtocolSession;
import io.fastccs.protocol.spi.ReadResult;
import io.fastccs.protocol.spi.ReadStep;
import io.fastccs.protocol.spi.WriteStep;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * A client of the eventual protocol: a read asks each partition once for its keys; a write sends each partition its
 * keys with one stamp and is done when all answered. The only state is the Lamport time for stamps.
 */
final class EventualSession implements ProtocolSession {
    private final Topology topology;
    private final long clientId;
    private final LongSupplier requestIds;
    private long time;
    private long txnSequence;

    EventualSession(Topology topology, long clientId, LongSupplier requestIds) {
        this.topology = topology;
        this.clientId = clientId;
        this.requestIds = requestIds;
    }

    @Override
    public long clientId() {
        return clientId;
    }

    private void heard(long t) {
        time = Math.max(time, t);
    }

    @Override
    public ReadStep read(Collection<Key> keys) {
        return new Read(List.copyOf(keys));
    }

    @Override
    public WriteStep write(Map<Key, byte[]> writes, RandomGenerator random) {
        return new Write(new TxnId(clientId, ++txnSequence), new LinkedHashMap<>(writes));
    }

    private Map<Integer, List<Key>> byPartition(Collection<Key> keys) {
        Map<Integer, List<Key>> parts = new TreeMap<>();
        for (Key k : keys) parts.computeIfAbsent(topology.ownerOf(k), p -> new ArrayList<>()).add(k);
        return parts;
    }

    private final class Read implements ReadStep {
        private final List<Key> keys;
        private final Map<Long, Integer> pending = new HashMap<>();
        private final Map<Key, ReadValue> values = new HashMap<>();
        private ErrorReply failure;
        private boolean finished;

        Read(List<Key> keys) {
            this.keys = keys;
        }

        @Override
        public List<Outgoing> start() {
            List<Outgoing> out = new ArrayList<>();
            byPartition(keys).forEach((p, ks) -> {
                long id = requestIds.getAsLong();
                pending.put(id, p);
                out.add(new Outgoing(p, new EventualMessages.Read(id, ks)));
            });
            return out;
        }

        @Override
        public List<Outgoing> onResponse(ClientResponse response) {
            if (finished || pending.remove(response.requestId()) == null) return List.of();
            if (response instanceof ErrorReply e) {
                failure = e;
                finished = true;
            } else if (response instanceof EventualMessages.ReadAnswer a) {
                heard(a.time());
                for (ReadValue v : a.values()) values.put(v.key(), v);
                finished = pending.isEmpty();
            }
            return List.of();
        }

        @Override
        public boolean isFinished() {
            return finished;
        }

        @Override
        public boolean succeeded() {
            return finished && failure == null;
        }

        @Override
        public ReadResult result() {
            Map<Key, ReadValue> ordered = new LinkedHashMap<>();
            for (Key k : keys) ordered.put(k, values.get(k));
            return new ReadResult(ordered, 1, 0);
        }

        @Override
        public ErrorReply failure() {
            return failure;
        }
    }

    private final class Write implements WriteStep {
        private final TxnId txnId;
        private final Map<Key, byte[]> writes;
        private final Map<Long, Integer> pending = new HashMap<>();
        private EventualStamp stamp;
        private ErrorReply failure;
        private boolean finished;

        Write(TxnId txnId, Map<Key, byte[]> writes) {
            this.txnId = txnId;
            this.writes = writes;
        }

        @Override
        public TxnId txnId() {
            return txnId;
        }

        @Override
        public List<Outgoing> start() {
            stamp = new EventualStamp(++time, clientId, txnId.sequence());
            List<Outgoing> out = new ArrayList<>();
            byPartition(writes.keySet()).forEach((p, ks) -> {
                List<KeyValue> kvs = new ArrayList<>(ks.size());
                for (Key k : ks) kvs.add(new KeyValue(k, writes.get(k)));
                long id = requestIds.getAsLong();
                pending.put(id, p);
                out.add(new Outgoing(p, new EventualMessages.Write(id, txnId, stamp, kvs)));
            });
            return out;
        }

        @Override
        public List<Outgoing> onResponse(ClientResponse response) {
            if (finished || pending.remove(response.requestId()) == null) return List.of();
            if (response instanceof ErrorReply e) {
                failure = e;
                finished = true;
            } else if (response instanceof EventualMessages.WriteAnswer a) {
                heard(a.time());
                finished = pending.isEmpty();
            }
            return List.of();
        }

        @Override
        public boolean isFinished() {
            return finished;
        }

        @Override
        public boolean isConfirmed() {
            return finished && failure == null;
        }

        /** Applied wherever it arrived: committed once every partition answered (nothing can abort it). */
        @Override
        public Outcome outcome() {
            return isConfirmed() ? Outcome.COMMITTED : Outcome.UNDECIDED;
        }

        @Override
        public Object commitStamp() {
            return stamp;
        }

        @Override
        public ErrorReply failure() {
            return failure;
        }

        /** Nothing to ask: a write is applied at whichever partitions it reached. */
        @Override
        public Outgoing queryOutcome() {
            return null;
        }
    }
}
