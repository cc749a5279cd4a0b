package io.fastccs.protocol.messages;

/** One entry of tree stabilization: partition {@code partition} has settled every sequence number up to {@code settled}. */
public record Settled(int partition, long settled) {
}
