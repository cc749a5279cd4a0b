package io.fastccs.client.internal;

import io.fastccs.client.InvalidRequestException;
import io.fastccs.core.Outgoing;
import io.fastccs.core.messages.Message;
import io.fastccs.core.wire.WireCodec;

import java.util.List;

/** Encoding messages into frame bodies, refusing ones a node would not accept. */
final class Frames {
    /** The largest frame on the wire, length prefix included, in either direction. */
    static final int MAX_FRAME_BYTES = 16 << 20;
    static final int LENGTH_PREFIX_BYTES = 4;
    /** The largest encoded message. */
    static final int MAX_BODY_BYTES = MAX_FRAME_BYTES - LENGTH_PREFIX_BYTES;

    private Frames() {
    }

    static byte[] encode(Message m) {
        return WireCodec.encode(m);
    }

    /**
     * Encodes every request before any is sent, so a transaction too large for one frame is refused whole.
     *
     * @throws InvalidRequestException if a request does not fit in a frame
     */
    static byte[][] encodeAll(List<Outgoing> requests) {
        byte[][] frames = new byte[requests.size()][];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = encode(requests.get(i).request());
            if (frames[i].length > MAX_BODY_BYTES)
                throw new InvalidRequestException("the request for partition " + requests.get(i).partition() + " is "
                        + frames[i].length + " bytes, more than a frame's maximum of " + MAX_BODY_BYTES);
        }
        return frames;
    }
}
