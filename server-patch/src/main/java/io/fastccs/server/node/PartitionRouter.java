package io.fastccs.server.node;

import io.fastccs.protocol.messages.RingReply;

import java.net.InetAddress;

/**
 * Which partition host on this node serves a connection. At replication factor 1 a node serves its own partition
 * only; with replicated partitions it serves every group it leads at the moment, and a connection names its partition
 * in its Hello. Any thread.
 */
public interface PartitionRouter {
    /** The host serving {@code partition} here now, or null when this node does not (does not lead its group). */
    InboundHandler serving(int partition);

    /** The partition a connection is for when its Hello names none: the node's own. */
    int ownPartition();

    int partitions();

    /** Whether a connection from {@code address} may speak for partition {@code partition} (a member of its group). */
    boolean mayActAs(InetAddress address, int partition);

    /** The answer to a ring request. */
    RingReply ring(long requestId);

    /** For a refused connection: the partition whose preferred node leads {@code partition} now, or -1 if unknown. */
    default int leaderHint(int partition) {
        return -1;
    }

    /** A node serving its own partition only (replication factor 1). */
    static PartitionRouter single(RingView ring, InboundHandler node) {
        return new PartitionRouter() {
            @Override public InboundHandler serving(int partition) { return partition == ring.self() ? node : null; }
            @Override public int ownPartition() { return ring.self(); }
            @Override public int partitions() { return ring.partitions(); }
            @Override public boolean mayActAs(InetAddress address, int partition) { return ring.mayActAs(address, partition); }
            @Override public RingReply ring(long requestId) { return node.ring(requestId); }
        };
    }
}
