package io.fastccs.sim;

import io.fastccs.protocol.messages.ProtocolMessage;
import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.CompactReadReply;
import io.fastccs.protocol.messages.CompactSecondRoundRead;
import io.fastccs.protocol.messages.CompactWriteRequest;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.KeyValue;
import io.fastccs.protocol.messages.Message;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.protocol.messages.ReadValue;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.StabilizeDown;
import io.fastccs.protocol.messages.StabilizeUp;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.protocol.wire.WireCodec;
import io.fastccs.protocol.wren.WrenMessages;

/** Sizes of messages as the real wire codec encodes them, and how much of that is keys and values. */
final class MessageSizes {
    /**
     * Encoded bytes of the message, plus the 4-byte length prefix of the transport's framing: the same codec for every
     * protocol, the one the nodes use.
     */
    int size(Message m) {
        return WireCodec.encodedSize(m) + 4;
    }

    /** Whether the message is stabilization: FastCCS's (direct or up and down its tree) or Wren's local stable time. */
    static boolean isStabilization(Message m) {
        return m instanceof Stabilize || m instanceof StabilizeUp || m instanceof StabilizeDown || m instanceof WrenMessages.Lst;
    }

    /** Bytes of keys and values the message carries; the rest is metadata (clocks, ids, framing). */
    static long payload(Message m) {
        if (m instanceof ProtocolMessage pm) return pm.payloadBytes();
        long bytes = 0;
        if (m instanceof FirstRoundRead r) for (Key k : r.keys()) bytes += k.length();
        else if (m instanceof SecondRoundRead r) for (Key k : r.keys()) bytes += k.length();
        else if (m instanceof WriteRequest w) for (KeyValue kv : w.writes()) bytes += kv.key().length() + kv.value().length;
        else if (m instanceof ReadReply r)
            for (ReadValue v : r.values()) bytes += v.key().length() + (v.value() == null ? 0 : v.value().length);
        else if (m instanceof CompactFirstRoundRead r) for (Key k : r.keys()) bytes += k.length();
        else if (m instanceof CompactSecondRoundRead r) for (Key k : r.keys()) bytes += k.length();
        else if (m instanceof CompactWriteRequest w) for (KeyValue kv : w.writes()) bytes += kv.key().length() + kv.value().length;
        else if (m instanceof CompactReadReply r)
            for (ReadValue v : r.values()) bytes += v.key().length() + (v.value() == null ? 0 : v.value().length);
        return bytes;
    }
}
