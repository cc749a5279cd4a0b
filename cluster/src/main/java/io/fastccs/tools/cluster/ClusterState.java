package io.fastccs.tools.cluster;

import java.util.List;
import io.fastccs.core.primitives.Protocol;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one CLI invocation leaves for the next: the cluster's shape, how its nodes are launched, and the pid of
 * every node this tool started. Kept as {@code cluster.properties} in the cluster directory.
 *
 * @param agentJar null when the plugin is off
 * @param pids     node number to pid, for nodes started and not yet seen stopped
 * @param nodeSettings FastCCS settings given to every node ({@code -Dfastccs.NAME=VALUE}), kept for restarts
 * @param replacing    nodes wiped and started as replacements of themselves that have not served since: each launch
 *                     of one repeats the replacement (Cassandra ignores the request once the node has bootstrapped),
 *                     and a node that served is started normally ever after
 */
record ClusterState(int nodes, Ports ports, boolean plugin, String heapMin, String heapMax, Path java,
                    Path nodeClasspathFile, Path agentJar, Map<Integer, Long> pids, Map<String, String> nodeSettings,
                    Set<Integer> replacing) {
    static final String FILE_NAME = "cluster.properties";

    /** Its replicas per partition: the {@code replication_factor} node setting, 1 (the plugin's default) without it. */
    int replicationFactor() {
        return Integer.parseInt(nodeSettings.getOrDefault(LocalCluster.REPLICATION_FACTOR, "1"));
    }

    /** The consistency protocols the nodes run (FastCCS unless the {@code protocol} setting names others). */
    List<Protocol> protocols() {
        return LocalCluster.protocols(nodeSettings.get(LocalCluster.PROTOCOL));
    }

    /** The protocol the tools shake hands in: the first the nodes run. */
    Protocol protocol() {
        return protocols().get(0);
    }

    ClusterState {
        if (nodes < 1 || nodes > 254)
            throw new IllegalArgumentException("a local cluster has 1 to 254 nodes, not " + nodes);
        if (plugin && agentJar == null)
            throw new IllegalArgumentException("the plugin is on but no agent jar is given");
        pids = Collections.unmodifiableMap(new TreeMap<>(pids));
        nodeSettings = Collections.unmodifiableMap(new TreeMap<>(nodeSettings));
        for (int node : replacing)
            if (node < 1 || node > nodes) throw new IllegalArgumentException("no node " + node + " to replace in a " + nodes + "-node cluster");
        replacing = Collections.unmodifiableSet(new TreeSet<>(replacing));
    }

    ClusterState(int nodes, Ports ports, boolean plugin, String heapMin, String heapMax, Path java, Path nodeClasspathFile,
                 Path agentJar, Map<Integer, Long> pids, Map<String, String> nodeSettings) {
        this(nodes, ports, plugin, heapMin, heapMax, java, nodeClasspathFile, agentJar, pids, nodeSettings, Set.of());
    }

    ClusterState(int nodes, Ports ports, boolean plugin, String heapMin, String heapMax, Path java, Path nodeClasspathFile,
                 Path agentJar, Map<Integer, Long> pids) {
        this(nodes, ports, plugin, heapMin, heapMax, java, nodeClasspathFile, agentJar, pids, Map.of());
    }

    ClusterState withPid(int node, long pid) {
        Map<Integer, Long> updated = new TreeMap<>(pids);
        updated.put(node, pid);
        return new ClusterState(nodes, ports, plugin, heapMin, heapMax, java, nodeClasspathFile, agentJar, updated, nodeSettings, replacing);
    }

    ClusterState withoutPid(int node) {
        Map<Integer, Long> updated = new TreeMap<>(pids);
        updated.remove(node);
        return new ClusterState(nodes, ports, plugin, heapMin, heapMax, java, nodeClasspathFile, agentJar, updated, nodeSettings, replacing);
    }

    /** {@code node} is (or is no longer) a replacement of itself that has not served yet. */
    ClusterState withReplacing(int node, boolean pending) {
        Set<Integer> updated = new TreeSet<>(replacing);
        if (pending) updated.add(node);
        else updated.remove(node);
        return new ClusterState(nodes, ports, plugin, heapMin, heapMax, java, nodeClasspathFile, agentJar, pids, nodeSettings, updated);
    }

    boolean replacing(int node) {
        return replacing.contains(node);
    }

    /** @throws ClusterException when the cluster has no node {@code node} */
    void requireNode(int node) {
        if (node < 1 || node > nodes)
            throw new ClusterException("no node " + node + ": the cluster has nodes 1 to " + nodes);
    }

    /** The pid recorded for {@code node}, or 0. */
    long pid(int node) {
        return pids.getOrDefault(node, 0L);
    }

    void save(Path file) throws IOException {
        Properties p = new Properties();
        p.setProperty("nodes", Integer.toString(nodes));
        p.setProperty("subnet", Integer.toString(ports.subnet()));
        p.setProperty("port.storage", Integer.toString(ports.storage()));
        p.setProperty("port.cql", Integer.toString(ports.cql()));
        p.setProperty("port.fastccs", Integer.toString(ports.fastccs()));
        p.setProperty("port.jmx.base", Integer.toString(ports.jmxBase()));
        p.setProperty("plugin", Boolean.toString(plugin));
        p.setProperty("heap.min", heapMin);
        p.setProperty("heap.max", heapMax);
        p.setProperty("java", java.toString());
        p.setProperty("node.classpath.file", nodeClasspathFile.toString());
        if (agentJar != null)
            p.setProperty("agent.jar", agentJar.toString());
        pids.forEach((node, pid) -> p.setProperty("node." + node + ".pid", Long.toString(pid)));
        nodeSettings.forEach((name, value) -> p.setProperty("setting." + name, value));
        replacing.forEach(node -> p.setProperty("node." + node + ".replacing", "true"));
        // Written aside and moved, so a reader never sees half a file.
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(w, "local FastCCS cluster (bin/fastccs cluster); pids are of nodes this tool started");
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static ClusterState load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        try {
            int nodes = Integer.parseInt(required(p, "nodes", file));
            Ports ports = new Ports(Integer.parseInt(p.getProperty("subnet", "0")), // absent in older files
                    Integer.parseInt(required(p, "port.storage", file)),
                    Integer.parseInt(required(p, "port.cql", file)),
                    Integer.parseInt(required(p, "port.fastccs", file)),
                    Integer.parseInt(required(p, "port.jmx.base", file)));
            Map<Integer, Long> pids = new TreeMap<>();
            Set<Integer> replacing = new TreeSet<>();
            for (int node = 1; node <= nodes; node++) {
                String pid = p.getProperty("node." + node + ".pid");
                if (pid != null)
                    pids.put(node, Long.parseLong(pid));
                if (Boolean.parseBoolean(p.getProperty("node." + node + ".replacing")))
                    replacing.add(node);
            }
            String agent = p.getProperty("agent.jar");
            Map<String, String> settings = new TreeMap<>();
            for (String key : p.stringPropertyNames())
                if (key.startsWith("setting.")) settings.put(key.substring("setting.".length()), p.getProperty(key));
            return new ClusterState(nodes, ports, Boolean.parseBoolean(required(p, "plugin", file)),
                    required(p, "heap.min", file), required(p, "heap.max", file), Path.of(required(p, "java", file)),
                    Path.of(required(p, "node.classpath.file", file)), agent == null ? null : Path.of(agent), pids, settings,
                    replacing);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + " is damaged: " + e.getMessage(), e);
        }
    }

    private static String required(Properties p, String key, Path file) throws IOException {
        String value = p.getProperty(key);
        if (value == null)
            throw new IOException(file + " is damaged: no " + key);
        return value;
    }
}
