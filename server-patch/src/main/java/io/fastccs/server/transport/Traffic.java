package io.fastccs.server.transport;

import io.fastccs.core.primitives.Protocol;
import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Frames and bytes through one node's FastCCS port, per protocol and kind: client requests in, client answers out,
 * peer messages in. Every message of a protocol crosses exactly one node's port this way (a peer message is counted
 * where it arrives), so the sums over all nodes are the protocol's messages and bytes, each frame with its 4-byte
 * length. Frames before a connection's Hello is accepted (the handshake itself, refusals) are not counted.
 */
public final class Traffic {
    /** What a connection's frames count as, once its Hello named the protocol and the side. */
    public enum Kind {
        CLIENT_REQUESTS("client_requests"), CLIENT_ANSWERS("client_answers"), PEER_MESSAGES("peer_messages");

        final String word;

        Kind(String word) {
            this.word = word;
        }
    }

    static final AttributeKey<Counters> INBOUND = AttributeKey.valueOf("fastccs.traffic.in");
    static final AttributeKey<Counters> OUTBOUND = AttributeKey.valueOf("fastccs.traffic.out");

    private final Map<Protocol, Map<Kind, Counters>> counters = new EnumMap<>(Protocol.class);

    public Traffic() {
        for (Protocol p : Protocol.values()) {
            Map<Kind, Counters> byKind = new EnumMap<>(Kind.class);
            for (Kind k : Kind.values()) byKind.put(k, new Counters());
            counters.put(p, byKind);
        }
    }

    /** From now on, what {@code channel} receives and sends counts for {@code protocol}, as a peer's or a client's. */
    void attach(Channel channel, Protocol protocol, boolean peer) {
        Map<Kind, Counters> c = counters.get(protocol);
        channel.attr(INBOUND).set(c.get(peer ? Kind.PEER_MESSAGES : Kind.CLIENT_REQUESTS));
        if (!peer) channel.attr(OUTBOUND).set(c.get(Kind.CLIENT_ANSWERS));
    }

    static void count(Channel channel, AttributeKey<Counters> direction, int frameBytes) {
        Counters c = channel.attr(direction).get();
        if (c != null) c.add(frameBytes + 4);
    }

    /**
     * Every counter by name, {@code <protocol>.<kind>.frames} and {@code <protocol>.<kind>.bytes} (e.g.
     * {@code eiger.peer_messages.frames}), totals since the node started.
     */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new LinkedHashMap<>();
        counters.forEach((protocol, byKind) -> byKind.forEach((kind, c) -> {
            out.put(protocol.word() + "." + kind.word + ".frames", c.frames.sum());
            out.put(protocol.word() + "." + kind.word + ".bytes", c.bytes.sum());
        }));
        return out;
    }

    static final class Counters {
        final LongAdder frames = new LongAdder();
        final LongAdder bytes = new LongAdder();

        void add(int frameBytes) {
            frames.increment();
            bytes.add(frameBytes);
        }
    }
}
