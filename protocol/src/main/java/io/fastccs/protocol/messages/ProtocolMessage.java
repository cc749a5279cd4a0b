package io.fastccs.protocol.messages;

/**
 * A message of a protocol other than FastCCS (Eiger, Wren, eventual), a record in that protocol's package. The wire
 * codec encodes these too, but the simulator counts their bytes with this model, so each says what it costs on the
 * wire.
 */
public interface ProtocolMessage {
    /** Bytes on the wire: the fields as a compact binary encoding would write them ({@link WireSizes}), framed. */
    int encodedSize();

    /** Bytes of keys and values among them; the rest is metadata (all of it, for most messages). */
    default long payloadBytes() {
        return 0;
    }
}
