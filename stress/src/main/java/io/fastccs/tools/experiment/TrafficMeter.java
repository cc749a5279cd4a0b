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
 * Frames and bytes of one protocol through the nodes' FastCCS ports during the measured part of a run, from each
 * node's {@code io.fastccs:type=Traffic} JMX counters (client requests, client answers and peer messages, each counted
 * once, where it arrives or leaves the node). Nodes that cannot be asked (another cluster's, a node without those
 * counters) leave the figures unknown: NaN, never a guess.
 */
final class TrafficMeter implements AutoCloseable {
    private static final String MBEAN = "io.fastccs:type=Traffic";

    private final String protocol;
    private final List<JMXConnector> connectors = new ArrayList<>();
    private final List<MBeanServerConnection> nodes = new ArrayList<>();
    private Map<String, Long> atStart;
    private Map<String, Long> delta;

    /** {@code protocol}: the protocol word (fastccs, eiger, wren, eventual); null for a mode that does not use the port. */
    TrafficMeter(String protocol, List<Integer> jmxPorts) {
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
        atStart = read();
    }

    void stop() {
        Map<String, Long> end = read();
        if (atStart == null || end == null) return;
        delta = new HashMap<>();
        end.forEach((k, v) -> delta.put(k, v - atStart.getOrDefault(k, 0L)));
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

    /** The sum over all nodes of every counter; null if any node did not answer. */
    private Map<String, Long> read() {
        if (nodes.isEmpty()) return null;
        Map<String, Long> sum = new HashMap<>();
        try {
            for (MBeanServerConnection node : nodes) {
                TabularData counters = (TabularData) node.getAttribute(new ObjectName(MBEAN), "Counters");
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
