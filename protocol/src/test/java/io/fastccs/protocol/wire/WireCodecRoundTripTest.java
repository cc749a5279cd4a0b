package io.fastccs.protocol.wire;

import io.fastccs.core.wire.WireCodec;
import io.fastccs.core.wire.WireLimits;
import io.fastccs.baselines.eiger.EigerMessages;
import io.fastccs.baselines.eventual.EventualMessages;
import io.fastccs.core.messages.Message;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.baselines.wren.WrenMessages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static io.fastccs.protocol.wire.WireTestMessages.comparable;
import static org.assertj.core.api.Assertions.assertThat;

class WireCodecRoundTripTest {

    static List<Message> samples() {
        return WireTestMessages.samples();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void roundTripsExactly(Message m) throws Exception {
        byte[] frame = WireCodec.encode(m);
        assertThat(comparable(WireCodec.decode(frame))).isEqualTo(comparable(m));
        assertThat(WireCodec.encodedSize(m)).isEqualTo(frame.length);
    }

    @ParameterizedTest
    @MethodSource("samples")
    void decodesAFrameInsideALargerBuffer(Message m) throws Exception {
        byte[] frame = WireCodec.encode(m);
        byte[] buf = new byte[frame.length + 20];
        java.util.Arrays.fill(buf, (byte) 0x5a);
        System.arraycopy(frame, 0, buf, 7, frame.length);
        assertThat(comparable(WireCodec.decode(buf, 7, frame.length))).isEqualTo(comparable(m));

        ByteBuffer direct = ByteBuffer.allocateDirect(buf.length).put(buf).position(7).limit(7 + frame.length);
        assertThat(comparable(WireCodec.decode(direct, WireLimits.DEFAULT))).isEqualTo(comparable(m));
        assertThat(direct.position()).isEqualTo(7);
        ByteBuffer heap = ByteBuffer.wrap(buf).slice(7, frame.length);
        assertThat(comparable(WireCodec.decode(heap, WireLimits.DEFAULT))).isEqualTo(comparable(m));
    }

    @Test
    void decodedMessagesShareNoMemoryWithTheFrame() throws Exception {
        for (Message m : WireTestMessages.samples()) {
            byte[] frame = WireCodec.encode(m);
            Message decoded = WireCodec.decode(frame);
            java.util.Arrays.fill(frame, (byte) 0);
            assertThat(comparable(decoded)).isEqualTo(comparable(m));
        }
    }

    @Test
    void samplesCoverEveryMessageType() {
        Set<Class<?>> sampled = new HashSet<>();
        for (Message m : WireTestMessages.samples()) sampled.add(m.getClass());
        assertThat(sampled).containsExactlyInAnyOrderElementsOf(concreteMessageTypes());
    }

    /**
     * Every concrete message type of every protocol's packages on the class path: the core's (the connection's and the
     * shared ones), FastCCS's, and each compared protocol's, nested ones included, so a new message type fails this
     * test until mapped.
     */
    private static Set<Class<?>> concreteMessageTypes() {
        Set<Class<?>> out = new HashSet<>();
        for (Class<?> inPackage : List.of(Message.class, FirstRoundRead.class, EventualMessages.class, EigerMessages.class,
                WrenMessages.class))
            for (Class<?> c : PackageClasses.of(inPackage.getPackageName()))
                if (Message.class.isAssignableFrom(c) && !c.isInterface() && !c.isAnonymousClass()
                        && !java.lang.reflect.Modifier.isAbstract(c.getModifiers())) out.add(c);
        return out;
    }

    /** The other protocols' Body ids, pinned: a renumbering would make nodes of two builds misread each other. */
    @Test
    void otherProtocolsKeepTheirBodyIds() {
        Map<String, Integer> expected = new TreeMap<>();
        String[] eventual = {"Read", "ReadAnswer", "Write", "WriteAnswer"};
        String[] eiger = {"Read1", "ReadAt", "CohortWrite", "CoordWrite", "OutcomeQuery", "ReadReply", "WriteAck",
                "WriteReply", "OutcomeReply", "YesVote", "Commit", "Abort", "Ack", "CheckTxn", "CheckTxnReply"};
        String[] wren = {"Start", "StartReply", "Slice", "SliceReply", "CommitRequest", "OutcomeRequest", "CommitReply",
                "Prepare", "PrepareReply", "Commit", "Abort", "CheckTxn", "Lst"};
        for (int i = 0; i < eventual.length; i++) expected.put("EventualMessages." + eventual[i], 30 + i);
        for (int i = 0; i < eiger.length; i++) expected.put("EigerMessages." + eiger[i], 40 + i);
        for (int i = 0; i < wren.length; i++) expected.put("WrenMessages." + wren[i], 60 + i);
        Map<String, Integer> actual = new TreeMap<>();
        for (Message m : WireTestMessages.otherProtocolSamples()) {
            byte[] frame = WireCodec.encode(m);
            // Frame{1: Body{id: ...}}: 0x1c opens the body; an id above 15 follows its type byte 0x0c as a zig-zag varint.
            assertThat(frame[0]).isEqualTo((byte) 0x1c);
            assertThat(frame[1]).isEqualTo((byte) 0x0c);
            int zigzag = frame[2] & 0x7f;
            if ((frame[2] & 0x80) != 0) zigzag |= (frame[3] & 0x7f) << 7;
            actual.put(m.getClass().getEnclosingClass().getSimpleName() + "." + m.getClass().getSimpleName(), zigzag >>> 1);
        }
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void seededRandomMessagesRoundTrip() throws Exception {
        long seed = Long.getLong("wire.seed", System.nanoTime());
        Random rnd = new Random(seed);
        Message m = null;
        try {
            for (int i = 0; i < 3000; i++) {
                m = WireTestMessages.random(rnd);
                byte[] frame = WireCodec.encode(m);
                assertThat(comparable(WireCodec.decode(frame))).isEqualTo(comparable(m));
                assertThat(WireCodec.encodedSize(m)).isEqualTo(frame.length);
            }
        } catch (Throwable t) {
            throw new AssertionError("failed on seed " + seed + " (replay with -Dwire.seed=" + seed + ") at " + m, t);
        }
    }

    @Test
    void encodingIsDeterministicAcrossTheReusedBuffer() {
        // A huge frame first, then small ones: the thread's buffer is shrunk and reused without leftovers.
        List<Message> samples = WireTestMessages.samples();
        for (Message m : samples) WireCodec.encode(m);
        for (Message m : samples) assertThat(WireCodec.encode(m)).isEqualTo(WireCodec.encode(m));
    }
}
