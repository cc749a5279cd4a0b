package io.fastccs.core.messages;

/** Asks any node for the ring: every partition, its FastCCS address and its token. */
public record RingRequest(long requestId) implements ControlMessage {
}
