package io.fastccs.core.wire;

import io.fastccs.core.messages.Message;
import io.fastccs.core.wire.MalformedFrameException.Kind;
import org.apache.thrift.TBase;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Turns a {@link Message} into one frame of bytes and back: a Thrift {@code Frame} (see {@code src/main/thrift/core.thrift},
 * "The frame") in the compact protocol. The frame's length is the transport's business; a frame here is exactly the
 * bytes of one message.
 *
 * <p>The codec writes and reads the envelope itself, the exact bytes Thrift writes for a struct holding a union, and
 * leaves the message's own struct to the {@link WireMember} of the {@link ProtocolWire} that owns its type or member
 * id. Only the connection's own messages are the core's; every protocol registers its wire (see {@link ProtocolWire}).
 *
 * <p>{@code decode(encode(m)).equals(m)} holds for every message. Decoding trusts nothing: every failure, from
 * garbage bytes to a negative clock entry, is a {@link MalformedFrameException}, and no frame makes the decoder
 * allocate much more than the frame's own size or exceed the {@link WireLimits}.
 *
 * <p>Thread-safe. Encoding reuses one output buffer per thread, so it allocates little beyond the result.
 */
public final class WireCodec {
    /**
     * How deep structs and lists may nest, Thrift's default recursion limit. Messages nest at most 6 deep (a
     * TxnId in a list element, a replica list in a ring member); the rest is room for fields a newer peer adds,
     * which this version skips.
     */
    private static final int MAX_NESTING = TConfiguration.DEFAULT_RECURSION_DEPTH;
    /** A typical request fits without growing; a thread keeps at most this much between encodes. */
    private static final int INITIAL_OUTPUT_BYTES = 4 << 10;
    private static final int MAX_RETAINED_OUTPUT_BYTES = 64 << 10;

    /** The envelope: {@code struct Frame { 1: Body body }}, Body being the union of every wire's members. */
    private static final TStruct FRAME = new TStruct("Frame");
    private static final TField FRAME_BODY = new TField("body", TType.STRUCT, (short) 1);
    private static final TStruct BODY = new TStruct("Body");

    private static final WireRegistry INSTALLED = WireRegistry.installed();
    private static final ThreadLocal<Encoder> ENCODERS = ThreadLocal.withInitial(Encoder::new);

    private WireCodec() {
    }

    /**
     * The frame for {@code m}.
     *
     * @throws NullPointerException     if a component the wire requires is null (any but those the message's
     *                                  schema marks optional, such as a read value, a reply's commit clock or an
     *                                  error message)
     * @throws IllegalArgumentException if a partition index, sequence number, time, clock or version is negative
     *                                  (below -1 for the times that use -1 for none), which every receiver would
     *                                  refuse, or if no wire on the class path maps {@code m}'s type
     */
    public static byte[] encode(Message m) {
        return encode(m, INSTALLED);
    }

    /** The length of {@code encode(m)}. Costs a full encoding, minus copying out the result. */
    public static int encodedSize(Message m) {
        return encodeInThreadBuffer(m, INSTALLED).size();
    }

    /** {@link #encode(Message)} with the members of {@code registry} only (tests, and tools that pick their wires). */
    public static byte[] encode(Message m, WireRegistry registry) {
        return encodeInThreadBuffer(m, registry).toByteArray();
    }

    private static FrameOutput encodeInThreadBuffer(Message m, WireRegistry registry) {
        WireMember<?, ?> member = registry.member(Objects.requireNonNull(m, "message"));
        TBase<?, ?> struct = member.toWire(m);
        Encoder encoder = ENCODERS.get();
        try {
            encoder.reset();
            writeFrame(encoder.protocol, member, struct);
            return encoder.output;
        } catch (TException | RuntimeException e) {
            // The protocol may hold half-written state; start the next encode on this thread from scratch.
            ENCODERS.remove();
            throw new IllegalStateException("cannot encode " + m, e);
        }
    }

    /** What Thrift's generated code writes for a {@code Frame} whose {@code Body} union holds {@code struct}. */
    private static void writeFrame(TProtocol out, WireMember<?, ?> member, TBase<?, ?> struct) throws TException {
        out.writeStructBegin(FRAME);
        out.writeFieldBegin(FRAME_BODY);
        out.writeStructBegin(BODY);
        out.writeFieldBegin(member.field);
        struct.write(out);
        out.writeFieldEnd();
        out.writeFieldStop();
        out.writeStructEnd();
        out.writeFieldEnd();
        out.writeFieldStop();
        out.writeStructEnd();
    }

    /** Decodes a whole array as one frame under {@link WireLimits#DEFAULT}. */
    public static Message decode(byte[] frame) throws MalformedFrameException {
        return decode(frame, 0, frame.length, WireLimits.DEFAULT);
    }

    /** Decodes a whole array as one frame. */
    public static Message decode(byte[] frame, WireLimits limits) throws MalformedFrameException {
        return decode(frame, 0, frame.length, limits);
    }

    /** Decodes {@code buf[off, off + len)} as one frame under {@link WireLimits#DEFAULT}. */
    public static Message decode(byte[] buf, int off, int len) throws MalformedFrameException {
        return decode(buf, off, len, WireLimits.DEFAULT);
    }

    /**
     * Decodes the bytes between {@code frame}'s position and limit as one frame, leaving the position unchanged.
     * A buffer without an accessible array (direct, read-only) is copied first.
     */
    public static Message decode(ByteBuffer frame, WireLimits limits) throws MalformedFrameException {
        if (frame.hasArray())
            return decode(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining(), limits);
        checkFrameLength(frame.remaining(), limits); // before copying what a peer claims
        byte[] copy = new byte[frame.remaining()];
        frame.get(frame.position(), copy);
        return decode(copy, 0, copy.length, limits);
    }

    /**
     * Decodes {@code buf[off, off + len)} as one frame. The result shares no memory with {@code buf}, which the
     * caller may reuse at once.
     *
     * @throws MalformedFrameException  if the bytes are not exactly one valid frame; {@link
     *                                  MalformedFrameException#kind()} says why
     * @throws IndexOutOfBoundsException if {@code off} and {@code len} do not lie within {@code buf}
     */
    public static Message decode(byte[] buf, int off, int len, WireLimits limits) throws MalformedFrameException {
        return decode(buf, off, len, limits, INSTALLED);
    }

    /** {@link #decode(byte[], int, int, WireLimits)} with the members of {@code registry} only (tests, tools). */
    public static Message decode(byte[] buf, int off, int len, WireLimits limits, WireRegistry registry)
            throws MalformedFrameException {
        Objects.checkFromIndexSize(off, len, buf.length);
        checkFrameLength(len, limits);
        Body body;
        BoundedCompactProtocol in;
        try {
            FrameInput input = new FrameInput(
                    new TConfiguration(limits.maxFrameBytes(), limits.maxFrameBytes(), MAX_NESTING), buf, off, len);
            in = new BoundedCompactProtocol(input, limits);
            body = readFrame(in, registry);
            if (input.remaining() != 0)
                throw new MalformedFrameException(Kind.MALFORMED,
                        input.remaining() + " bytes left over after a " + (len - input.remaining()) + "-byte frame");
        } catch (TProtocolException e) {
            boolean overLimit = e.getType() == TProtocolException.SIZE_LIMIT
                    || e.getType() == TProtocolException.DEPTH_LIMIT;
            throw new MalformedFrameException(overLimit ? Kind.LIMIT_EXCEEDED : Kind.MALFORMED, e.getMessage(), e);
        } catch (TException | RuntimeException e) {
            // RuntimeException too: on some garbage libthrift fails with an IndexOutOfBoundsException or the like.
            throw new MalformedFrameException(Kind.MALFORMED, "undecodable frame: " + e, e);
        }
        // Mapped only once the whole frame has been read, so a frame that is broken and also lacks a field reports
        // the broken bytes.
        if (body == null) throw WireChecks.missing("Frame.body");
        if (body.member == null) throw emptyBody(in.bodyFieldId(), registry);
        return body.member.fromWire(body.struct, limits);
    }

    /** The body's member and the struct read for it; both null if the body held none this codec knows. */
    private record Body(WireMember<?, ?> member, TBase<?, ?> struct) {
    }

    private static final Body NO_MESSAGE = new Body(null, null);

    /** What Thrift's generated code reads for a {@code Frame}, field by field; null if it has no body. */
    private static Body readFrame(TProtocol in, WireRegistry registry) throws TException {
        Body body = null;
        in.readStructBegin();
        while (true) {
            TField field = in.readFieldBegin();
            if (field.type == TType.STOP) break;
            if (field.id == FRAME_BODY.id && field.type == TType.STRUCT) body = readBody(in, registry);
            else TProtocolUtil.skip(in, field.type);
            in.readFieldEnd();
        }
        in.readStructEnd();
        return body;
    }

    /**
     * What Thrift's generated code reads for a union: the first field, skipped unless it is a known member sent as a
     * struct, then one more field header, the stop, which Thrift's union reader does not check either.
     */
    private static Body readBody(TProtocol in, WireRegistry registry) throws TException {
        in.readStructBegin();
        TField field = in.readFieldBegin();
        WireMember<?, ?> member = registry.member(field.id);
        TBase<?, ?> struct = null;
        if (member != null && field.type == TType.STRUCT) {
            struct = member.newStruct();
            struct.read(in);
        } else {
            TProtocolUtil.skip(in, field.type);
        }
        in.readFieldEnd();
        in.readFieldBegin();
        in.readStructEnd();
        return struct == null ? NO_MESSAGE : new Body(member, struct);
    }

    private static MalformedFrameException emptyBody(short fieldId, WireRegistry registry) {
        if (fieldId == 0) return new MalformedFrameException(Kind.MALFORMED, "the frame's body holds no message");
        WireMember<?, ?> known = registry.member(fieldId);
        if (known != null)
            return new MalformedFrameException(Kind.MALFORMED,
                    "body field " + fieldId + " (" + known.name() + ") is not encoded as a struct");
        return new MalformedFrameException(Kind.UNKNOWN_MESSAGE, "unknown message type: body field " + fieldId);
    }

    private static void checkFrameLength(int len, WireLimits limits) throws MalformedFrameException {
        if (len == 0) throw new MalformedFrameException(Kind.MALFORMED, "empty frame");
        if (len > limits.maxFrameBytes())
            throw new MalformedFrameException(Kind.LIMIT_EXCEEDED,
                    "frame of " + len + " bytes exceeds the limit of " + limits.maxFrameBytes());
    }

    /** One thread's output buffer and the protocol writing into it. */
    private static final class Encoder {
        final FrameOutput output = new FrameOutput(INITIAL_OUTPUT_BYTES);
        final TCompactProtocol protocol = new TCompactProtocol(output);

        void reset() {
            output.reset(MAX_RETAINED_OUTPUT_BYTES);
            protocol.reset();
        }
    }
}
