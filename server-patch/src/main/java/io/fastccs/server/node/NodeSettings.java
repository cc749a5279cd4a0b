package io.fastccs.server.node;

import io.fastccs.core.primitives.Protocol;
import java.util.Objects;
import io.fastccs.core.PartitionConfig;

import java.net.InetAddress;

/**
 * How a node serves FastCCS.
 *
 * @param bindAddress   the address the FastCCS port listens on (the node's rpc address)
 * @param port          the FastCCS port, for clients and peers alike (0: any free port, for tests)
 * @param maxFrameBytes the largest frame accepted; a larger length prefix closes the connection
 * @param partition     the protocol's tunables
 * @param protocol      the consistency protocol of the host these settings are for
 */
public record NodeSettings(InetAddress bindAddress, int port, int maxFrameBytes, PartitionConfig partition, Protocol protocol) {
    public static final int DEFAULT_PORT = 9142;
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 << 20;

    public NodeSettings {
        Objects.requireNonNull(protocol, "protocol");
    }

    /** The same settings for the host of {@code protocol}. */
    public NodeSettings speaking(Protocol protocol) {
        return new NodeSettings(bindAddress, port, maxFrameBytes, partition, protocol);
    }

    /** A FastCCS node. */
    public NodeSettings(InetAddress bindAddress, int port, int maxFrameBytes, PartitionConfig partition) {
        this(bindAddress, port, maxFrameBytes, partition, Protocol.FASTCCS);
    }
}
