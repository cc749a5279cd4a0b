package io.fastccs.protocol.messages;

/** A client request of a protocol other than FastCCS; see {@link ProtocolMessage}. */
public non-sealed interface ProtocolRequest extends ClientRequest, ProtocolMessage {
}
