package io.fastccs.baselines.eiger;

import io.fastccs.core.Outgoing;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.Topology;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.spi.ReadStep;
import io.fastccs.core.spi.WriteStep;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A tiny deterministic harness: partitions, a fake clock and one queue of messages in flight (client requests, their
 * responses and peer messages); a test delivers them in the order it scripts, or a seeded Random picks.
 *
 * <p>Keys are named {@code "<partition>:<name>"}; the number before the colon is the owner.
 */
final class EigerTestCluster {
    static final Topology TOPOLOGY_3 = topology(3);

    static Topology topology(int n) {
        return new Topology() {
            @Override
            public int partitions() {
                return n;
            }

            @Override
            public int ownerOf(Key key) {
                String s = key.toString();
                int colon = s.indexOf(':');
                if (colon > 0) {
                    try {
                        return Math.floorMod(Integer.parseInt(s.substring(0, colon)), n);
                    } catch (NumberFormatException e) {
                        // fall through
                    }
                }
                return Math.floorMod(key.hashCode(), n);
            }
        };
    }

    /** A message in flight. */
    sealed interface Envelope permits Request, Response, Peer {
    }

    record Request(int partition, ClientRequest request, Consumer<ClientResponse> onReply) implements Envelope {
    }

    record Response(ClientResponse response, Consumer<ClientResponse> onReply) implements Envelope {
    }

    record Peer(int from, int to, PeerMessage message) implements Envelope {
    }

    final Topology topology;
    final EigerProtocol protocol;
    final EigerPartition[] partitions;
    final List<Envelope> inFlight = new ArrayList<>();
    long now = 1_000_000;
    long nextRequestId = 1;
    int delivered;

    EigerTestCluster(int n, PartitionConfig config, Set<EigerBug> bugs) {
        topology = topology(n);
        protocol = new EigerProtocol(bugs);
        partitions = new EigerPartition[n];
        for (int i = 0; i < n; i++) {
            int self = i;
            partitions[i] = protocol.startPartition(i, config, topology, (to, m) -> inFlight.add(new Peer(self, to, m)), () -> now);
        }
    }

    EigerTestCluster(int n) {
        this(n, PartitionConfig.defaults(), Set.of());
    }

    EigerSession session(long clientId) {
        return protocol.newSession(topology, clientId, () -> nextRequestId++);
    }

    /** Queues a request whose responses go to {@code onReply}. */
    void submit(Outgoing o, Consumer<ClientResponse> onReply) {
        inFlight.add(new Request(o.partition(), o.request(), onReply));
    }

    /** Starts a read: its requests are queued, and its responses feed it and queue what it sends next. */
    ReadStep startRead(EigerSession s, List<Key> keys) {
        ReadStep step = s.read(keys);
        Consumer<ClientResponse>[] sink = new Consumer[1];
        sink[0] = r -> step.onResponse(r).forEach(o -> submit(o, sink[0]));
        step.start().forEach(o -> submit(o, sink[0]));
        return step;
    }

    WriteStep startWrite(EigerSession s, java.util.Map<Key, byte[]> writes, java.util.random.RandomGenerator random) {
        WriteStep step = s.write(writes, random);
        Consumer<ClientResponse> sink = r -> step.onResponse(r);
        step.start().forEach(o -> submit(o, sink));
        return step;
    }

    void deliver(Envelope e) {
        inFlight.remove(e);
        delivered++;
        if (e instanceof Request r) partitions[r.partition()].onClientRequest(resp -> inFlight.add(new Response(resp, r.onReply())), r.request());
        else if (e instanceof Response r) r.onReply().accept(r.response());
        else if (e instanceof Peer p) partitions[p.to()].onPeerMessage(p.from(), p.message());
    }

    /** Delivers the oldest message matching {@code which}; fails if there is none. */
    Envelope deliverFirst(Predicate<Envelope> which) {
        for (Envelope e : inFlight)
            if (which.test(e)) {
                deliver(e);
                return e;
            }
        throw new AssertionError("no message in flight matches; in flight: " + inFlight);
    }

    /** Delivers every message matching {@code which}, oldest first, including those they cause, until none is left. */
    void deliverAll(Predicate<Envelope> which) {
        while (true) {
            Envelope next = null;
            for (Envelope e : inFlight)
                if (which.test(e)) {
                    next = e;
                    break;
                }
            if (next == null) return;
            deliver(next);
        }
    }

    void deliverAll() {
        deliverAll(e -> true);
    }

    /** Delivers a random message in flight; false if none. */
    boolean deliverRandom(Random random) {
        if (inFlight.isEmpty()) return false;
        deliver(inFlight.get(random.nextInt(inFlight.size())));
        return true;
    }

    void tick(long advanceMicros) {
        now += advanceMicros;
        for (EigerPartition p : partitions) p.tick();
    }

    static Predicate<Envelope> peer(Class<? extends PeerMessage> type) {
        return e -> e instanceof Peer p && type.isInstance(p.message());
    }

    static Predicate<Envelope> request(Class<? extends ClientRequest> type, int partition) {
        return e -> e instanceof Request r && r.partition() == partition && type.isInstance(r.request());
    }

    static Key key(String s) {
        return Key.of(s);
    }

    /** Always picks 0: the lowest-numbered participant coordinates, with its first key as coordinator key. */
    static final java.util.random.RandomGenerator FIRST = new java.util.random.RandomGenerator() {
        @Override
        public long nextLong() {
            return 0;
        }

        @Override
        public int nextInt(int bound) {
            return 0;
        }
    };
}
