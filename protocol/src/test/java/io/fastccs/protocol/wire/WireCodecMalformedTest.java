package io.fastccs.protocol.wire;

import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.WireCodec;
import io.fastccs.core.wire.WireLimits;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.baselines.eiger.EigerMessages;
import io.fastccs.baselines.eiger.EigerMessages.KeyVersion;
import io.fastccs.baselines.eventual.EventualMessages;
import io.fastccs.baselines.eventual.EventualStamp;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.baselines.wren.WrenMessages;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.Message;
import io.fastccs.protocol.messages.Settled;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.StabilizeDown;
import io.fastccs.protocol.messages.StabilizeUp;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.wire.MalformedFrameException.Kind;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.fastccs.protocol.wire.RawFrames.binary;
import static io.fastccs.protocol.wire.RawFrames.binaryList;
import static io.fastccs.protocol.wire.RawFrames.bool;
import static io.fastccs.protocol.wire.RawFrames.frameWithBody;
import static io.fastccs.protocol.wire.RawFrames.frameWithMessage;
import static io.fastccs.protocol.wire.RawFrames.i32;
import static io.fastccs.protocol.wire.RawFrames.i32List;
import static io.fastccs.protocol.wire.RawFrames.i64;
import static io.fastccs.protocol.wire.RawFrames.i64List;
import static io.fastccs.protocol.wire.RawFrames.struct;
import static io.fastccs.protocol.wire.RawFrames.structList;
import static io.fastccs.protocol.wire.RawFrames.txnId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(120)
class WireCodecMalformedTest {
    /** Body field ids from fastccs.thrift, and core.thrift for ErrorReply and Hello. */
    private static final int FIRST_ROUND_READ = 1, WRITE_REQUEST = 3, READ_REPLY = 5, WRITE_REPLY = 6,
            ERROR_REPLY = 8, STABILIZE = 13, STABILIZE_UP = 14, STABILIZE_DOWN = 15, HELLO = 22;
    /** Body field ids of the other protocols' messages. */
    private static final int EVENTUAL_READ_ANSWER = 31, EVENTUAL_WRITE = 32, EIGER_READ1 = 40, EIGER_COHORT_WRITE = 42,
            EIGER_COORD_WRITE = 43, EIGER_READ_REPLY = 45, EIGER_CHECK_TXN = 53, EIGER_CHECK_TXN_REPLY = 54,
            WREN_START = 60, WREN_SLICE = 62, WREN_COMMIT_REPLY = 66, WREN_LST = 72;

    private static MalformedFrameException decodeFails(byte[] frame) {
        return decodeFails(frame, WireLimits.DEFAULT);
    }

    /** The exception decoding {@code frame} throws; fails the test if it decodes or throws anything else. */
    private static MalformedFrameException decodeFails(byte[] frame, WireLimits limits) {
        try {
            Message m = WireCodec.decode(frame, limits);
            throw new AssertionError("decoded " + m + " from " + describe(frame));
        } catch (MalformedFrameException e) {
            return e;
        }
    }

    private static String describe(byte[] frame) {
        return frame.length <= 256 ? Arrays.toString(frame) : frame.length + " bytes";
    }

    /** A well-formed FirstRoundRead's fields, for frames that then break one thing. */
    private static void firstRoundReadFields(org.apache.thrift.protocol.TProtocol p) throws TException {
        i64(p, 1, 5);
        binaryList(p, 2, 2);
        i64List(p, 3, 1, 2, 3);
    }

    @Test
    void rawFramesMatchTheCodec() throws Exception {
        // Guards the hand-built frames below: a correct one must decode.
        byte[] frame = frameWithMessage(FIRST_ROUND_READ, WireCodecMalformedTest::firstRoundReadFields);
        assertThat(WireCodec.decode(frame)).isEqualTo(new FirstRoundRead(5,
                List.of(Key.wrap(new byte[]{0}), Key.wrap(new byte[]{1})), VectorClock.of(1, 2, 3)));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Undecodable bytes
    // ---------------------------------------------------------------------------------------------------------

    @Test
    void everyTruncationOfAValidFrameIsMalformed() {
        List<Message> messages = new ArrayList<>(WireTestMessages.samples());
        Random rnd = new Random(7);
        for (int i = 0; i < 100; i++) messages.add(WireTestMessages.random(rnd));
        for (Message m : messages) {
            byte[] frame = WireCodec.encode(m);
            for (int len : truncations(frame.length, rnd)) {
                MalformedFrameException e = decodeFails(Arrays.copyOf(frame, len));
                assertThat(e.kind()).as("prefix of %d of %d bytes of %s", len, frame.length, m).isEqualTo(Kind.MALFORMED);
            }
        }
    }

    /** Every strict prefix length for small frames; for large ones the ends and a random sample of the middle. */
    private static List<Integer> truncations(int length, Random rnd) {
        List<Integer> out = new ArrayList<>();
        if (length <= 4096) {
            for (int len = 0; len < length; len++) out.add(len);
        } else {
            for (int len = 0; len < 1024; len++) out.add(len);
            for (int len = length - 1024; len < length; len++) out.add(len);
            for (int i = 0; i < 256; i++) out.add(1024 + rnd.nextInt(length - 2048));
        }
        return out;
    }

    @Test
    void randomBytesAreMalformedOrAValidMessage() {
        long seed = Long.getLong("wire.seed", System.nanoTime());
        Random rnd = new Random(seed);
        int decoded = 0;
        byte[] garbage = null;
        try {
            for (int i = 0; i < 100_000; i++) {
                garbage = new byte[1 + rnd.nextInt(i % 2 == 0 ? 16 : 300)];
                rnd.nextBytes(garbage);
                // Half start like a frame (body field header, then a message field) to get past the first byte.
                if (i % 2 == 1 && garbage.length > 2) {
                    garbage[0] = 0x1c;
                    garbage[1] = (byte) (((1 + rnd.nextInt(13)) << 4) | 0x0c);
                }
                if (decodesToAValidMessage(garbage)) decoded++;
            }
        } catch (Throwable t) {
            throw new AssertionError("failed on seed " + seed + " (replay with -Dwire.seed=" + seed + ") for "
                    + describe(garbage), t);
        }
        System.out.printf("random garbage: %d of 100000 frames decoded to a valid message%n", decoded);
    }

    @Test
    void mutatedFramesAreMalformedOrAValidMessage() {
        long seed = Long.getLong("wire.seed", System.nanoTime());
        Random rnd = new Random(seed);
        List<byte[]> frames = new ArrayList<>();
        for (Message m : WireTestMessages.samples()) {
            byte[] f = WireCodec.encode(m);
            if (f.length < 20_000) frames.add(f);
        }
        byte[] mutated = null;
        int decoded = 0;
        try {
            for (int i = 0; i < 40_000; i++) {
                byte[] frame = i % 4 != 0 ? frames.get(rnd.nextInt(frames.size()))
                        : WireCodec.encode(WireTestMessages.random(rnd));
                if (frame.length > 20_000) continue;
                mutated = mutate(frame, rnd);
                if (decodesToAValidMessage(mutated)) decoded++;
            }
        } catch (Throwable t) {
            throw new AssertionError("failed on seed " + seed + " (replay with -Dwire.seed=" + seed + ") for "
                    + describe(mutated), t);
        }
        System.out.printf("mutated frames: %d of 40000 decoded to a valid message%n", decoded);
    }

    private static byte[] mutate(byte[] frame, Random rnd) {
        byte[] b = frame.clone();
        for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
            int at = rnd.nextInt(b.length);
            switch (rnd.nextInt(4)) {
                case 0 -> b[at] ^= (byte) (1 << rnd.nextInt(8));
                case 1 -> b[at] = (byte) rnd.nextInt(256);
                case 2 -> { // delete one byte
                    if (b.length > 1) {
                        byte[] c = new byte[b.length - 1];
                        System.arraycopy(b, 0, c, 0, at);
                        System.arraycopy(b, at + 1, c, at, b.length - at - 1);
                        b = c;
                    }
                }
                default -> { // insert one byte
                    byte[] c = new byte[b.length + 1];
                    System.arraycopy(b, 0, c, 0, at);
                    c[at] = (byte) rnd.nextInt(256);
                    System.arraycopy(b, at, c, at + 1, b.length - at);
                    b = c;
                }
            }
        }
        return b;
    }

    /** False if decoding fails as it should; true if it yields a message that itself round-trips. */
    private static boolean decodesToAValidMessage(byte[] frame) throws MalformedFrameException {
        Message m;
        try {
            m = WireCodec.decode(frame);
        } catch (MalformedFrameException expected) {
            return false;
        }
        assertThat(WireTestMessages.comparable(WireCodec.decode(WireCodec.encode(m)))).isEqualTo(WireTestMessages.comparable(m));
        return true;
    }

    @Test
    void emptyFrameAndTrailingBytesAreMalformed() {
        assertThat(decodeFails(new byte[0]).kind()).isEqualTo(Kind.MALFORMED);
        byte[] frame = WireCodec.encode(new Stabilize(1, 2));
        byte[] longer = Arrays.copyOf(frame, frame.length + 1);
        MalformedFrameException e = decodeFails(longer);
        assertThat(e.kind()).isEqualTo(Kind.MALFORMED);
        assertThat(e).hasMessageContaining("1 bytes left over");
    }

    @Test
    void negativeBinaryLengthIsMalformed() {
        // FirstRoundRead{1: requestId 5, 2: list of one binary whose length varint says -1}.
        byte[] frame = concat(frameHeaderThroughBodyField(FIRST_ROUND_READ), new byte[]{0x16, 0x0a, 0x19, 0x18,
                (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f, 1, 2, 3, 0, 0, 0});
        assertThat(decodeFails(frame).kind()).isEqualTo(Kind.MALFORMED);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Unknown message types
    // ---------------------------------------------------------------------------------------------------------

    @Test
    void unknownBodyFieldIsAnUnknownMessageType() throws Exception {
        byte[] frame = frameWithBody(99, TType.STRUCT, p -> {
            p.writeStructBegin(new TStruct(""));
            i64(p, 1, 42);
            binaryList(p, 2, 3);
            p.writeFieldStop();
            p.writeStructEnd();
        });
        MalformedFrameException e = decodeFails(frame);
        assertThat(e.kind()).isEqualTo(Kind.UNKNOWN_MESSAGE);
        assertThat(e.errorCode()).isEqualTo(ErrorCode.UNKNOWN_MESSAGE);
        assertThat(e).hasMessageContaining("body field 99");

        byte[] scalar = frameWithBody(28, TType.I64, p -> p.writeI64(1));
        assertThat(decodeFails(scalar).kind()).isEqualTo(Kind.UNKNOWN_MESSAGE);
    }

    @Test
    void knownBodyFieldOfTheWrongTypeIsMalformed() throws Exception {
        byte[] frame = frameWithBody(FIRST_ROUND_READ, TType.I64, p -> p.writeI64(1));
        MalformedFrameException e = decodeFails(frame);
        assertThat(e.kind()).isEqualTo(Kind.MALFORMED);
        assertThat(e.errorCode()).isEqualTo(ErrorCode.MALFORMED_FRAME);
    }

    @Test
    void unknownFieldsAroundAKnownMessageAreSkipped() throws Exception {
        // A newer peer may add fields to the frame and to a message; this version ignores them.
        byte[] frame = frameWithMessage(FIRST_ROUND_READ, p -> {
            firstRoundReadFields(p);
            i64List(p, 9, 1, 2);
        });
        assertThat(WireCodec.decode(frame)).isInstanceOf(FirstRoundRead.class);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Missing fields and invalid values
    // ---------------------------------------------------------------------------------------------------------

    @Test
    void frameWithoutBodyIsMissingAField() throws Exception {
        byte[] frame = RawFrames.bytes(p -> {
            p.writeStructBegin(new TStruct(""));
            p.writeFieldStop();
            p.writeStructEnd();
        });
        MalformedFrameException e = decodeFails(frame);
        assertThat(e.kind()).isEqualTo(Kind.MISSING_FIELD);
        assertThat(e).hasMessageContaining("Frame.body");
    }

    @Test
    void missingFieldsAreNamed() throws Exception {
        assertMissing(frameWithMessage(FIRST_ROUND_READ, p -> {
            binaryList(p, 2, 1);
            i64List(p, 3, 1);
        }), "FirstRoundRead.requestId");
        assertMissing(frameWithMessage(FIRST_ROUND_READ, p -> {
            i64(p, 1, 5);
            i64List(p, 3, 1);
        }), "FirstRoundRead.keys");
        assertMissing(frameWithMessage(FIRST_ROUND_READ, p -> {
            i64(p, 1, 5);
            binaryList(p, 2, 1);
        }), "FirstRoundRead.clock");
        assertMissing(frameWithMessage(STABILIZE, p -> i32(p, 1, 0)), "Stabilize.settled");
        assertMissing(frameWithMessage(WRITE_REPLY, p -> {
            i64(p, 1, 5);
            txnId(p, 2, false);
            i32(p, 3, 0);
        }), "WriteReply.txnId.client");
        assertMissing(frameWithMessage(WRITE_REQUEST, p -> {
            i64(p, 1, 5);
            txnId(p, 2, true);
            i32(p, 3, 0);
            i32List(p, 4, 0);
            p.writeFieldBegin(new TField("", TType.LIST, (short) 5));
            p.writeListBegin(new TList(TType.STRUCT, 1));
            p.writeStructBegin(new TStruct(""));
            p.writeFieldBegin(new TField("", TType.STRING, (short) 1));
            p.writeBinary(java.nio.ByteBuffer.wrap(new byte[]{1}));
            p.writeFieldEnd();
            p.writeFieldStop();
            p.writeStructEnd();
            p.writeListEnd();
            p.writeFieldEnd();
            i64List(p, 6, 1);
        }), "WriteRequest.writes[].value");
    }

    private static void assertMissing(byte[] frame, String field) {
        MalformedFrameException e = decodeFails(frame);
        assertThat(e.kind()).as(field).isEqualTo(Kind.MISSING_FIELD);
        assertThat(e).hasMessageContaining(field);
    }

    @Test
    void impossibleValuesAreInvalid() throws Exception {
        assertInvalid(frameWithMessage(FIRST_ROUND_READ, p -> {
            i64(p, 1, 5);
            binaryList(p, 2, 1);
            i64List(p, 3, 1, -1, 3);
        }), "FirstRoundRead.clock[1] is negative");
        assertInvalid(frameWithMessage(FIRST_ROUND_READ, p -> {
            i64(p, 1, 5);
            binaryList(p, 2, 1);
            i64List(p, 3);
        }), "FirstRoundRead.clock is empty");
        assertInvalid(frameWithMessage(STABILIZE, p -> {
            i32(p, 1, -3);
            i64(p, 2, 0);
        }), "Stabilize.fromPartition is a negative partition index");
        assertInvalid(frameWithMessage(STABILIZE, p -> {
            i32(p, 1, 3);
            i64(p, 2, -1);
        }), "Stabilize.settled is a negative sequence number");
        assertInvalid(frameWithMessage(STABILIZE_UP, p -> {
            i32(p, 1, 3);
            i32List(p, 2, 3, 0);
            i64List(p, 3, 1, 1);
        }), "StabilizeUp.partitionGaps[1] is 0; partitions ascend");
        assertInvalid(frameWithMessage(STABILIZE_DOWN, p -> {
            i32(p, 1, 0);
            i32List(p, 2, -1);
            i64List(p, 3, 1);
        }), "StabilizeDown.partitionGaps[0] is -1");
        assertInvalid(frameWithMessage(STABILIZE_DOWN, p -> {
            i32(p, 1, 0);
            i32List(p, 2, 1, 2);
            i64List(p, 3, 1);
        }), "StabilizeDown has 2 partition gaps but 1 settled prefixes");
        assertInvalid(frameWithMessage(STABILIZE_DOWN, p -> {
            i32(p, 1, 0);
            i32List(p, 2, 1);
            i64List(p, 3, -4);
        }), "StabilizeDown.settled[0] is a negative sequence number");
        assertInvalid(frameWithMessage(STABILIZE_UP, p -> {
            i32(p, 1, 1);
            i32List(p, 2, 65_000, 5_000);
            i64List(p, 3, 1, 1);
        }), "StabilizeUp.partitionGaps names partition 70000, beyond the limit");
        assertMissing(frameWithMessage(STABILIZE_UP, p -> {
            i32(p, 1, 1);
            i64List(p, 3, 1);
        }), "StabilizeUp.partitionGaps");
        assertInvalid(frameWithMessage(ERROR_REPLY, p -> {
            i64(p, 1, 5);
            i32(p, 2, 0);
            i32(p, 4, -2);
        }), "ErrorReply.owner");
        assertInvalid(frameWithMessage(ERROR_REPLY, p -> {
            i64(p, 1, 5);
            i32(p, 2, 1000);
            i32(p, 4, -1);
        }), "ErrorReply.code");
        assertInvalid(frameWithMessage(WRITE_REQUEST, p -> {
            i64(p, 1, 5);
            txnId(p, 2, true);
            i32(p, 3, 0);
            i32List(p, 4, 0, -7);
            binaryList(p, 5, 0);
            i64List(p, 6, 1);
        }), "WriteRequest.participants[1] is a negative partition index");
        assertInvalid(frameWithMessage(HELLO, p -> {
            i32(p, 1, 1);
            p.writeFieldBegin(new TField("protocol", TType.STRING, (short) 6));
            p.writeString("cops");
            p.writeFieldEnd();
        }), "Hello.protocol: unknown protocol 'cops'; known: fastccs, eiger, wren, eventual");
    }

    private static void assertInvalid(byte[] frame, String detail) {
        MalformedFrameException e = decodeFails(frame);
        assertThat(e.kind()).as(detail).isEqualTo(Kind.INVALID_VALUE);
        assertThat(e).hasMessageContaining(detail);
    }

    @Test
    void encodeRefusesWhatDecodeWouldRefuse() {
        assertThatThrownBy(() -> WireCodec.encode(new Stabilize(-1, 0))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WireCodec.encode(new StabilizeUp(1, List.of(new Settled(4, 1), new Settled(3, 1)))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ascend");
        assertThatThrownBy(() -> WireCodec.encode(new StabilizeDown(0, List.of(new Settled(4, -1)))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WireCodec.encode(new WriteRequest(1, WireTestMessages.TXN, 0, List.of(0, -1),
                List.of(), VectorClock.of(0), 0))).isInstanceOf(IllegalArgumentException.class);
        // A failed encode leaves the thread's encoder usable.
        Stabilize ok = new Stabilize(1, 1);
        assertThat(WireCodec.encode(ok)).isEqualTo(WireCodec.encode(ok));
    }

    // ---------------------------------------------------------------------------------------------------------
    // The other protocols (eventual, Eiger, Wren)
    // ---------------------------------------------------------------------------------------------------------

    @Test
    void otherProtocolsRawFramesMatchTheCodec() throws Exception {
        // Guards the hand-built frames below, and decodes the protocols' sentinel values: a timeout CheckTxn (time -1)
        // and an aborted Wren commit (ct -1).
        assertThat(WireCodec.decode(frameWithMessage(EIGER_CHECK_TXN, p -> {
            i64(p, 1, 3);
            structList(p, 2, 1, q -> {
                i64(q, 1, 7);
                i64(q, 2, 8);
            });
            i64(p, 3, -1);
        }))).isEqualTo(new EigerMessages.CheckTxn(3, List.of(new TxnId(7, 8)), -1));
        assertThat(WireCodec.decode(frameWithMessage(WREN_COMMIT_REPLY, p -> {
            i64(p, 1, 5);
            txnId(p, 2, true);
            i32(p, 3, 1); // ABORTED
            i64(p, 4, -1);
        }))).isEqualTo(new WrenMessages.CommitReply(5, new TxnId(7, 8), Outcome.ABORTED, -1));
        Message readReply = WireCodec.decode(frameWithMessage(EIGER_READ_REPLY, p -> {
            i64(p, 1, 5);
            i64(p, 2, 9);
            structList(p, 3, 1, q -> {
                binary(q, 1, (byte) 'k');
                i64(q, 3, 0);
                i64(q, 4, 0);
                i64(q, 5, 4);
            });
            bool(p, 4, true);
        }));
        assertThat(readReply).isEqualTo(new EigerMessages.ReadReply(5, 9,
                List.of(new KeyVersion(Key.of("k"), null, 0, 0, 4, null)), true));
    }

    @Test
    void missingFieldsOfTheOtherProtocolsAreNamed() throws Exception {
        assertMissing(frameWithMessage(EVENTUAL_WRITE, p -> {
            i64(p, 1, 5);
            txnId(p, 2, true);
            structList(p, 4, 0, q -> { });
        }), "EventualWrite.stamp");
        assertMissing(frameWithMessage(EVENTUAL_WRITE, p -> {
            i64(p, 1, 5);
            txnId(p, 2, true);
            struct(p, 3, q -> {
                i64(q, 1, 7);
                i64(q, 3, 1);
            });
            structList(p, 4, 0, q -> { });
        }), "EventualWrite.stamp.clientId");
        assertMissing(frameWithMessage(EIGER_READ_REPLY, p -> {
            i64(p, 1, 5);
            i64(p, 2, 9);
            structList(p, 3, 0, q -> { });
        }), "EigerReadReply.checkedCoordinator");
        assertMissing(frameWithMessage(EIGER_READ_REPLY, p -> {
            i64(p, 1, 5);
            i64(p, 2, 9);
            structList(p, 3, 1, q -> {
                binary(q, 1, (byte) 'k');
                i64(q, 3, 0);
                i64(q, 5, 0);
            });
            bool(p, 4, false);
        }), "EigerReadReply.values[].evt");
        assertMissing(frameWithMessage(EIGER_COHORT_WRITE, p -> {
            i64(p, 1, 5);
            i64(p, 2, 9);
            txnId(p, 3, true);
            i32(p, 4, 1);
            structList(p, 6, 0, q -> { });
        }), "EigerCohortWrite.coordKey");
        assertMissing(frameWithMessage(EIGER_COORD_WRITE, p -> {
            i64(p, 1, 5);
            i64(p, 2, 9);
            txnId(p, 3, true);
            binary(p, 4, (byte) 'c');
            structList(p, 5, 0, q -> { });
            i32List(p, 6, 0);
            structList(p, 7, 1, q -> i64(q, 2, 3));
        }), "EigerCoordWrite.deps[].key");
        assertMissing(frameWithMessage(WREN_COMMIT_REPLY, p -> {
            i64(p, 1, 5);
            txnId(p, 2, true);
            i32(p, 3, 0);
        }), "WrenCommitReply.ct");
        assertMissing(frameWithMessage(WREN_SLICE, p -> {
            i64(p, 1, 5);
            i64(p, 3, 0);
        }), "WrenSlice.keys");
        assertMissing(frameWithMessage(WREN_LST, p -> { }), "WrenLst.lst");
    }

    @Test
    void impossibleValuesOfTheOtherProtocolsAreInvalid() throws Exception {
        assertInvalid(frameWithMessage(EIGER_READ1, p -> {
            i64(p, 1, 5);
            i64(p, 2, -1);
            binaryList(p, 3, 1);
        }), "EigerRead1.clock is negative");
        assertInvalid(frameWithMessage(EIGER_CHECK_TXN, p -> {
            i64(p, 1, 3);
            structList(p, 2, 0, q -> { });
            i64(p, 3, -2);
        }), "EigerCheckTxn.time is a time >= 0 or -1");
        assertInvalid(frameWithMessage(EIGER_COHORT_WRITE, p -> {
            i64(p, 1, 5);
            i64(p, 2, 9);
            txnId(p, 3, true);
            i32(p, 4, -1);
            binary(p, 5, (byte) 'c');
            structList(p, 6, 0, q -> { });
        }), "EigerCohortWrite.coordinator is a negative partition index");
        assertInvalid(frameWithMessage(EIGER_COORD_WRITE, p -> {
            i64(p, 1, 5);
            i64(p, 2, 9);
            txnId(p, 3, true);
            binary(p, 4, (byte) 'c');
            structList(p, 5, 0, q -> { });
            i32List(p, 6, 0, -7);
            structList(p, 7, 0, q -> { });
        }), "EigerCoordWrite.participants[1] is a negative partition index");
        assertInvalid(frameWithMessage(EIGER_CHECK_TXN_REPLY, p -> {
            i64(p, 1, 3);
            structList(p, 2, 1, q -> {
                txnId(q, 1, true);
                i32(q, 2, 0);
                i64(q, 3, -5);
            });
        }), "EigerCheckTxnReply.statuses[].commitTime is negative");
        assertInvalid(frameWithMessage(EIGER_CHECK_TXN_REPLY, p -> {
            i64(p, 1, 3);
            structList(p, 2, 1, q -> {
                txnId(q, 1, true);
                i32(q, 2, 7);
                i64(q, 3, 0);
            });
        }), "EigerCheckTxnReply.statuses[].outcome is absent or not a known outcome");
        assertInvalid(frameWithMessage(EVENTUAL_READ_ANSWER, p -> {
            i64(p, 1, 5);
            structList(p, 2, 1, q -> {
                binary(q, 1, (byte) 'k');
                i64(q, 3, -1);
            });
            i64(p, 3, 0);
        }), "EventualReadAnswer.values[].sequence is a negative sequence number");
        assertInvalid(frameWithMessage(EVENTUAL_WRITE, p -> {
            i64(p, 1, 5);
            txnId(p, 2, true);
            struct(p, 3, q -> {
                i64(q, 1, -1);
                i64(q, 2, 0);
                i64(q, 3, 0);
            });
            structList(p, 4, 0, q -> { });
        }), "EventualWrite.stamp.time is negative");
        assertInvalid(frameWithMessage(WREN_START, p -> {
            i64(p, 1, 5);
            i64(p, 2, -1);
        }), "WrenStart.lst is negative");
        assertInvalid(frameWithMessage(WREN_COMMIT_REPLY, p -> {
            i64(p, 1, 5);
            txnId(p, 2, true);
            i32(p, 3, 1);
            i64(p, 4, -2);
        }), "WrenCommitReply.ct is a time >= 0 or -1");
    }

    @Test
    void otherProtocolsListsAreLimited() {
        WireLimits tight = new WireLimits(1000, 3, 4);
        TxnId t = WireTestMessages.TXN;
        List<TxnId> fourTxns = List.of(new TxnId(1, 1), new TxnId(1, 2), new TxnId(1, 3), new TxnId(1, 4));
        assertLimit(new EigerMessages.CheckTxn(1, fourTxns, 2), tight, "EigerCheckTxn.txnIds has 4 elements, limit 3");
        // Participants count against the clock limit (one per partition at most), here below the container limit.
        assertLimit(new EigerMessages.CoordWrite(1, 1, t, Key.of("c"), List.of(), List.of(0, 1, 2, 3, 4), List.of()),
                new WireLimits(1000, 8, 4), "EigerCoordWrite.participants has 5 elements, limit 4");
        List<EigerMessages.Dep> fourDeps = new ArrayList<>();
        for (int i = 0; i < 4; i++) fourDeps.add(new EigerMessages.Dep(Key.of("d" + i), i));
        assertLimit(new EigerMessages.CoordWrite(1, 1, t, Key.of("c"), List.of(), List.of(0), fourDeps),
                tight, "EigerCoordWrite.deps has 4 elements, limit 3");
        List<Key> fourKeys = List.of(Key.of("a"), Key.of("b"), Key.of("c"), Key.of("d"));
        assertLimit(new WrenMessages.Slice(1, fourKeys, 0), tight, "WrenSlice.keys has 4 elements, limit 3");
        assertLimit(new EventualMessages.Read(1, fourKeys), tight, "EventualRead.keys has 4 elements, limit 3");
    }

    private static void assertLimit(Message m, WireLimits limits, String detail) {
        MalformedFrameException e = decodeFails(WireCodec.encode(m), limits);
        assertThat(e.kind()).as(detail).isEqualTo(Kind.LIMIT_EXCEEDED);
        assertThat(e).hasMessageContaining(detail);
    }

    @Test
    void encodeRefusesWhatDecodeWouldRefuseInTheOtherProtocols() {
        TxnId t = WireTestMessages.TXN;
        for (Message m : List.<Message>of(new EigerMessages.CheckTxn(1, List.of(), -2), new EigerMessages.Read1(1, -1, List.of()),
                new EigerMessages.CohortWrite(1, 0, t, -1, Key.of("c"), List.of()),
                new EigerMessages.CoordWrite(1, 0, t, Key.of("c"), List.of(), List.of(0, -1), List.of()),
                new WrenMessages.CommitReply(1, t, Outcome.ABORTED, -2), new WrenMessages.Lst(-1),
                new EventualMessages.Write(1, t, new EventualStamp(-1, 0, 0), List.of()),
                new EventualMessages.ReadAnswer(1, List.of(new ReadValue(Key.of("k"), null, -1)), 0)))
            assertThatThrownBy(() -> WireCodec.encode(m)).as(m.toString()).isInstanceOf(IllegalArgumentException.class);
        // A component the wire requires, missing: the sender's bug, not a frame to send.
        assertThatThrownBy(() -> WireCodec.encode(new WrenMessages.Slice(1, null, 0))).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> WireCodec.encode(new EventualMessages.Write(1, t, null, List.of())))
                .isInstanceOf(NullPointerException.class);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Limits
    // ---------------------------------------------------------------------------------------------------------

    @Test
    void limitsAreEnforced() {
        WireLimits tight = new WireLimits(1000, 3, 4);
        byte[] fourKeys = WireCodec.encode(new FirstRoundRead(1,
                List.of(Key.of("a"), Key.of("b"), Key.of("c"), Key.of("d")), VectorClock.of(1)));
        assertThat(decodeFails(fourKeys, tight).kind()).isEqualTo(Kind.LIMIT_EXCEEDED);
        assertThat(decodeFails(fourKeys, tight)).hasMessageContaining("FirstRoundRead.keys has 4 elements, limit 3");

        byte[] fiveEntries = WireCodec.encode(new FirstRoundRead(1, List.of(), VectorClock.of(1, 2, 3, 4, 5)));
        assertThat(decodeFails(fiveEntries, tight).kind()).isEqualTo(Kind.LIMIT_EXCEEDED);

        byte[] bigFrame = WireCodec.encode(new WriteRequest(1, WireTestMessages.TXN, 0, List.of(0),
                List.of(new io.fastccs.core.messages.KeyValue(Key.of("k"), new byte[2000])), VectorClock.of(1), 0));
        MalformedFrameException e = decodeFails(bigFrame, tight);
        assertThat(e.kind()).isEqualTo(Kind.LIMIT_EXCEEDED);
        assertThat(e).hasMessageContaining("exceeds the limit of 1000");
    }

    /** A frame claiming 2^31 - 1 or 2^31 list elements, under limits that leave only the frame's size to stop it. */
    @Test
    void hugeListClaimsFailFastWithoutAllocating() throws Exception {
        WireLimits lenient = new WireLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);
        byte[] maxInt = frameWithMessage(FIRST_ROUND_READ, p -> {
            i64(p, 1, 5);
            p.writeFieldBegin(new TField("", TType.LIST, (short) 2));
            p.writeListBegin(new TList(TType.STRING, Integer.MAX_VALUE));
            p.writeBinary(java.nio.ByteBuffer.wrap(new byte[]{1}));
        });
        byte[] twoToThe31 = concat(frameHeaderThroughBodyField(FIRST_ROUND_READ),
                new byte[]{0x16, 0x0a, 0x19, (byte) 0xf8, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08, 0, 0});
        byte[] structs = frameWithMessage(READ_REPLY, p -> {
            i64(p, 1, 5);
            p.writeFieldBegin(new TField("", TType.LIST, (short) 2));
            p.writeListBegin(new TList(TType.STRUCT, Integer.MAX_VALUE));
        });
        byte[] clock = frameWithMessage(FIRST_ROUND_READ, p -> {
            i64(p, 1, 5);
            binaryList(p, 2, 0);
            p.writeFieldBegin(new TField("", TType.LIST, (short) 3));
            p.writeListBegin(new TList(TType.I64, Integer.MAX_VALUE));
        });
        for (byte[] frame : List.of(maxInt, twoToThe31, structs, clock)) {
            for (WireLimits limits : List.of(lenient, WireLimits.DEFAULT)) {
                decodeFails(frame, limits); // warm up, so class loading does not count as allocation
                long before = allocatedBytes();
                MalformedFrameException e = decodeFails(frame, limits);
                long allocated = allocatedBytes() - before;
                assertThat(e.kind()).isIn(Kind.MALFORMED, Kind.LIMIT_EXCEEDED);
                assertThat(allocated).as("bytes allocated decoding " + Arrays.toString(frame)).isLessThan(256 << 10);
            }
        }
    }

    /** Frame{1: Body{id: struct{ ... — the bytes up to the message's first field. */
    private static byte[] frameHeaderThroughBodyField(int bodyFieldId) {
        return new byte[]{0x1c, (byte) ((bodyFieldId << 4) | 0x0c)};
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void deepNestingIsRefusedWithoutOverflowingTheStack() throws Exception {
        int depth = 200_000;
        byte[] frame = frameWithBody(99, TType.STRUCT, p -> {
            for (int i = 0; i < depth; i++) {
                p.writeStructBegin(new TStruct(""));
                p.writeFieldBegin(new TField("", TType.STRUCT, (short) 1));
            }
            p.writeStructBegin(new TStruct(""));
            p.writeFieldStop();
            p.writeStructEnd();
            for (int i = 0; i < depth; i++) {
                p.writeFieldEnd();
                p.writeFieldStop();
                p.writeStructEnd();
            }
        });
        MalformedFrameException e = decodeFails(frame);
        assertThat(e.kind()).isEqualTo(Kind.LIMIT_EXCEEDED);

        // In an unknown message: a list field (0x19), then list headers of one list each (0x19), over and over.
        byte[] lists = concat(frameHeaderThroughBodyField(14), repeat(new byte[]{0x19}, depth));
        assertThat(decodeFails(lists).kind()).isEqualTo(Kind.LIMIT_EXCEEDED);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) out.writeBytes(p);
        return out.toByteArray();
    }

    private static byte[] repeat(byte[] unit, int times) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < times; i++) out.writeBytes(unit);
        return out.toByteArray();
    }
}
