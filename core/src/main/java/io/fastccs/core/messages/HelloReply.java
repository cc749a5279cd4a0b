package io.fastccs.core.messages;

import io.fastccs.core.primitives.Protocol;

import java.util.Objects;

/**
 * The node accepts a connection: its protocol version, its partition index, the cluster's partition count and the
 * consistency protocol it runs (absent on the wire: FastCCS).
 */
public record HelloReply(int version, int partition, int partitions, Protocol protocol) implements ControlMessage {
    public HelloReply {
        Objects.requireNonNull(protocol, "protocol");
    }

    public HelloReply(int version, int partition, int partitions) {
        this(version, partition, partitions, Protocol.FASTCCS);
    }
}
