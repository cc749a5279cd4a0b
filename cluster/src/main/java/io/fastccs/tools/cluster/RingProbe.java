package io.fastccs.tools.cluster;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A node's view of the ring, read over JMX from its StorageService MBean, and the FastCCS plugin's health from
 * {@code io.fastccs:type=FastCcs} (no Cassandra or plugin classes needed).
 */
final class RingProbe {
    /**
     * @param liveNodes      addresses the node's gossip considers up, itself included
     * @param tokenOwners    how many tokens the node knows owners for (one per normal node here)
     * @param operationMode  NORMAL once the node has joined
     */
    record View(List<String> liveNodes, int tokenOwners, String operationMode) {
    }

    static {
        // A hung node must not hang status or start: bound RMI's connect and read waits (read once, at first use).
        ToolProperty.RMI_RESPONSE_TIMEOUT.setIfAbsent("5000");
        ToolProperty.RMI_CONNECTION_TIMEOUT.setIfAbsent("5000");
    }

    /** The plugin's health attributes: {@code State} (STARTING, SERVING, FAILED) and {@code StateReason}. */
    record PluginHealth(String state, String reason) {
        boolean failed() {
            return "FAILED".equals(state);
        }
    }

    private RingProbe() {
    }

    /** Empty when JMX does not answer or the plugin registered no health bean (no agent, or not loaded yet). */
    static Optional<PluginHealth> pluginHealth(int jmxPort) {
        return query(jmxPort, mbeans -> {
            ObjectName health = new ObjectName("io.fastccs:type=FastCcs");
            return new PluginHealth(String.valueOf(mbeans.getAttribute(health, "State")),
                    String.valueOf(mbeans.getAttribute(health, "StateReason")));
        });
    }

    /**
     * With replicated partitions, the groups whose preferred member the node is but does not lead now (its
     * {@code io.fastccs:type=Groups} bean); empty when JMX does not answer or the node has no such bean yet.
     */
    static Optional<List<Integer>> preferredNotLeading(int jmxPort) {
        return query(jmxPort, mbeans -> {
            Object groups = mbeans.getAttribute(new ObjectName("io.fastccs:type=Groups"), "PreferredNotLeading");
            // An MXBean's List<Integer> arrives as Integer[]; anything else is no answer, never "settled".
            if (!(groups instanceof Integer[] a)) throw new IllegalStateException("PreferredNotLeading is " + groups);
            return List.of(a);
        });
    }

    /** Empty when JMX does not answer (node down or not up yet). */
    static Optional<View> view(int jmxPort) {
        return query(jmxPort, mbeans -> {
            ObjectName storageService = new ObjectName("org.apache.cassandra.db:type=StorageService");
            List<?> live = (List<?>) mbeans.getAttribute(storageService, "LiveNodes");
            Map<?, ?> tokens = (Map<?, ?>) mbeans.getAttribute(storageService, "TokenToEndpointMap");
            String mode = String.valueOf(mbeans.getAttribute(storageService, "OperationMode"));
            return new View(live.stream().map(String::valueOf).sorted().toList(), tokens.size(), mode);
        });
    }

    private interface Query<T> {
        T ask(MBeanServerConnection mbeans) throws Exception;
    }

    /** One JMX connection to the node, one question; any failure is "no answer yet", since callers poll. */
    private static <T> Optional<T> query(int jmxPort, Query<T> query) {
        try {
            JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi");
            try (JMXConnector connector = JMXConnectorFactory.connect(url)) {
                return Optional.of(query.ask(connector.getMBeanServerConnection()));
            }
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
