package io.fastccs.protocol.wire;

import io.fastccs.core.wire.ConnectionWire;
import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.ProtocolWire;
import io.fastccs.core.wire.WireCodec;
import io.fastccs.core.wire.WireLimits;
import io.fastccs.core.wire.WireMember;
import io.fastccs.core.wire.WireRegistry;
import io.fastccs.core.wire.thrift.ConnectionBody;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.RingRequest;
import io.fastccs.core.wire.MalformedFrameException.Kind;
import org.apache.thrift.TFieldIdEnum;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fastccs.protocol.wire.RawFrames.binaryList;
import static io.fastccs.protocol.wire.RawFrames.frameWithMessage;
import static io.fastccs.protocol.wire.RawFrames.i64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the codec finds the wire of a message or a member id, and what it does when none owns it. */
class WireRegistryTest {
    /** A message of a protocol whose wire is not on the class path. */
    private record Unregistered(long requestId) implements Message {
    }

    /** A member id in a test's own union. */
    private record Member(short id, String name) implements TFieldIdEnum {
        @Override
        public short getThriftFieldId() {
            return id;
        }

        @Override
        public String getFieldName() {
            return name;
        }
    }

    private static WireMember<?, ?> fake(int id, Class<? extends Message> type) {
        return fakeOf(id, type);
    }

    private static <M extends Message> WireMember<M, io.fastccs.core.wire.thrift.RingRequest> fakeOf(int id, Class<M> type) {
        return WireMember.of(new Member((short) id, "fake"), type, io.fastccs.core.wire.thrift.RingRequest::new,
                m -> new io.fastccs.core.wire.thrift.RingRequest(1), (w, limits) -> null);
    }

    @Test
    void aMessageNoWireMapsFailsNamingTheMessageAndTheMissingRegistration() {
        RingRequest ok = new RingRequest(3);
        byte[] before = WireCodec.encode(ok);
        Unregistered m = new Unregistered(7);
        for (Runnable encode : List.<Runnable>of(() -> WireCodec.encode(m), () -> WireCodec.encodedSize(m)))
            assertThatThrownBy(encode::run).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no wire form for " + m)
                    .hasMessageContaining(Unregistered.class.getName())
                    .hasMessageContaining("META-INF/services/io.fastccs.core.wire.ProtocolWire")
                    .hasMessageContaining("ConnectionWire");
        // The thread's encoder is untouched: the same frame as before the failed encodes.
        assertThat(WireCodec.encode(ok)).isEqualTo(before);
    }

    @Test
    void aMemberIdNoWireOwnsIsAnUnknownMessageType() throws Exception {
        // The free blocks, ids past the last block, the largest id and a negative one.
        for (int id : new int[]{28, 29, 80, 99, 200, Short.MAX_VALUE, -3}) {
            byte[] frame = frameWithMessage(id, p -> {
                i64(p, 1, 42);
                binaryList(p, 2, 3);
            });
            MalformedFrameException e = decodeFails(frame, WireRegistry.installed());
            assertThat(e.kind()).as("member id %d", id).isEqualTo(Kind.UNKNOWN_MESSAGE);
            assertThat(e.errorCode()).isEqualTo(ErrorCode.UNKNOWN_MESSAGE);
            assertThat(e).hasMessage("UNKNOWN_MESSAGE: unknown message type: body field " + id);
        }
    }

    @Test
    void aRegistryOfTheConnectionAloneKnowsOnlyTheConnectionsMessages() throws Exception {
        WireRegistry connection = WireRegistry.of(List.of(new ConnectionWire()));
        Hello hello = Hello.client("u", "p");
        byte[] frame = WireCodec.encode(hello, connection);
        assertThat(WireCodec.decode(frame, 0, frame.length, WireLimits.DEFAULT, connection)).isEqualTo(hello);
        // Member 1 (FastCCS's FirstRoundRead, here without its keys) is unknown to it; the installed wires know it.
        byte[] firstRoundRead = frameWithMessage(1, p -> i64(p, 1, 5));
        assertThat(decodeFails(firstRoundRead, connection).kind()).isEqualTo(Kind.UNKNOWN_MESSAGE);
        assertThat(decodeFails(firstRoundRead, WireRegistry.installed()).kind()).isEqualTo(Kind.MISSING_FIELD);
    }

    @Test
    void twoWiresClaimingOneMemberIdFailNamingBoth() {
        ProtocolWire impostor = () -> List.of(fake(ConnectionBody._Fields.ERROR_REPLY.getThriftFieldId(), Unregistered.class));
        assertThatThrownBy(() -> WireRegistry.of(List.of(new ConnectionWire(), impostor)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("member id 8")
                .hasMessageContaining(ConnectionWire.class.getName())
                .hasMessageContaining(impostor.getClass().getName());
    }

    @Test
    void twoWiresClaimingOneMessageTypeFailNamingBoth() {
        ProtocolWire impostor = () -> List.of(fake(99, Hello.class));
        assertThatThrownBy(() -> WireRegistry.of(List.of(new ConnectionWire(), impostor)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("message type " + Hello.class.getName())
                .hasMessageContaining(ConnectionWire.class.getName())
                .hasMessageContaining(impostor.getClass().getName());
    }

    @Test
    void memberIdsArePositive() {
        assertThatThrownBy(() -> fake(0, Unregistered.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be positive");
    }

    private static MalformedFrameException decodeFails(byte[] frame, WireRegistry registry) {
        try {
            Message m = WireCodec.decode(frame, 0, frame.length, WireLimits.DEFAULT, registry);
            throw new AssertionError("decoded " + m);
        } catch (MalformedFrameException e) {
            return e;
        }
    }
}
