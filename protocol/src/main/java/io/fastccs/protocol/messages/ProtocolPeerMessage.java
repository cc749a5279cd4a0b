package io.fastccs.protocol.messages;

/** A message between partitions of a protocol other than FastCCS; see {@link ProtocolMessage}. */
public non-sealed interface ProtocolPeerMessage extends PeerMessage, ProtocolMessage {
}
