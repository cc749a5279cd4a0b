package io.fastccs.protocol.messages;

/** A partition's answer to a {@link ProtocolRequest}; errors use {@link ErrorReply} as FastCCS does. */
public non-sealed interface ProtocolResponse extends ClientResponse, ProtocolMessage {
}
