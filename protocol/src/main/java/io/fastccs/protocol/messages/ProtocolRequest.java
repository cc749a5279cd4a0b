package io.fastccs.protocol.messages;

/** A client request of a protocol other than FastCCS; see {@link ProtocolMessage}. */
public non-sealed interface ProtocolRequest extends ClientRequest, ProtocolMessage {
    /** Whether the request only reads (a read round, a start round): nodes check read permission for it, write otherwise. */
    default boolean onlyReads() {
        return false;
    }
}
