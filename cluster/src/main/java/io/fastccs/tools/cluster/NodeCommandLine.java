package io.fastccs.tools.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The java command lines of a node and of nodetool. */
final class NodeCommandLine {
    static final String DAEMON_CLASS = "org.apache.cassandra.service.CassandraDaemon";
    static final String NODETOOL_CLASS = "org.apache.cassandra.tools.NodeTool";
    /** Without it Cassandra ignores every {@code -Dcassandra.settings.NAME} override of its yaml. */
    static final String ALLOW_SYSTEM_PROPERTIES = "-Dcassandra.config.allow_system_properties=true";

    /**
     * The module flags Cassandra 5.0 needs on JDK 17: its own {@code conf/jvm17-server.options} plus the two
     * exports from {@code jvm11-server.options} without which it does not boot.
     */
    static final List<String> JDK17_FLAGS = List.of(
            "-Djdk.attach.allowAttachSelf=true",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-exports", "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
            "--add-exports", "java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports", "java.rmi/sun.rmi.server=ALL-UNNAMED",
            "--add-exports", "java.sql/java.sql=ALL-UNNAMED",
            "--add-exports", "java.base/java.lang.ref=ALL-UNNAMED",
            "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
            "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-exports", "jdk.attach/sun.tools.attach=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.module=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.loader=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.reflect=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.math=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.module=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.util.jar=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.io=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens", "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/java.util=ALL-UNNAMED",
            "-Dio.netty.tryReflectionSetAccessible=true",
            "-Dio.netty.allocator.useCacheForAllThreads=true",
            "-Dio.netty.allocator.maxOrder=11");

    private NodeCommandLine() {
    }

    /** Starts node {@code node} of the cluster described by {@code state}. */
    static List<String> node(ClusterState state, ClusterLayout layout, int node, String classpath) {
        List<String> cmd = new ArrayList<>();
        cmd.add(state.java().toString());
        cmd.add("-Xms" + state.heapMin());
        cmd.add("-Xmx" + state.heapMax());
        // From Cassandra's jvm-server.options: assertions, small thread stacks, G1, no shared perf-data file.
        cmd.addAll(List.of("-ea", "-Xss256k", "-XX:+UseG1GC", "-XX:+ParallelRefProcEnabled",
                "-XX:+PerfDisableSharedMem", "-Djava.net.preferIPv4Stack=true"));
        cmd.add("-XX:ErrorFile=" + layout.logDir(node).resolve("hs_err_%p.log"));
        cmd.addAll(JDK17_FLAGS);
        cmd.add("-Dcassandra-foreground=yes");
        cmd.add("-Dcassandra.config=" + layout.configUrl(node));
        cmd.add("-Dcassandra.storagedir=" + layout.nodeDir(node));
        cmd.add("-Dcassandra.logdir=" + layout.logDir(node));
        cmd.add("-Dlogback.configurationFile=" + layout.logbackXml(node));
        cmd.add("-Dcassandra.jmx.local.port=" + state.ports().jmx(node));
        cmd.add("-Dcassandra.skip_wait_for_gossip_to_settle=0");
        cmd.addAll(security(layout).jvmOptions(state.nodes()));
        if (state.replacing(node)) cmd.addAll(replacingItself(state.ports().address(node)));
        // cassandra.yaml settings, through Cassandra's own override, which it reads only when allowed to; with or
        // without the plugin.
        Map<String, String> cassandraSettings = new LinkedHashMap<>();
        state.nodeSettings().forEach((name, value) -> {
            if (name.startsWith(LocalCluster.CASSANDRA_SETTING_PREFIX)) cassandraSettings.put(name, value);
        });
        if (!cassandraSettings.isEmpty() && !state.replacing(node)) cmd.add(ALLOW_SYSTEM_PROPERTIES);
        cassandraSettings.forEach((name, value) -> cmd.add("-D" + name + "=" + value));
        if (state.plugin()) {
            cmd.add("-javaagent:" + state.agentJar());
            cmd.add("-Dfastccs.port=" + state.ports().fastccs());
            cmd.add("-Dfastccs.partitions=" + state.nodes()); // serve as soon as the whole ring is known
            state.nodeSettings().forEach((name, value) -> {
                if (!name.startsWith(LocalCluster.CASSANDRA_SETTING_PREFIX)) cmd.add("-Dfastccs." + name + "=" + value);
            });
        }
        cmd.add("-cp");
        // The conf directory first, as Cassandra's scripts do: it finds optional files there by classpath.
        cmd.add(layout.confDir(node) + ":" + classpath);
        cmd.add(DAEMON_CLASS);
        return cmd;
    }

    /**
     * A node whose disk was wiped takes its own place in the ring again, as a Cassandra operator replaces a dead node
     * at the same address: it bootstraps (streams what Cassandra's own replicated keyspaces held; the cluster's yaml
     * says auto_bootstrap: false, which only a new cluster's nodes may skip) and keeps its host id. Cassandra ignores
     * the request once the node has bootstrapped.
     */
    static List<String> replacingItself(String address) {
        return List.of("-Dcassandra.replace_address_first_boot=" + address,
                ALLOW_SYSTEM_PROPERTIES, "-Dcassandra.settings.auto_bootstrap=true");
    }

    /** The cluster's security settings ({@link ClusterSecurity#NONE} if it has none or they cannot be read). */
    private static ClusterSecurity security(ClusterLayout layout) {
        try {
            return ClusterSecurity.load(layout.dir());
        } catch (java.io.IOException e) {
            return ClusterSecurity.NONE;
        }
    }

    /** Runs nodetool against node {@code node}'s JMX port. */
    static List<String> nodetool(ClusterState state, ClusterLayout layout, int node, String classpath, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(state.java().toString());
        // As Cassandra's nodetool script: a short-lived client, small heap, quick start.
        cmd.addAll(List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(JDK17_FLAGS);
        cmd.add("-Duser.home=" + layout.nodetoolHome());
        cmd.add("-Dlogback.configurationFile=" + layout.toolsLogbackXml());
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(NODETOOL_CLASS);
        cmd.addAll(List.of("-h", "127.0.0.1", "-p", Integer.toString(state.ports().jmx(node))));
        cmd.addAll(args);
        return cmd;
    }
}
