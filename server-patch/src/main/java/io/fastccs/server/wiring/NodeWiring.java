package io.fastccs.server.wiring;

import io.fastccs.server.node.FastCcsNode;
import io.fastccs.server.node.ProtocolNode;
import io.fastccs.server.node.NodeSettings;
import io.fastccs.server.node.RingView;
import io.fastccs.server.storage.DurablePartitionStore;
import io.fastccs.server.transport.FastCcsServer;
import io.fastccs.server.transport.PeerLinks;
import io.fastccs.server.transport.TransportSecurity;

import java.net.InetSocketAddress;
import java.util.function.LongSupplier;

/**
 * The composition root of one FastCCS node: wires the partition host ({@link FastCcsNode}), its store, the ring, the
 * peer links and the FastCCS port, starts them in order and closes them in reverse. The Cassandra plugin and the
 * in-process test cluster both build nodes only through here; nothing else knows both the node and the transport.
 */
public final class NodeWiring implements AutoCloseable {
    /** The FastCCS host; null on a node running a compared protocol. */
    private final FastCcsNode node;
    /** The host of a compared protocol (Eiger, Wren, eventual); null on a FastCCS node. */
    private final ProtocolNode compared;
    private final PeerLinks peers;
    private final FastCcsServer server;

    private NodeWiring(FastCcsNode node, ProtocolNode compared, PeerLinks peers, FastCcsServer server) {
        this.node = node;
        this.compared = compared;
        this.peers = peers;
        this.server = server;
    }

    /**
     * A node of a compared protocol ({@code settings.protocol()} not FastCCS): its partition starts empty in memory, then
     * the port opens, then it ticks.
     */
    public static NodeWiring startCompared(NodeSettings settings, RingView ring, LongSupplier clockMicros,
                                           TransportSecurity security) throws InterruptedException {
        PeerLinks peers = new PeerLinks(ring, settings.bindAddress(), settings.maxFrameBytes(), security, settings.protocol());
        ProtocolNode host = new ProtocolNode(settings, ring, peers, clockMicros);
        FastCcsServer server = new FastCcsServer(settings, ring, host, security);
        try {
            server.start();
        } catch (InterruptedException | RuntimeException e) {
            server.close();
            peers.close();
            host.close();
            throw e;
        }
        host.startTicking();
        return new NodeWiring(null, host, peers, server);
    }

    /**
     * Recovers the partition from {@code store}, then opens the port, then starts ticking: nothing is accepted
     * before recovery is done.
     *
     * @param clockMicros the node's time in microseconds; must not go back across restarts (wall clock)
     * @param security    TLS, logins and permissions on the port and the peer links
     */
    public static NodeWiring start(NodeSettings settings, RingView ring, DurablePartitionStore store, LongSupplier clockMicros,
                                   TransportSecurity security) throws InterruptedException {
        PeerLinks peers = new PeerLinks(ring, settings.bindAddress(), settings.maxFrameBytes(), security);
        FastCcsNode node = new FastCcsNode(settings, ring, store, peers, clockMicros);
        FastCcsServer server = new FastCcsServer(settings, ring, node, security);
        node.onStopServing(server::close);
        try {
            node.recover();
            server.start();
        } catch (InterruptedException | RuntimeException e) {
            server.close();
            peers.close();
            node.close();
            throw e;
        }
        node.startTicking();
        return new NodeWiring(node, null, peers, server);
    }

    /** The FastCCS host, or null when the node runs a compared protocol. */
    public FastCcsNode node() {
        return node;
    }

    /** The compared protocol's host, or null on a FastCCS node. */
    public ProtocolNode comparedNode() {
        return compared;
    }

    public FastCcsServer server() {
        return server;
    }

    public InetSocketAddress address() {
        return server.address();
    }

    @Override
    public void close() {
        server.close();
        peers.close();
        if (node != null) node.close();
        if (compared != null) compared.close();
    }
}
