package io.fastccs.tools.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How {@link LocalCluster#start} launches a cluster. Paths left null take their defaults: the server-patch
 * module's build output, and a JDK 11 or 17.
 *
 * @param subnet  S in the nodes' addresses 127.0.S.k; {@link #SAME_SUBNET}: where the cluster was created, 0 for a new one
 * @param heapMin -Xms; Cassandra locks its heap in RAM, so this is about the RSS a node starts with
 * @param heapMax -Xmx
 * @param timeout how long to wait for every node to serve
 * @param security Cassandra's authentication and TLS settings (FastCCS follows them); NONE by default
 * @param nodeSettings FastCCS settings for every node, by name ({@code startup_timeout} becomes
 *                     {@code -Dfastccs.startup_timeout}); the plugin refuses a name it does not know
 */
public record StartOptions(int nodes, int subnet, boolean plugin, String heapMin, String heapMax, Path nodeClasspathFile,
                           Path agentJar, Path java, Duration timeout, ClusterSecurity security,
                           Map<String, String> nodeSettings) {
    public static final String DEFAULT_HEAP_MIN = "256M";
    public static final String DEFAULT_HEAP_MAX = "768M";
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);
    /** A stopped cluster starts again where it was created (its data names those addresses); a new one on 0. */
    public static final int SAME_SUBNET = -1;

    private static final Pattern SETTING_NAME = Pattern.compile("[a-z][a-z0-9_]*");
    private static final Pattern HEAP_SIZE = Pattern.compile("[1-9][0-9]*[mMgG]");

    public StartOptions {
        if (nodes < 1 || nodes > 254)
            throw new IllegalArgumentException("a local cluster has 1 to 254 nodes, not " + nodes);
        if (subnet != SAME_SUBNET)
            Ports.forSubnet(subnet); // checks it
        checkHeapSize(heapMin);
        checkHeapSize(heapMax);
        if (megabytes(heapMin) > megabytes(heapMax))
            throw new IllegalArgumentException("the minimum heap " + heapMin + " exceeds the maximum " + heapMax);
        if (timeout.isNegative() || timeout.isZero())
            throw new IllegalArgumentException("the timeout must be positive");
        if (security == null)
            security = ClusterSecurity.NONE;
        nodeSettings = nodeSettings == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(nodeSettings));
        for (String name : nodeSettings.keySet())
            if (!SETTING_NAME.matcher(name.startsWith(LocalCluster.CASSANDRA_SETTING_PREFIX)
                    ? name.substring(LocalCluster.CASSANDRA_SETTING_PREFIX.length()) : name).matches())
                throw new IllegalArgumentException("a node setting is named like startup_timeout (without fastccs.), not '" + name + "'");
    }

    /** {@code nodes} nodes with the plugin, default heap and paths. */
    public static StartOptions nodes(int nodes) {
        return new StartOptions(nodes, SAME_SUBNET, true, DEFAULT_HEAP_MIN, DEFAULT_HEAP_MAX, null, null, null, DEFAULT_TIMEOUT, ClusterSecurity.NONE, Map.of());
    }

    /** Nodes on 127.0.{@code s}.k, JMX ports moved accordingly: a second cluster beside one on subnet 0. */
    public StartOptions onSubnet(int s) {
        return new StartOptions(nodes, s, plugin, heapMin, heapMax, nodeClasspathFile, agentJar, java, timeout, security, nodeSettings);
    }

    public StartOptions withPlugin(boolean on) {
        return new StartOptions(nodes, subnet, on, heapMin, heapMax, nodeClasspathFile, agentJar, java, timeout, security, nodeSettings);
    }

    /** Sets -Xmx; -Xms stays at its default unless that is larger. */
    public StartOptions withHeap(String max) {
        checkHeapSize(max);
        String min = megabytes(DEFAULT_HEAP_MIN) <= megabytes(max) ? DEFAULT_HEAP_MIN : max;
        return new StartOptions(nodes, subnet, plugin, min, max, nodeClasspathFile, agentJar, java, timeout, security, nodeSettings);
    }

    public StartOptions withHeap(String min, String max) {
        return new StartOptions(nodes, subnet, plugin, min, max, nodeClasspathFile, agentJar, java, timeout, security, nodeSettings);
    }

    public StartOptions withNodeClasspathFile(Path file) {
        return new StartOptions(nodes, subnet, plugin, heapMin, heapMax, file, agentJar, java, timeout, security, nodeSettings);
    }

    public StartOptions withAgentJar(Path jar) {
        return new StartOptions(nodes, subnet, plugin, heapMin, heapMax, nodeClasspathFile, jar, java, timeout, security, nodeSettings);
    }

    public StartOptions withJava(Path javaExecutable) {
        return new StartOptions(nodes, subnet, plugin, heapMin, heapMax, nodeClasspathFile, agentJar, javaExecutable, timeout, security, nodeSettings);
    }

    public StartOptions withTimeout(Duration wait) {
        return new StartOptions(nodes, subnet, plugin, heapMin, heapMax, nodeClasspathFile, agentJar, java, wait, security, nodeSettings);
    }

    /** Cassandra's logins, permissions and TLS on the nodes; the FastCCS port follows them. */
    public StartOptions withSecurity(ClusterSecurity on) {
        return new StartOptions(nodes, subnet, plugin, heapMin, heapMax, nodeClasspathFile, agentJar, java, timeout, on, nodeSettings);
    }

    /** Adds FastCCS settings for every node (a later value for the same name wins). */
    public StartOptions withNodeSettings(Map<String, String> settings) {
        Map<String, String> merged = new TreeMap<>(nodeSettings);
        merged.putAll(settings);
        return new StartOptions(nodes, subnet, plugin, heapMin, heapMax, nodeClasspathFile, agentJar, java, timeout, security, merged);
    }

    private static void checkHeapSize(String size) {
        if (size == null || !HEAP_SIZE.matcher(size).matches())
            throw new IllegalArgumentException("a heap size is a number with M or G, like 768M, not " + size);
    }

    private static long megabytes(String size) {
        long n = Long.parseLong(size.substring(0, size.length() - 1));
        return Character.toUpperCase(size.charAt(size.length() - 1)) == 'G' ? n * 1024 : n;
    }
}
