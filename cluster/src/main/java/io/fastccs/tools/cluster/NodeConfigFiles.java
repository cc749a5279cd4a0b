package io.fastccs.tools.cluster;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The text of a node's {@code cassandra.yaml} and {@code logback.xml}: pure functions, so they are unit-tested, and
 * {@link #write} puts them in the node's directory.
 */
final class NodeConfigFiles {
    static final String CLUSTER_NAME = "fastccs";

    private static final BigInteger MURMUR3_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger MURMUR3_RANGE = BigInteger.ONE.shiftLeft(64);

    private NodeConfigFiles() {
    }

    /** Writes node {@code node}'s configuration (naming node {@code seed} its seed) and creates its directories. */
    static void write(ClusterLayout layout, ClusterState state, int node, int seed) throws IOException {
        Path nodeDir = layout.nodeDir(node);
        for (String sub : List.of("conf", "logs", "data", "commitlog", "hints", "saved_caches", "cdc_raw"))
            Files.createDirectories(nodeDir.resolve(sub));
        Files.writeString(layout.cassandraYaml(node), cassandraYaml(node, state.nodes(), state.ports(), nodeDir,
                ClusterSecurity.load(layout.dir()), seed));
        Files.writeString(layout.logbackXml(node), logbackXml(layout.logDir(node)));
    }

    /**
     * One token per node, evenly spaced over the Murmur3 range starting at its minimum (as ccm does). Explicit
     * tokens with {@code num_tokens: 1} avoid the 30 s ring delay of token allocation on a fresh seed.
     */
    static List<Long> initialTokens(int nodes) {
        if (nodes < 1)
            throw new IllegalArgumentException("a cluster has at least one node, not " + nodes);
        BigInteger step = MURMUR3_RANGE.divide(BigInteger.valueOf(nodes));
        List<Long> tokens = new ArrayList<>(nodes);
        for (int i = 0; i < nodes; i++)
            tokens.add(MURMUR3_MIN.add(step.multiply(BigInteger.valueOf(i))).longValueExact());
        return tokens;
    }

    /** Node {@code node}'s cassandra.yaml; {@code nodeDir} holds its data, commit log, hints and caches. */
    static String cassandraYaml(int node, int nodes, Ports ports, Path nodeDir) {
        return cassandraYaml(node, nodes, ports, nodeDir, ClusterSecurity.NONE);
    }

    /** As above, with {@code security}'s authenticator and encryption options (keystores in the cluster directory). */
    static String cassandraYaml(int node, int nodes, Ports ports, Path nodeDir, ClusterSecurity security) {
        return cassandraYaml(node, nodes, ports, nodeDir, security, 1);
    }

    /**
     * As above, with node {@code seed} as the seed. Every node names node 1, except node 1 when it replaces itself: a
     * node in its own seed list never bootstraps, and Cassandra refuses a replacement that does not ("Replacing a node
     * without bootstrapping risks invalidating consistency guarantees"), so it names node 2.
     */
    static String cassandraYaml(int node, int nodes, Ports ports, Path nodeDir, ClusterSecurity security, int seed) {
        long token = initialTokens(nodes).get(node - 1);
        String address = ports.address(node);
        return String.join("\n",
                "# Written by bin/fastccs cluster for node " + node + " of " + nodes + ".",
                "cluster_name: '" + CLUSTER_NAME + "'",
                "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
                "endpoint_snitch: SimpleSnitch",
                "num_tokens: 1",
                "initial_token: " + token,
                "# Nodes of a new cluster own their ranges at once: no streaming, no 54 s join per node.",
                "auto_bootstrap: false",
                "seed_provider:",
                "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
                "    parameters:",
                "      - seeds: \"" + ports.address(seed) + ":" + ports.storage() + "\"",
                "listen_address: " + address,
                "rpc_address: " + address,
                "storage_port: " + ports.storage(),
                "native_transport_port: " + ports.cql(),
                "start_native_transport: true",
                "# An acknowledged write survives kill -9 (the fault tests rely on it): fsync before acknowledging.",
                "commitlog_sync: " + LocalCluster.DEFAULT_COMMITLOG_SYNC,
                "data_file_directories:",
                "  - " + quoted(nodeDir.resolve("data")),
                "commitlog_directory: " + quoted(nodeDir.resolve("commitlog")),
                "hints_directory: " + quoted(nodeDir.resolve("hints")),
                "saved_caches_directory: " + quoted(nodeDir.resolve("saved_caches")),
                "cdc_raw_directory: " + quoted(nodeDir.resolve("cdc_raw")),
                "# Several nodes share one small machine.",
                "memtable_heap_space: 64MiB",
                "memtable_offheap_space: 64MiB",
                "key_cache_size: 16MiB",
                "commitlog_total_space: 512MiB",
                "concurrent_compactors: 1",
                "# A fresh 5.0 cluster: no 4.x node will ever read these files.",
                "storage_compatibility_mode: NONE",
                "") + securityYaml(nodeDir, security);
    }

    private static String securityYaml(Path nodeDir, ClusterSecurity security) {
        List<String> lines = security.yamlLines(nodeDir.toAbsolutePath().normalize().getParent());
        return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    }

    /** INFO and above to {@code logs/system.log}; nothing to the console, so stdout.log keeps only JVM output. */
    static String logbackXml(Path logDir) {
        String systemLog = logDir.resolve("system.log").toString();
        return String.join("\n",
                "<configuration scan=\"false\">",
                "  <appender name=\"SYSTEMLOG\" class=\"ch.qos.logback.core.rolling.RollingFileAppender\">",
                "    <file>" + xmlEscaped(systemLog) + "</file>",
                "    <rollingPolicy class=\"ch.qos.logback.core.rolling.FixedWindowRollingPolicy\">",
                "      <fileNamePattern>" + xmlEscaped(systemLog) + ".%i.zip</fileNamePattern>",
                "      <minIndex>1</minIndex>",
                "      <maxIndex>5</maxIndex>",
                "    </rollingPolicy>",
                "    <triggeringPolicy class=\"ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy\">",
                "      <maxFileSize>50MB</maxFileSize>",
                "    </triggeringPolicy>",
                "    <encoder>",
                "      <pattern>%-5level [%thread] %date{ISO8601} %F:%L - %msg%n</pattern>",
                "    </encoder>",
                "  </appender>",
                "  <root level=\"INFO\">",
                "    <appender-ref ref=\"SYSTEMLOG\"/>",
                "  </root>",
                "</configuration>",
                "");
    }

    /** nodetool's own logging: warnings to stderr, so its output stays what nodetool prints. */
    static String toolsLogbackXml() {
        return String.join("\n",
                "<configuration scan=\"false\">",
                "  <appender name=\"STDERR\" class=\"ch.qos.logback.core.ConsoleAppender\">",
                "    <target>System.err</target>",
                "    <encoder><pattern>%-5level %msg%n</pattern></encoder>",
                "  </appender>",
                "  <root level=\"WARN\">",
                "    <appender-ref ref=\"STDERR\"/>",
                "  </root>",
                "</configuration>",
                "");
    }

    private static String quoted(Path path) {
        return "'" + path.toString().replace("'", "''") + "'";
    }

    private static String xmlEscaped(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
