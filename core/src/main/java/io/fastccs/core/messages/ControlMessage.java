package io.fastccs.core.messages;

/** Connection handshake and cluster metadata: handled by the node's transport, not by the protocol state machines. */
public sealed interface ControlMessage extends Message permits Hello, HelloReply, RingRequest, RingReply {
}
