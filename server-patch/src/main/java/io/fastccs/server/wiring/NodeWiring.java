package io.fastccs.server.wiring;

import io.fastccs.core.spi.Protocols;
import io.fastccs.core.spi.Capability;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.replication.ReplicatedLog;
import io.fastccs.server.groups.PartitionGroups;
import io.fastccs.server.node.FastCcsNode;
import io.fastccs.server.node.InboundHandler;
import io.fastccs.server.node.PartitionRouter;
import io.fastccs.server.node.ProtocolNode;
import io.fastccs.server.node.NodeSettings;
import io.fastccs.server.node.RingView;
import io.fastccs.protocol.host.DurablePartitionStore;
import io.fastccs.server.storage.DurableWriteLog;
import io.fastccs.server.transport.FastCcsServer;
import io.fastccs.server.transport.PeerLinks;
import io.fastccs.server.transport.TransportSecurity;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The composition root of one FastCCS node: wires the partition host ({@link FastCcsNode}), its store, the ring, the
 * peer links and the FastCCS port, starts them in order and closes them in reverse. The Cassandra plugin and the
 * in-process test cluster both build nodes only through here; nothing else builds a node's parts. With replica groups
 * {@link PartitionGroups} decides when a group's host runs on this node, and has it built here ({@link GroupParts}).
 */
public final class NodeWiring implements AutoCloseable {
    /** Joins this node's replica groups (PartitionGroups.start), their port and hosts built by {@code parts}. */
    @FunctionalInterface
    public interface JoinGroups {
        PartitionGroups join(PartitionGroups.NodeParts parts) throws IOException, InterruptedException;
    }

    /** The FastCCS host; null on a node that runs only compared protocols, or replica groups. */
    private final FastCcsNode node;
    /** The hosts of the compared protocols (Eiger, Wren, eventual) this node runs. */
    private final Map<Protocol, ProtocolNode> compared;
    private final List<PeerLinks> peers;
    private final FastCcsServer server;
    /** The replica groups this node takes part in; null with one partition per node. */
    private final PartitionGroups groups;

    private NodeWiring(FastCcsNode node, Map<Protocol, ProtocolNode> compared, List<PeerLinks> peers, FastCcsServer server,
                       PartitionGroups groups) {
        this.node = node;
        this.compared = compared;
        this.peers = peers;
        this.server = server;
        this.groups = groups;
    }

    /**
     * A FastCCS node: recovers the partition from {@code store}, then opens the port, then starts ticking: nothing is
     * accepted before recovery is done.
     *
     * @param clockMicros the node's time in microseconds; must not go back across restarts (wall clock)
     * @param security    TLS, logins and permissions on the port and the peer links
     */
    public static NodeWiring start(NodeSettings settings, RingView ring, DurablePartitionStore store, LongSupplier clockMicros,
                                   TransportSecurity security) throws InterruptedException {
        return start(settings, EnumSet.of(Protocol.FASTCCS), ring, store, p -> DurableWriteLog.IN_MEMORY, clockMicros, security);
    }

    /**
     * A node running each of {@code protocols} on the one port (a connection names its protocol in its Hello): FastCCS
     * recovered from {@code store}, the compared protocols' partitions empty in memory (each with peer links of its
     * own); then the port opens, then they tick.
     *
     * @param store     FastCCS's store; null when {@code protocols} leaves FastCCS out
     * @param writeLogs the durable write log of each compared protocol's partition
     */
    public static NodeWiring start(NodeSettings settings, Set<Protocol> protocols, RingView ring, DurablePartitionStore store,
                                   Function<Protocol, DurableWriteLog> writeLogs, LongSupplier clockMicros,
                                   TransportSecurity security) throws InterruptedException {
        if (protocols.isEmpty()) throw new IllegalArgumentException("a node runs at least one protocol");
        List<PeerLinks> links = new ArrayList<>();
        Map<Protocol, InboundHandler> hosts = new EnumMap<>(Protocol.class);
        Map<Protocol, ProtocolNode> compared = new EnumMap<>(Protocol.class);
        FastCcsNode node = null;
        FastCcsServer server = null;
        try {
            for (Protocol protocol : protocols) {
                PeerLinks peers = new PeerLinks(ring, settings.bindAddress(), settings.maxFrameBytes(), security, protocol);
                links.add(peers);
                if (Protocols.factory(protocol).has(Capability.CRASH_RECOVERY)) {
                    if (store == null) throw new IllegalArgumentException(protocol.word() + " needs its store");
                    node = new FastCcsNode(settings.speaking(protocol), ring, store, peers, clockMicros);
                    hosts.put(protocol, node);
                } else {
                    ProtocolNode host = new ProtocolNode(settings.speaking(protocol), ring, peers, clockMicros,
                            writeLogs.apply(protocol));
                    compared.put(protocol, host);
                    hosts.put(protocol, host);
                }
            }
            server = new FastCcsServer(settings, PartitionRouter.single(ring, hosts), security);
            for (ProtocolNode host : compared.values()) host.onStopServing(server::close);
            if (node != null) {
                node.onStopServing(server::close);
                node.recover();
            }
            server.start();
        } catch (InterruptedException | RuntimeException e) {
            new NodeWiring(node, compared, links, server, null).close();
            throw e;
        }
        if (node != null) node.startTicking();
        compared.values().forEach(ProtocolNode::startTicking);
        return new NodeWiring(node, compared, links, server, null);
    }

    /**
     * A node of replicated partitions: {@code join} joins its groups and opens the port, and from then on starts the
     * host of each group this node leads; both the port and the hosts are built here ({@link GroupParts}).
     */
    public static NodeWiring startGroups(NodeSettings settings, JoinGroups join, LongSupplier clockMicros,
                                         TransportSecurity security) throws IOException, InterruptedException {
        GroupParts parts = new GroupParts(settings, clockMicros, security);
        PartitionGroups groups = join.join(parts);
        return new NodeWiring(null, Map.of(), List.of(), parts.port, groups);
    }

    /**
     * The parts of a node with replica groups: the port, and the host of each group whose leadership this member
     * takes (with the group's log as the host's lease check).
     */
    private static final class GroupParts implements PartitionGroups.NodeParts {
        private final NodeSettings settings;
        private final LongSupplier clockMicros;
        private final TransportSecurity security;
        private FastCcsServer port;

        GroupParts(NodeSettings settings, LongSupplier clockMicros, TransportSecurity security) {
            this.settings = settings;
            this.clockMicros = clockMicros;
            this.security = security;
        }

        @Override
        public Protocol protocol() {
            return settings.protocol();
        }

        @Override
        public FastCcsServer port(PartitionRouter router) {
            port = new FastCcsServer(settings, router, security);
            return port;
        }

        @Override
        public PartitionGroups.LeaderHost leaderHost(RingView ring, DurablePartitionStore store, ReplicatedLog log) {
            PeerLinks peers = new PeerLinks(ring, settings.bindAddress(), settings.maxFrameBytes(), security, settings.protocol());
            return new PartitionGroups.LeaderHost(new FastCcsNode(settings, ring, store, peers, clockMicros, log::readBarrier), peers);
        }
    }

    /**
     * The FastCCS host, or null when the node runs only compared protocols; with replica groups, the host of its own
     * range's group while it leads it.
     */
    public FastCcsNode node() {
        return groups != null ? groups.host(groups.ownPartition()) : node;
    }

    /** The replica groups this node takes part in, or null with one partition per node. */
    public PartitionGroups groups() {
        return groups;
    }

    /** The host of compared protocol {@code protocol}, or null when the node does not run it. */
    public ProtocolNode comparedNode(Protocol protocol) {
        return compared.get(protocol);
    }

    public FastCcsServer server() {
        return server;
    }

    public InetSocketAddress address() {
        return server.address();
    }

    @Override
    public void close() {
        if (groups != null) groups.close(); // its port, then its hosts and the consensus server
        else if (server != null) server.close();
        peers.forEach(PeerLinks::close);
        if (node != null) node.close();
        compared.values().forEach(ProtocolNode::close);
    }
}
