package io.fastccs.core;

import io.fastccs.core.messages.ClientRequest;

/** A request a client state machine wants sent to a partition. */
public record Outgoing(int partition, ClientRequest request) {
}
