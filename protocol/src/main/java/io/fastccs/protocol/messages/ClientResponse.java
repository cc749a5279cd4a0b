package io.fastccs.protocol.messages;

/** A partition's answer to a {@link ClientRequest} with the same request id. */
public sealed interface ClientResponse extends Message permits ReadReply, WriteReply, OutcomeReply, ErrorReply,
        CompactReadReply, CompactWriteReply, ProtocolResponse {
    long requestId();
}
