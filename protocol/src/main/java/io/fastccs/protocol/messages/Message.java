package io.fastccs.protocol.messages;

/**
 * The root of every message on the FastCCS port, of all four protocols: client requests, their responses,
 * partition-to-partition messages and the transport's control messages. The protocols other than FastCCS extend the
 * first three through {@link ProtocolRequest}, {@link ProtocolResponse} and {@link ProtocolPeerMessage}.
 */
public sealed interface Message permits ClientRequest, ClientResponse, PeerMessage, ControlMessage {
}
