package io.fastccs.tools.cluster;

/**
 * The ports of a local cluster. Node k listens on 127.0.0.k, so every node uses the same storage, CQL and FastCCS
 * ports; only JMX differs per node, because Cassandra binds it to 127.0.0.1 whatever the node's address.
 */
public record Ports(int storage, int cql, int fastccs, int jmxBase) {
    public static final Ports DEFAULT = new Ports(7000, 9042, 9142, 7199);

    /** Node k's JMX port. */
    public int jmx(int node) {
        return jmxBase + node;
    }

    /** Node k's address (k from 1). */
    public static String address(int node) {
        if (node < 1 || node > 254)
            throw new IllegalArgumentException("node numbers run from 1 to 254, not " + node);
        return "127.0.0." + node;
    }
}
