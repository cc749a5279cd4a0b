package io.fastccs.baselines.wren;

import io.fastccs.core.Outgoing;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.impl.HashTopology;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.spi.ReadResult;
import io.fastccs.core.spi.ReadStep;
import io.fastccs.core.spi.WriteStep;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * A tiny deterministic harness: partitions, one fake clock, a pool of pending messages delivered in FIFO or seeded
 * random order, optional loss of peer messages, messages held back by a predicate, and explicit ticks.
 */
final class WrenSim {
    sealed interface Envelope permits Peer, Request, Response {
    }

    record Peer(int from, int to, PeerMessage message) implements Envelope {
    }

    record Request(Function<ClientResponse, List<Outgoing>> client, int to, ClientRequest request) implements Envelope {
    }

    record Response(Function<ClientResponse, List<Outgoing>> client, ClientResponse response) implements Envelope {
    }

    final HashTopology topology;
    final PartitionConfig config;
    final WrenProtocol protocol;
    final List<WrenPartition> partitions = new ArrayList<>();
    final List<Envelope> pending = new ArrayList<>();
    final List<Envelope> held = new ArrayList<>();
    final List<Peer> sentPeer = new ArrayList<>();
    private final Random random;
    long now = 1_000_000;
    boolean randomOrder;
    double peerLoss;
    /** Loss rate of client requests and responses. */
    double clientLoss;
    /** Messages matching this are held back (not delivered) until {@link #release()}. */
    Predicate<Envelope> hold = e -> false;
    /** Peer messages matching this are dropped. */
    Predicate<Peer> drop = p -> false;
    private long requestIds;
    private long clientIds;

    WrenSim(int partitions, PartitionConfig config, Set<WrenBug> bugs, long seed) {
        this.topology = new HashTopology(partitions);
        this.config = config;
        this.protocol = new WrenProtocol(bugs);
        this.random = new Random(seed);
        for (int p = 0; p < partitions; p++) {
            int from = p;
            partitions().add((WrenPartition) protocol.startPartition(p, config, topology,
                    (to, m) -> {
                        Peer e = new Peer(from, to, m);
                        sentPeer.add(e);
                        pending.add(e);
                    }, () -> now));
        }
    }

    WrenSim(int partitions) {
        this(partitions, PartitionConfig.defaults(), Set.of(), 1);
    }

    List<WrenPartition> partitions() {
        return partitions;
    }

    WrenPartition partition(int p) {
        return partitions.get(p);
    }

    WrenSession newSession() {
        return (WrenSession) protocol.newSession(topology, ++clientIds, () -> ++requestIds);
    }

    /** A key owned by partition {@code p}. */
    Key keyOn(int p, String prefix) {
        for (int i = 0; ; i++) {
            Key k = Key.of(prefix + i);
            if (topology.ownerOf(k) == p) return k;
        }
    }

    void send(Function<ClientResponse, List<Outgoing>> client, List<Outgoing> out) {
        for (Outgoing o : out) pending.add(new Request(client, o.partition(), o.request()));
    }

    void submit(ReadStep step) {
        send(step::onResponse, step.start());
    }

    void submit(WriteStep step) {
        send(step::onResponse, step.start());
    }

    /** Delivers one pending message; false if nothing deliverable. */
    boolean deliverOne() {
        for (int i = pending.size() - 1; i >= 0; i--)
            if (hold.test(pending.get(i))) held.add(pending.remove(i));
        if (pending.isEmpty()) return false;
        Envelope e = pending.remove(randomOrder ? random.nextInt(pending.size()) : 0);
        deliver(e);
        return true;
    }

    private void deliver(Envelope e) {
        if (e instanceof Peer p) {
            if (drop.test(p) || (peerLoss > 0 && random.nextDouble() < peerLoss)) return;
            partitions.get(p.to()).onPeerMessage(p.from(), p.message());
        } else if (clientLoss > 0 && random.nextDouble() < clientLoss) {
            return;
        } else if (e instanceof Request r) {
            partitions.get(r.to()).onClientRequest(resp -> pending.add(new Response(r.client(), resp)), r.request());
        } else if (e instanceof Response r) {
            send(r.client(), r.client().apply(r.response()));
        }
    }

    /** Delivers everything deliverable (including what that sends), without moving time. */
    void drain() {
        while (deliverOne()) {
        }
    }

    void release() {
        pending.addAll(held);
        held.clear();
        hold = e -> false;
    }

    void tickAll() {
        for (WrenPartition p : partitions) p.tick();
    }

    void advance(long micros) {
        now += micros;
    }

    /** Moves time in steps, ticking and draining, for {@code micros}. */
    void run(long micros, long step) {
        long end = now + micros;
        while (now < end) {
            advance(step);
            tickAll();
            drain();
        }
    }

    /** Runs (delivering, and ticking every few deliveries) until {@code done}; fails after many steps. */
    void runUntil(BooleanSupplier done) {
        for (int i = 0; i < 1_000_000; i++) {
            if (done.getAsBoolean()) return;
            if (!deliverOne() || i % 8 == 7) {
                advance(100 + (randomOrder ? random.nextInt(400) : 0));
                tickAll();
            }
        }
        throw new AssertionError("did not finish; pending " + pending.size() + ", held " + held.size() + "; " + partitions);
    }

    ReadResult read(WrenSession s, Key... keys) {
        ReadStep r = s.read(List.of(keys));
        submit(r);
        runUntil(r::isFinished);
        if (!r.succeeded()) throw new AssertionError("read failed: " + r.failure());
        return r.result();
    }

    WriteStep write(WrenSession s, Map<Key, byte[]> writes, RandomGenerator random) {
        WriteStep w = s.write(writes, random);
        submit(w);
        runUntil(w::isFinished);
        return w;
    }

    /** The last response of a request sent directly to a partition. */
    ClientResponse ask(int partition, ClientRequest request) {
        ClientResponse[] out = new ClientResponse[1];
        partitions.get(partition).onClientRequest(resp -> out[0] = resp, request);
        return out[0];
    }
}
