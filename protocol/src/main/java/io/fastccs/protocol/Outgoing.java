package io.fastccs.protocol;

import io.fastccs.protocol.messages.ClientRequest;

/** A request a client state machine wants sent to a partition. */
public record Outgoing(int partition, ClientRequest request) {
}
