package io.fastccs.tools.experiment;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one protocol's traffic and stores did on the nodes during the measured part of a run, from each node's JMX
 * counters: frames and bytes through the FastCCS ports ({@code io.fastccs:type=Traffic}: client requests, client
 * answers and peer messages, each counted once, where it arrives or leaves the node) and the Cassandra mutations its
 * stores issued ({@code io.fastccs:type=Mutations}, by kind). Nodes that cannot be asked (another cluster's, a node
 * without those counters) leave the figures unknown: NaN, never a guess.
 */
final class NodeCounters implements AutoCloseable {
    private static final String TRAFFIC = "io.fastccs:type=Traffic";
    private static final String MUTATIONS = "io.fastccs:type=Mutations";

    private final String protocol;
    private final List<JMXConnector> connectors = new ArrayList<>();
    private final List<MBeanServerConnection> nodes = new ArrayList<>();
    private Map<String, Long> atStart;
    private Map<String, Long> delta;
    private Map<String, Long> mutationsAtStart;
    private Map<String, Long> mutationsDelta;

    /** {@code protocol}: the protocol word (fastccs, eiger, wren, eventual); null for a mode that does not use the port. */
    NodeCounters(String protocol, List<Integer> jmxPorts) {
        this.protocol = protocol;
        if (protocol == null) return;
        try {
            for (int port : jmxPorts) {
                JMXConnector c = JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi"));
                connectors.add(c);
                nodes.add(c.getMBeanServerConnection());
            }
        } catch (Exception e) {
            close();
            nodes.clear();
        }
    }

    void start() {
        atStart = read(TRAFFIC);
        mutationsAtStart = read(MUTATIONS);
    }

    void stop() {
        delta = difference(atStart, read(TRAFFIC));
        mutationsDelta = difference(mutationsAtStart, read(MUTATIONS));
    }

    private static Map<String, Long> difference(Map<String, Long> start, Map<String, Long> end) {
        if (start == null || end == null) return null;
        Map<String, Long> d = new HashMap<>();
        end.forEach((k, v) -> d.put(k, v - start.getOrDefault(k, 0L)));
        return d;
    }

    /** The protocol's store mutations of every kind per write transaction; NaN if unknown or no writes. */
    double mutationsPerWrite(long writes) {
        if (mutationsDelta == null || writes <= 0) return Double.NaN;
        return mutationsPerWriteByKind(writes).values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** Per kind of mutation ({@code prepare}, {@code version}...), how many per write transaction; empty if unknown. */
    Map<String, Double> mutationsPerWriteByKind(long writes) {
        Map<String, Double> out = new java.util.TreeMap<>();
        if (mutationsDelta == null || writes <= 0) return out;
        mutationsDelta.forEach((name, n) -> {
            if (name.startsWith(protocol + ".") && n > 0) out.put(name.substring(protocol.length() + 1), (double) n / writes);
        });
        return out;
    }

    /** Frames of every kind per transaction; NaN if unknown. */
    double framesPerOp(long ops) {
        return per(ops, "frames", null);
    }

    /** Bytes of every kind, with the frames' length prefixes, per transaction; NaN if unknown. */
    double bytesPerOp(long ops) {
        return per(ops, "bytes", null);
    }

    /** Messages between partitions per transaction; NaN if unknown. */
    double peerFramesPerOp(long ops) {
        return per(ops, "frames", "peer_messages");
    }

    private double per(long ops, String unit, String kind) {
        if (delta == null || ops <= 0) return Double.NaN;
        long sum = 0;
        for (Map.Entry<String, Long> e : delta.entrySet()) {
            String[] name = e.getKey().split("\\.");
            if (name.length == 3 && name[0].equals(protocol) && name[2].equals(unit) && (kind == null || name[1].equals(kind)))
                sum += e.getValue();
        }
        return (double) sum / ops;
    }

    /** The sum over all nodes of every counter of {@code mbean}; null if any node did not answer. */
    private Map<String, Long> read(String mbean) {
        if (nodes.isEmpty()) return null;
        Map<String, Long> sum = new HashMap<>();
        try {
            for (MBeanServerConnection node : nodes) {
                TabularData counters = (TabularData) node.getAttribute(new ObjectName(mbean), "Counters");
                for (Object row : counters.values()) {
                    CompositeData entry = (CompositeData) row;
                    sum.merge((String) entry.get("key"), (Long) entry.get("value"), Long::sum);
                }
            }
            return sum;
        } catch (Exception e) {
            return null;
        }
    }

    @Override
    public void close() {
        for (JMXConnector c : connectors) {
            try {
                c.close();
            } catch (Exception ignored) {
                // the node went away; nothing to release
            }
        }
        connectors.clear();
    }
}
