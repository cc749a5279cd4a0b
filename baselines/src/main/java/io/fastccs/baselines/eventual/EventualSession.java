package io.fastccs.baselines.eventual;

import io.fastccs.core.Outgoing;
import io.fastccs.core.api.Topology;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ClientResponse;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
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

    /** The requests in flight of one transaction, each with its partition; answers to anything else are ignored. */
    private final class InFlight {
        private final Map<Long, Integer> partitions = new HashMap<>();
        private final Set<Long> sent = new HashSet<>();

        Outgoing send(int partition, LongFunction<ClientRequest> request) {
            long id = requestIds.getAsLong();
            partitions.put(id, partition);
            sent.add(id);
            return new Outgoing(partition, request.apply(id));
        }

        /** Whether {@code response} answers one of ours (it is then no longer in flight). */
        boolean answered(ClientResponse response) {
            return partitions.remove(response.requestId()) != null;
        }

        /** Whether {@code response} answers a request this transaction sent (answered or not). */
        boolean ours(ClientResponse response) {
            return sent.contains(response.requestId());
        }

        boolean allAnswered() {
            return partitions.isEmpty();
        }
    }

    private final class Read extends AbstractReadStep {
        private final List<Key> keys;
        private final InFlight inFlight = new InFlight();
        private final Map<Key, ReadValue> values = new HashMap<>();

        Read(List<Key> keys) {
            this.keys = keys;
        }

        @Override
        public List<Outgoing> start() {
            List<Outgoing> out = new ArrayList<>();
            topology.byOwner(keys).forEach((p, ks) -> out.add(inFlight.send(p, id -> new EventualMessages.Read(id, ks))));
            return out;
        }

        @Override
        public List<Outgoing> onResponse(ClientResponse response) {
            if (isFinished() || !inFlight.answered(response)) return List.of();
            if (response instanceof ErrorReply e) {
                fail(e);
            } else if (response instanceof EventualMessages.ReadAnswer a) {
                heard(a.time());
                for (ReadValue v : a.values()) values.put(v.key(), v);
                if (inFlight.allAnswered()) {
                    Map<Key, ReadValue> ordered = new LinkedHashMap<>();
                    for (Key k : keys) ordered.put(k, values.get(k));
                    succeed(new ReadResult(ordered, 1, 0));
                }
            }
            return List.of();
        }
    }

    private final class Write extends AbstractWriteStep {
        private final Map<Key, byte[]> writes;
        private final InFlight inFlight = new InFlight();
        private EventualStamp stamp;

        Write(TxnId txnId, Map<Key, byte[]> writes) {
            super(txnId);
            this.writes = writes;
        }

        @Override
        public List<Outgoing> start() {
            stamp = new EventualStamp(++time, clientId, txnId().sequence());
            List<Outgoing> out = new ArrayList<>();
            topology.byOwner(writes.keySet()).forEach((p, ks) -> {
                List<KeyValue> kvs = new ArrayList<>(ks.size());
                for (Key k : ks) kvs.add(new KeyValue(k, writes.get(k)));
                out.add(inFlight.send(p, id -> new EventualMessages.Write(id, txnId(), stamp, kvs)));
            });
            return out;
        }

        /** Applied wherever it arrived: committed once every partition answered (nothing can abort it). */
        @Override
        public List<Outgoing> onResponse(ClientResponse response) {
            if (isFinished() || !inFlight.answered(response)) return List.of();
            if (response instanceof ErrorReply e) {
                failed(e);
            } else if (response instanceof EventualMessages.WriteAnswer a) {
                heard(a.time());
                if (inFlight.allAnswered()) committed(stamp);
            }
            return List.of();
        }

        /** Nothing to ask: a write is applied at whichever partitions it reached. */
        @Override
        public Outgoing queryOutcome() {
            return null;
        }

        /**
         * Without atomicity a write is what it did: committed (at its stamp) if at least one partition applied it, even if
         * others never got it or refused it, and aborted only if none did.
         */
        @Override
        public boolean settleFromAnswers(Collection<ClientResponse> participantAnswers) {
            if (outcome() != Outcome.UNDECIDED) return true;
            if (stamp == null) return false; // never started: nothing was sent
            for (ClientResponse r : participantAnswers)
                if (r instanceof EventualMessages.WriteAnswer && inFlight.ours(r)) {
                    committed(stamp);
                    return true;
                }
            aborted();
            return true;
        }
    }
}
