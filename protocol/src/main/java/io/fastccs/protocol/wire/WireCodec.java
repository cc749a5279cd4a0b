package io.fastccs.protocol.wire;

import io.fastccs.protocol.messages.Message;
import io.fastccs.protocol.wire.MalformedFrameException.Kind;
import io.fastccs.protocol.wire.thrift.Frame;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocolException;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Turns a {@link Message} into one frame of bytes and back: a Thrift {@code Frame} (see
 * {@code src/main/thrift/fastccs.thrift}) in the compact protocol. The frame's length is the transport's business;
 * a frame here is exactly the bytes of one message.
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

    private static final ThreadLocal<Encoder> ENCODERS = ThreadLocal.withInitial(Encoder::new);

    private WireCodec() {
    }

    /**
     * The frame for {@code m}.
     *
     * @throws NullPointerException     if a component the wire requires is null (anything but a read value, a
     *                                  reply's commit clock, an error message, or an Eiger KeyVersion's value or
     *                                  coordinator key)
     * @throws IllegalArgumentException if a partition index, sequence number, time, clock or version is negative
     *                                  (below -1 for the times that use -1 for none), which every receiver would
     *                                  refuse
     */
    public static byte[] encode(Message m) {
        return encodeInThreadBuffer(m).toByteArray();
    }

    /** The length of {@code encode(m)}. Costs a full encoding, minus copying out the result. */
    public static int encodedSize(Message m) {
        return encodeInThreadBuffer(m).size();
    }

    private static FrameOutput encodeInThreadBuffer(Message m) {
        Frame frame = WireMapping.toWire(Objects.requireNonNull(m, "message"));
        Encoder encoder = ENCODERS.get();
        try {
            encoder.reset();
            frame.write(encoder.protocol);
            return encoder.output;
        } catch (TException | RuntimeException e) {
            // The protocol may hold half-written state; start the next encode on this thread from scratch.
            ENCODERS.remove();
            throw new IllegalStateException("cannot encode " + m, e);
        }
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
        Objects.checkFromIndexSize(off, len, buf.length);
        checkFrameLength(len, limits);
        Frame frame = new Frame();
        BoundedCompactProtocol in;
        try {
            FrameInput input = new FrameInput(
                    new TConfiguration(limits.maxFrameBytes(), limits.maxFrameBytes(), MAX_NESTING), buf, off, len);
            in = new BoundedCompactProtocol(input, limits);
            frame.read(in);
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
        return WireMapping.fromWire(frame, in.bodyFieldId(), limits);
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
