package io.fastccs.testkit;

import io.fastccs.protocol.ClientSession;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.Outgoing;
import io.fastccs.protocol.ReadTransaction;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.WriteTransaction;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.Message;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.core.messages.RingReply;
import io.fastccs.core.messages.RingRequest;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.core.ring.TokenRing;
import io.fastccs.server.node.InProcessCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The node host and transport end to end, through the test kit's raw client: real sockets, real partitions, in-memory
 * stores. It lives here rather than in server-patch because the raw client does (server-patch cannot depend on the
 * test kit, which depends on the client, whose tests use server-patch's in-process cluster).
 */
class InProcessNodeWireTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static InProcessCluster cluster;
    private static TokenRing ring;
    private static final List<RawClient> connections = new ArrayList<>();
    private static final AtomicLong requestIds = new AtomicLong();

    @BeforeAll
    static void start() throws Exception {
        cluster = InProcessCluster.start(3);
        for (var address : cluster.contactPoints()) {
            RawClient c = RawClient.openBare(address, TIMEOUT);
            c.send(Hello.client(null, null));
            assertThat(c.receive()).isInstanceOf(HelloReply.class);
            connections.add(c);
        }
        connections.get(0).send(new RingRequest(1));
        RingReply reply = (RingReply) connections.get(0).receive();
        ring = TokenRing.of(reply.members());
    }

    @AfterAll
    static void stop() throws IOException {
        for (RawClient c : connections) c.close();
        if (cluster != null) cluster.close();
    }

    private static ClientResponse exchange(Outgoing o) throws IOException {
        RawClient c = connections.get(o.partition());
        c.send(o.request());
        return (ClientResponse) c.receive();
    }

    private static ReadTransaction.Result read(ClientSession session, List<String> keys) throws IOException {
        List<Key> ks = new ArrayList<>();
        for (String k : keys) ks.add(Key.of(k));
        ReadTransaction txn = session.read(ks);
        List<Outgoing> pending = new ArrayList<>(txn.start());
        while (!pending.isEmpty()) {
            Outgoing o = pending.remove(0);
            pending.addAll(txn.onResponse(exchange(o)));
        }
        assertThat(txn.succeeded()).as("read failed: %s", txn.failure()).isTrue();
        return txn.result();
    }

    private static WriteTransaction write(ClientSession session, Map<String, String> values) throws IOException {
        Map<Key, byte[]> writes = new LinkedHashMap<>();
        values.forEach((k, v) -> writes.put(Key.of(k), v.getBytes(StandardCharsets.UTF_8)));
        WriteTransaction txn = session.write(writes, new SplittableRandom(7));
        List<Outgoing> out = txn.start();
        for (Outgoing o : out) connections.get(o.partition()).send(o.request());
        for (Outgoing o : out) txn.onResponse((ClientResponse) connections.get(o.partition()).receive());
        return txn;
    }

    private static ClientSession session() {
        return new ClientSession(ring, new SplittableRandom().nextLong(), VectorClock.zero(ring.partitions()),0, 
                requestIds::incrementAndGet);
    }

    @Test
    void writeThenReadYourWritesAcrossPartitions() throws Exception {
        ClientSession s = session();
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < 12; i++) values.put("k" + i, "v" + i);
        WriteTransaction w = write(s, values);
        assertThat(w.isConfirmed()).isTrue();
        assertThat(w.participants()).hasSizeGreaterThan(1);
        ReadTransaction.Result r = read(s, new ArrayList<>(values.keySet()));
        for (var e : values.entrySet())
            assertThat(new String(r.values().get(Key.of(e.getKey())).value(), StandardCharsets.UTF_8)).isEqualTo(e.getValue());
    }

    @Test
    void ringListsEveryPartitionInTokenOrder() {
        assertThat(ring.partitions()).isEqualTo(3);
        for (int p = 0; p < 3; p++) assertThat(ring.member(p).port()).isEqualTo(cluster.contactPoints().get(p).getPort());
    }

    @Test
    void keyOfAnotherPartitionIsRefusedWithItsOwner() throws Exception {
        Key key = Key.of("somewhere");
        int owner = ring.ownerOf(key);
        int wrong = (owner + 1) % 3;
        RawClient c = connections.get(wrong);
        c.send(new FirstRoundRead(99, List.of(key), VectorClock.zero(3)));
        ErrorReply e = (ErrorReply) c.receive();
        assertThat(e.code()).isEqualTo(ErrorCode.NOT_OWNER);
        assertThat(e.owner()).isEqualTo(owner);
        assertThat(e.requestId()).isEqualTo(99);
    }

    @Test
    void malformedFrameGetsAnErrorAndTheConnectionKeepsWorking() throws Exception {
        try (RawClient c = helloed()) {
            c.sendFrame(new byte[]{1, 2, 3, 4, 5});
            ErrorReply e = (ErrorReply) c.receive();
            assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_FRAME);
            c.send(new RingRequest(5));
            assertThat(c.receive()).isInstanceOf(RingReply.class);
        }
    }

    @Test
    void unknownMessageTypeIsNamedAsSuch() throws Exception {
        try (RawClient c = helloed()) {
            // A Frame whose body union holds field id 99 (an empty struct): a message type from a newer version.
            c.sendFrame(new byte[]{0x1c, 0x0c, (byte) 0xc6, 0x01, 0x00, 0x00, 0x00});
            ErrorReply e = (ErrorReply) c.receive();
            assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_MESSAGE);
            c.send(new RingRequest(6));
            assertThat(c.receive()).isInstanceOf(RingReply.class);
        }
    }

    @Test
    void oversizedLengthPrefixClosesOnlyThatConnection() throws Exception {
        try (RawClient c = helloed()) {
            c.sendBytes(ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE - 1).array());
            assertThat(c.closedByNode()).isTrue();
        }
        writeThenReadYourWritesAcrossPartitions(); // the node still serves
    }

    @Test
    void firstFrameMustBeHello() throws Exception {
        try (RawClient c = RawClient.openBare(cluster.contactPoints().get(0), TIMEOUT)) {
            c.send(new RingRequest(3));
            Message m = c.receive();
            assertThat(m).isInstanceOf(ErrorReply.class);
            assertThat(c.closedByNode()).isTrue();
        }
    }

    @Test
    void clientMayNotSendPeerMessages() throws Exception {
        try (RawClient c = helloed()) {
            c.send(new Stabilize(1, 1_000_000));
            ErrorReply e = (ErrorReply) c.receive();
            assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_MESSAGE);
            c.send(new Prepared(new io.fastccs.core.primitives.TxnId(1, 1), 1, 5, List.of(0, 1), 1_000));
            assertThat(((ErrorReply) c.receive()).code()).isEqualTo(ErrorCode.UNKNOWN_MESSAGE);
        }
        long svc1 = cluster.node(0).inspect(p -> p.snapshot().get(1));
        assertThat(svc1).isLessThan(1_000_000L);
    }

    private static RawClient helloed() throws IOException {
        RawClient c = RawClient.openBare(cluster.contactPoints().get(0), TIMEOUT);
        c.send(Hello.client(null, null));
        assertThat(c.receive()).isInstanceOf(HelloReply.class);
        return c;
    }
}
