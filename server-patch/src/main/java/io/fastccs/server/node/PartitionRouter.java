package io.fastccs.server.node;

import io.fastccs.core.primitives.Protocol;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import io.fastccs.core.messages.RingReply;

import java.net.InetAddress;

/**
 * Which partition host on this node serves a connection. At replication factor 1 a node serves its own partition
 * only; with replicated partitions it serves every group it leads at the moment, and a connection names its partition
 * in its Hello. Any thread.
 */
public interface PartitionRouter {
    /** The consistency protocols this node serves (a connection names one in its Hello). */
    Set<Protocol> protocols();

    /**
     * The host of {@code protocol} serving {@code partition} here now, or null when this node does not (it does not
     * run the protocol, or does not lead the partition's group).
     */
    InboundHandler serving(Protocol protocol, int partition);

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

    /**
     * A node serving its own partition of each of {@code hosts}' protocols (replication factor 1), all on one port: a
     * connection reaches the host of the protocol its Hello names.
     */
    static PartitionRouter single(RingView ring, Map<Protocol, InboundHandler> hosts) {
        if (hosts.isEmpty()) throw new IllegalArgumentException("a node serves at least one protocol");
        Map<Protocol, InboundHandler> byProtocol = new EnumMap<>(hosts);
        Set<Protocol> protocols = Collections.unmodifiableSet(EnumSet.copyOf(byProtocol.keySet()));
        InboundHandler any = byProtocol.values().iterator().next();
        return new PartitionRouter() {
            @Override public Set<Protocol> protocols() { return protocols; }
            @Override public InboundHandler serving(Protocol protocol, int partition) {
                return partition == ring.self() ? byProtocol.get(protocol) : null;
            }
            @Override public int ownPartition() { return ring.self(); }
            @Override public int partitions() { return ring.partitions(); }
            @Override public boolean mayActAs(InetAddress address, int partition) { return ring.mayActAs(address, partition); }
            @Override public RingReply ring(long requestId) { return any.ring(requestId); }
        };
    }
}
