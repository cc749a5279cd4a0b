package io.fastccs.tools.cluster;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class NodeCommandLineTest {
    private static final ClusterLayout LAYOUT = new ClusterLayout(Path.of("/c"));
    private static final Path JAVA = Path.of("/jdk17/bin/java");
    private static final Path AGENT = Path.of("/build/agent.jar");

    @Test
    void nodeWithThePluginLoadsTheAgentAndNamesItsPort() {
        List<String> cmd = NodeCommandLine.node(state(true), LAYOUT, 2, "/a.jar:/b.jar");

        assertThat(cmd).contains("-javaagent:/build/agent.jar", "-Dfastccs.port=9142");
    }

    @Test
    void aNodeReplacingItselfNamesItsOwnAddressAndBootstrapsOnlyUntilItHasServed() {
        ClusterState state = new ClusterState(3, Ports.forSubnet(62), true, "256M", "768M", JAVA, Path.of("/cp"), AGENT,
                Map.of(), Map.of()).withReplacing(2, true);

        assertThat(NodeCommandLine.node(state, LAYOUT, 2, "/a.jar")).contains("-Dcassandra.replace_address_first_boot=127.0.62.2",
                "-Dcassandra.config.allow_system_properties=true", "-Dcassandra.settings.auto_bootstrap=true");
        assertThat(String.join(" ", NodeCommandLine.node(state, LAYOUT, 1, "/a.jar"))).doesNotContain("replace_address");
        assertThat(String.join(" ", NodeCommandLine.node(state.withReplacing(2, false), LAYOUT, 2, "/a.jar")))
                .doesNotContain("replace_address").doesNotContain("auto_bootstrap");
    }

    @Test
    void cassandraSettingsReachCassandraWithOrWithoutThePlugin() {
        for (boolean plugin : new boolean[] {true, false}) {
            ClusterState state = new ClusterState(3, Ports.DEFAULT, plugin, "256M", "768M", JAVA, Path.of("/build/node-classpath.txt"),
                    Path.of("/build/agent.jar"), Map.of(), Map.of("cassandra.settings.commitlog_sync", "periodic"));
            List<String> cmd = NodeCommandLine.node(state, LAYOUT, 1, "/a.jar");
            // Cassandra reads -Dcassandra.settings.* only when this is set too (found in session 15: without it the
            // option did nothing).
            assertThat(cmd).contains("-Dcassandra.config.allow_system_properties=true", "-Dcassandra.settings.commitlog_sync=periodic");
            assertThat(String.join(" ", cmd)).doesNotContain("fastccs.cassandra.settings");
        }
    }

    @Test
    void nodeSettingsBecomeFastCcsSystemProperties() {
        ClusterState state = new ClusterState(3, Ports.DEFAULT, true, "256M", "768M", JAVA, Path.of("/build/node-classpath.txt"),
                Path.of("/build/agent.jar"), Map.of(), Map.of("startup_timeout", "1s"));
        assertThat(NodeCommandLine.node(state, LAYOUT, 1, "/a.jar")).contains("-Dfastccs.startup_timeout=1s");
    }

    @Test
    void aNodeSettingNamedWithItsPrefixIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StartOptions.nodes(1).withNodeSettings(Map.of("fastccs.port", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without fastccs.");
    }

    @Test
    void nodeWithoutThePluginIsPlainCassandra() {
        List<String> cmd = NodeCommandLine.node(state(false), LAYOUT, 2, "/a.jar:/b.jar");

        assertThat(cmd).noneMatch(arg -> arg.startsWith("-javaagent") || arg.startsWith("-Dfastccs"));
    }

    @Test
    void nodeCommandLineHasHeapPortsPathsAndTheJdk17Flags() {
        List<String> cmd = NodeCommandLine.node(state(false), LAYOUT, 3, "/a.jar:/b.jar");

        assertThat(cmd.get(0)).isEqualTo("/jdk17/bin/java");
        assertThat(cmd).contains("-Xms256M", "-Xmx768M", "-Dcassandra-foreground=yes",
                "-Dcassandra.config=file:///c/node3/conf/cassandra.yaml", "-Dcassandra.jmx.local.port=7202",
                "-Dcassandra.skip_wait_for_gossip_to_settle=0", "-Dcassandra.storagedir=/c/node3",
                "-Dlogback.configurationFile=/c/node3/conf/logback.xml",
                "-Djdk.attach.allowAttachSelf=true", "-Dio.netty.tryReflectionSetAccessible=true");
        // The five without which Cassandra 5.0 does not boot on JDK 17.
        assertThat(String.join(" ", cmd)).contains("--add-exports java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-exports java.base/jdk.internal.ref=ALL-UNNAMED", "--add-exports java.rmi/sun.rmi.registry=ALL-UNNAMED",
                "--add-opens java.base/java.io=ALL-UNNAMED", "--add-opens java.base/sun.nio.ch=ALL-UNNAMED");
        assertThat(cmd.get(cmd.indexOf("-cp") + 1)).isEqualTo("/c/node3/conf:/a.jar:/b.jar");
        assertThat(cmd.get(cmd.size() - 1)).isEqualTo(NodeCommandLine.DAEMON_CLASS);
    }

    @Test
    void nodetoolTalksToTheNodesJmxPortWithAWritableHome() {
        List<String> cmd = NodeCommandLine.nodetool(state(false), LAYOUT, 2, "/a.jar", List.of("status", "-r"));

        assertThat(cmd).contains("-Duser.home=/c/nodetool-home", "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED");
        assertThat(cmd.subList(cmd.indexOf(NodeCommandLine.NODETOOL_CLASS), cmd.size()))
                .containsExactly(NodeCommandLine.NODETOOL_CLASS, "-h", "127.0.0.1", "-p", "7201", "status", "-r");
    }

    private static ClusterState state(boolean plugin) {
        return new ClusterState(3, Ports.DEFAULT, plugin, "256M", "768M", JAVA, Path.of("/build/node-classpath.txt"),
                plugin ? AGENT : null, Map.of());
    }
}
