package io.fastccs.testkit;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.RingReply;
import io.fastccs.core.messages.RingRequest;
import io.fastccs.core.ring.TokenRing;
import io.fastccs.tools.cluster.Ports;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A running local cluster as the nemesis sees it: the FastCCS address of each node and which partition each node is
 * (partition indices follow token order, not node numbers).
 */
public final class ClusterView {
    private final Ports ports;
    private final int nodes;
    private final int[] partitionOfNode;
    private final int[] nodeOfPartition;
    private final TokenRing ring;

    private ClusterView(Ports ports, int nodes, int[] partitionOfNode, int[] nodeOfPartition, TokenRing ring) {
        this.ports = ports;
        this.nodes = nodes;
        this.partitionOfNode = partitionOfNode;
        this.nodeOfPartition = nodeOfPartition;
        this.ring = ring;
    }

    /** Asks every node (all must serve) for its partition and one of them for the ring. */
    public static ClusterView discover(Ports ports, int nodes) throws IOException {
        int[] partitionOfNode = new int[nodes + 1];
        int[] nodeOfPartition = new int[nodes];
        TokenRing ring = null;
        for (int node = 1; node <= nodes; node++) {
            try (RawClient c = RawClient.open(new InetSocketAddress(ports.address(node), ports.fastccs()), Duration.ofSeconds(10))) {
                if (c.hello().partitions() != nodes)
                    throw new IOException("node " + node + " reports " + c.hello().partitions() + " partitions, not " + nodes);
                partitionOfNode[node] = c.hello().partition();
                nodeOfPartition[c.hello().partition()] = node;
                if (ring == null) {
                    Message m = c.exchange(new RingRequest(1));
                    if (!(m instanceof RingReply reply)) throw new IOException("ring request answered with " + m);
                    ring = TokenRing.of(reply.members());
                }
            }
        }
        return new ClusterView(ports, nodes, partitionOfNode, nodeOfPartition, ring);
    }

    public int nodes() {
        return nodes;
    }

    public Ports ports() {
        return ports;
    }

    public TokenRing ring() {
        return ring;
    }

    public InetSocketAddress fastccsAddress(int node) {
        return new InetSocketAddress(ports.address(node), ports.fastccs());
    }

    public InetSocketAddress cqlAddress(int node) {
        return new InetSocketAddress(ports.address(node), ports.cql());
    }

    public List<InetSocketAddress> fastccsAddresses() {
        List<InetSocketAddress> out = new ArrayList<>();
        for (int node = 1; node <= nodes; node++) out.add(fastccsAddress(node));
        return out;
    }

    public int partitionOfNode(int node) {
        return partitionOfNode[node];
    }

    public int nodeOfPartition(int partition) {
        return nodeOfPartition[partition];
    }

    public int ownerOf(String key) {
        return ring.ownerOf(Key.of(key));
    }

    /**
     * The node that leads {@code partition}'s group as node {@code askedNode} sees it (replicated partitions: the
     * ring names each partition at its leader), or -1 if the asked node does not answer or names no node of ours.
     */
    public int leaderAsSeenBy(int askedNode, int partition, Duration timeout) {
        try (RawClient c = connect(askedNode, timeout)) {
            Message m = c.exchange(new RingRequest(1));
            if (!(m instanceof RingReply reply) || partition >= reply.members().size()) return -1;
            String host = reply.members().get(partition).host();
            for (int node = 1; node <= nodes; node++) if (ports.address(node).equals(host)) return node;
            return -1;
        } catch (IOException e) {
            return -1;
        }
    }

    public RawClient connect(int node, Duration timeout) throws IOException {
        return RawClient.open(fastccsAddress(node), timeout);
    }

    /** The first {@code perPartition} keys {@code prefix + i} of every partition. */
    public List<String> keysOnEveryPartition(String prefix, int perPartition) {
        int n = nodes;
        int[] counts = new int[n];
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < n * perPartition; i++) {
            String k = prefix + i;
            int p = ownerOf(k);
            if (counts[p] < perPartition) {
                counts[p]++;
                keys.add(k);
            }
        }
        return keys;
    }
}
