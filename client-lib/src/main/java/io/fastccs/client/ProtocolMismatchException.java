package io.fastccs.client;

import io.fastccs.core.primitives.Protocol;

/**
 * A node runs another consistency protocol than the client was built for ({@link FastCcsClientBuilder#withProtocol}):
 * its handshake reply named its protocol, and the connection was closed. A configuration error, not a transient one:
 * building the client fails at once with it, and a node that later comes back with another protocol is not used
 * (the client keeps retrying it, in case it is restarted with the right one).
 */
public class ProtocolMismatchException extends ProtocolException {
    private static final long serialVersionUID = 1L;

    private final Protocol nodeProtocol;
    private final Protocol clientProtocol;

    /**
     * @param node           the node's {@code host:port}
     * @param nodeProtocol   what the node runs
     * @param clientProtocol what the client was built for
     */
    public ProtocolMismatchException(String node, Protocol nodeProtocol, Protocol clientProtocol) {
        super("node " + node + " runs " + nodeProtocol.word() + "; this client was built for " + clientProtocol.word()
                + " (FastCcsClientBuilder.withProtocol; the nodes' protocol setting must say the same)");
        this.nodeProtocol = nodeProtocol;
        this.clientProtocol = clientProtocol;
    }

    /** The protocol the node runs. */
    public Protocol nodeProtocol() {
        return nodeProtocol;
    }

    /** The protocol the client speaks. */
    public Protocol clientProtocol() {
        return clientProtocol;
    }
}
