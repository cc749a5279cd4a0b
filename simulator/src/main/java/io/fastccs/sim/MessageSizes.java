package io.fastccs.sim;

import io.fastccs.core.messages.Message;
import io.fastccs.core.wire.WireCodec;

/** Sizes of messages as the real wire codec encodes them, and how much of that is keys and values. */
final class MessageSizes {
    /**
     * Encoded bytes of the message, plus the 4-byte length prefix of the transport's framing: the same codec for every
     * protocol, the one the nodes use.
     */
    int size(Message m) {
        return WireCodec.encodedSize(m) + 4;
    }

    /** Whether the message is stabilization (FastCCS's, direct or up and down its tree; Wren's local stable time). */
    static boolean isStabilization(Message m) {
        return m.isStabilization();
    }

    /** Bytes of keys and values the message carries; the rest is metadata (clocks, ids, framing). */
    static long payload(Message m) {
        return m.payloadBytes();
    }
}
