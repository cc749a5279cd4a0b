package io.fastccs.server.node;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.Topology;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.core.messages.RingMember;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.ring.TokenRing;
import io.fastccs.server.transport.TransportSecurity;
import io.fastccs.server.wiring.NodeWiring;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Set;
import java.util.List;

/**
 * A FastCCS cluster inside one JVM: N real nodes with real Netty sockets on loopback, each with an in-memory store
 * that survives {@link #restart(int)}. No Cassandra: for client tests and quick experiments. Tokens are spread
 * evenly over the Murmur3 range, as the local Cassandra cluster does.
 */
public final class InProcessCluster implements AutoCloseable {
    private final PartitionConfig config;
    private final List<RingMember> members;
    private final InMemoryPartitionStore[] stores;
    private final NodeWiring[] nodes;
    private final TransportSecurity security;
    private final Set<Protocol> protocols;

    private InProcessCluster(int partitions, PartitionConfig config, TransportSecurity security, Set<Protocol> protocols)
            throws IOException {
        this.config = config;
        this.security = security;
        this.protocols = EnumSet.copyOf(protocols);
        this.members = new ArrayList<>();
        for (int p = 0; p < partitions; p++) members.add(new RingMember(p, "127.0.0.1", freePort(), evenToken(p, partitions), true));
        this.stores = new InMemoryPartitionStore[partitions];
        this.nodes = new NodeWiring[partitions];
    }

    public static InProcessCluster start(int partitions) throws IOException, InterruptedException {
        return start(partitions, PartitionConfig.defaults());
    }

    public static InProcessCluster start(int partitions, PartitionConfig config) throws IOException, InterruptedException {
        return start(partitions, config, TransportSecurity.NONE);
    }

    /** Nodes whose port and peer links enforce {@code security} (TLS, logins, permissions). */
    public static InProcessCluster start(int partitions, PartitionConfig config, TransportSecurity security)
            throws IOException, InterruptedException {
        return start(partitions, config, security, EnumSet.of(Protocol.FASTCCS));
    }

    /** Nodes that run each of {@code protocols} on their one port (the compared ones in memory, lost on a restart). */
    public static InProcessCluster start(int partitions, PartitionConfig config, TransportSecurity security,
                                         Set<Protocol> protocols) throws IOException, InterruptedException {
        InProcessCluster c = new InProcessCluster(partitions, config, security, protocols);
        for (int p = 0; p < partitions; p++) {
            c.stores[p] = new InMemoryPartitionStore();
            c.startNode(p);
        }
        return c;
    }

    /** The token of partition {@code p} of {@code n}: the upper end of an n-th of the Murmur3 range. */
    public static long evenToken(int p, int n) {
        java.math.BigInteger range = java.math.BigInteger.ONE.shiftLeft(64);
        return java.math.BigInteger.valueOf(Long.MIN_VALUE)
                .add(range.multiply(java.math.BigInteger.valueOf(p + 1)).divide(java.math.BigInteger.valueOf(n)))
                .subtract(java.math.BigInteger.ONE).longValueExact();
    }

    private void startNode(int p) throws InterruptedException {
        RingView ring = new StaticRing(p, members);
        NodeSettings settings = new NodeSettings(InetAddress.getLoopbackAddress(), members.get(p).port(),
                NodeSettings.DEFAULT_MAX_FRAME_BYTES, config);
        nodes[p] = NodeWiring.start(settings, protocols, ring,
                protocols.contains(Protocol.FASTCCS) ? new InMemoryDurableStore(stores[p]) : null,
                protocol -> io.fastccs.server.storage.DurableWriteLog.IN_MEMORY, () -> System.currentTimeMillis() * 1000, security);
    }

    public List<InetSocketAddress> contactPoints() {
        List<InetSocketAddress> out = new ArrayList<>();
        for (RingMember m : members) out.add(new InetSocketAddress(m.host(), m.port()));
        return out;
    }

    public FastCcsNode node(int p) {
        return nodes[p].node();
    }

    public int size() {
        return nodes.length;
    }

    /** The sum over every node's port of each traffic counter ({@link io.fastccs.server.transport.Traffic#snapshot}). */
    public java.util.Map<String, Long> traffic() {
        java.util.Map<String, Long> sum = new java.util.TreeMap<>();
        for (NodeWiring n : nodes) if (n != null) n.server().traffic().snapshot().forEach((k, v) -> sum.merge(k, v, Long::sum));
        return sum;
    }

    /** Stops node {@code p}: its port closes and its volatile state is gone; its store stays. */
    public void stop(int p) {
        if (nodes[p] != null) nodes[p].close();
        nodes[p] = null;
    }

    /** Starts node {@code p} again on the same port, recovering from its store. */
    public void restart(int p) throws InterruptedException {
        stop(p);
        startNode(p);
    }

    @Override
    public void close() {
        for (int p = 0; p < nodes.length; p++) stop(p);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    /** A fixed ring. */
    static final class StaticRing implements RingView {
        private final int self;
        private final List<RingMember> members;
        private final Topology topology;

        StaticRing(int self, List<RingMember> members) {
            this.self = self;
            this.members = List.copyOf(members);
            this.topology = TokenRing.of(this.members);
        }

        @Override public int self() { return self; }
        @Override public List<RingMember> members() { return members; }
        @Override public Topology topology() { return topology; }
        @Override public boolean mayActAs(InetAddress address, int partition) { return address.isLoopbackAddress(); }
    }
}
