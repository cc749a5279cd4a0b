package io.fastccs.protocol.messages;

/** A request from a client to one partition; the response echoes {@link #requestId()}. */
public sealed interface ClientRequest extends Message
        permits FirstRoundRead, SecondRoundRead, WriteRequest, OutcomeQuery, CompactFirstRoundRead, CompactSecondRoundRead,
        CompactWriteRequest, ProtocolRequest {
    long requestId();
}
