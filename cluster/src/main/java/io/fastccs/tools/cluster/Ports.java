package io.fastccs.tools.cluster;

/**
 * Where a local cluster listens. Node k listens on 127.0.S.k, S being the cluster's subnet (0 by default), so every
 * node uses the same storage, CQL and FastCCS ports; only JMX differs per node, because Cassandra binds it to
 * 127.0.0.1 whatever the node's address. Clusters on different subnets run side by side on one machine.
 */
public record Ports(int subnet, int storage, int cql, int fastccs, int jmxBase) {
    public static final Ports DEFAULT = forSubnet(0);

    /** JMX ports of subnet S start at 7199 + 300 S: room for 254 nodes per subnet, below 37,000 for S up to 99. */
    static final int JMX_PORTS_PER_SUBNET = 300;
    public static final int MAX_SUBNET = 99;

    public Ports {
        checkSubnet(subnet);
    }

    /** The default ports on 127.0.{@code subnet}.k, with JMX moved out of the way of other subnets. */
    public static Ports forSubnet(int subnet) {
        checkSubnet(subnet);
        return new Ports(subnet, 7000, 9042, 9142, 7199 + JMX_PORTS_PER_SUBNET * subnet);
    }

    /** Node k's JMX port. */
    public int jmx(int node) {
        return jmxBase + node;
    }

    /** Node k's address (k from 1). */
    public String address(int node) {
        if (node < 1 || node > 254)
            throw new IllegalArgumentException("node numbers run from 1 to 254, not " + node);
        return "127.0." + subnet + "." + node;
    }

    private static void checkSubnet(int subnet) {
        if (subnet < 0 || subnet > MAX_SUBNET)
            throw new IllegalArgumentException("a local cluster's subnet runs from 0 to " + MAX_SUBNET + " (127.0.S.k), not " + subnet);
    }
}
