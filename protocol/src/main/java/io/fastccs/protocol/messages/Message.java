package io.fastccs.protocol.messages;

/** Every FastCCS message: client requests, their responses, and partition-to-partition messages. */
public sealed interface Message permits ClientRequest, ClientResponse, PeerMessage, ControlMessage {
}
