package io.fastccs.protocol.messages;

/**
 * A message of a protocol other than FastCCS (Eiger, Wren, eventual), a record in that protocol's package, encoded by
 * the wire codec like FastCCS's own.
 */
public interface ProtocolMessage {
    /** Bytes of keys and values among its encoded bytes; the rest is metadata (all of it, for most messages). */
    default long payloadBytes() {
        return 0;
    }
}
