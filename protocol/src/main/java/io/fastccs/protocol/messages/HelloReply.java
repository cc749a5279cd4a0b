package io.fastccs.protocol.messages;

/** The node accepts a connection: its protocol version, its partition index and the cluster's partition count. */
public record HelloReply(int version, int partition, int partitions) implements ControlMessage {
}
