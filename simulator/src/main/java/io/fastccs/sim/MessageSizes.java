package io.fastccs.sim;

import io.fastccs.core.messages.Message;
import io.fastccs.core.wire.WireCodec;

/** Sizes of messages as the real wire codec encodes them (a message says itself what of it is keys and values). */
final class MessageSizes {
    /**
     * Encoded bytes of the message, plus the 4-byte length prefix of the transport's framing: the same codec for every
     * protocol, the one the nodes use.
     */
    int size(Message m) {
        return WireCodec.encodedSize(m) + 4;
    }
}
