package io.fastccs.tools.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What LocalCluster refuses or reports without starting any node. */
class LocalClusterTest {
    @TempDir
    Path tmp;

    @Test
    void aMissingNodeClasspathSaysToBuildFirst() {
        StartOptions options = StartOptions.nodes(1).withPlugin(false).withNodeClasspathFile(tmp.resolve("none.txt"));

        assertThatThrownBy(() -> LocalCluster.at(tmp.resolve("c")).start(options))
                .isInstanceOf(ClusterException.class).hasMessageContaining("run mvn -B -DskipTests package first");
    }

    @Test
    void aMissingAgentSaysToBuildFirstOrGoWithoutThePlugin() throws IOException {
        StartOptions options = StartOptions.nodes(1).withNodeClasspathFile(classpathFile())
                .withAgentJar(tmp.resolve("agent.jar"));

        assertThatThrownBy(() -> LocalCluster.at(tmp.resolve("c")).start(options))
                .isInstanceOf(ClusterException.class).hasMessageContaining("run mvn -B -DskipTests package")
                .hasMessageContaining("--no-plugin");
    }

    @Test
    void aJarMissingFromTheClasspathIsNamed() throws IOException {
        Path file = tmp.resolve("cp.txt");
        Files.writeString(file, tmp.resolve("gone.jar").toString());
        StartOptions options = StartOptions.nodes(1).withPlugin(false).withNodeClasspathFile(file);

        assertThatThrownBy(() -> LocalCluster.at(tmp.resolve("c")).start(options)).hasMessageContaining("gone.jar");
    }

    @Test
    void aJdkOtherThan11Or17IsRefused() throws IOException {
        Path jdk = tmp.resolve("jdk25");
        Files.createDirectories(jdk.resolve("bin"));
        Path java = Files.createFile(jdk.resolve("bin/java"));
        java.toFile().setExecutable(true);
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
        StartOptions options = StartOptions.nodes(1).withPlugin(false).withNodeClasspathFile(classpathFile()).withJava(java);

        assertThatThrownBy(() -> LocalCluster.at(tmp.resolve("c")).start(options)).hasMessageContaining("is JDK 25");
    }

    @Test
    void aDirectoryThatIsNotAClusterIsNeitherUsedNorDeleted() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("precious"));
        Files.writeString(dir.resolve("notes.txt"), "keep me");
        StartOptions options = StartOptions.nodes(1).withPlugin(false).withNodeClasspathFile(classpathFile());

        assertThatThrownBy(() -> LocalCluster.at(dir).start(options)).hasMessageContaining("not a cluster directory");
        assertThatThrownBy(() -> LocalCluster.at(dir).remove()).hasMessageContaining("not deleting");
        assertThat(dir.resolve("notes.txt")).exists();
    }

    @Test
    void aStoppedClusterStartsAgainOnItsOwnSubnetAndRefusesAnother() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("on-subnet-5"));
        Path classpath = classpathFile();
        new ClusterState(2, Ports.forSubnet(5), false, "256M", "768M", Path.of("/j"), classpath, null, java.util.Map.of())
                .save(dir.resolve(ClusterState.FILE_NAME));
        LocalCluster cluster = LocalCluster.at(dir);
        assertThat(cluster.ports().address(2)).isEqualTo("127.0.5.2");

        StartOptions elsewhere = StartOptions.nodes(2).onSubnet(7).withPlugin(false).withNodeClasspathFile(classpath);
        assertThatThrownBy(() -> cluster.start(elsewhere)).isInstanceOf(ClusterException.class)
                .hasMessageContaining("subnet 5 (127.0.5.k), not 7");
        assertThat(StartOptions.nodes(2).subnet()).as("no subnet given: the cluster's own").isEqualTo(StartOptions.SAME_SUBNET);
    }

    @Test
    void aStoppedReplicatedClusterRefusesAnotherReplicationFactor() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("replicated"));
        Path classpath = classpathFile();
        new ClusterState(3, Ports.forSubnet(5), false, "256M", "768M", Path.of("/j"), classpath, null, java.util.Map.of(),
                java.util.Map.of(LocalCluster.REPLICATION_FACTOR, "3")).save(dir.resolve(ClusterState.FILE_NAME));

        StartOptions atOne = StartOptions.nodes(3).withPlugin(false).withNodeClasspathFile(classpath)
                .withNodeSettings(java.util.Map.of(LocalCluster.REPLICATION_FACTOR, "1"));
        assertThatThrownBy(() -> LocalCluster.at(dir).start(atOne)).isInstanceOf(ClusterException.class)
                .hasMessageContaining("replication factor 3, not 1");
    }

    @Test
    void aStoppedClusterStartsAgainWithItsSettingsUnlessGivenAgain() {
        ClusterState previous = new ClusterState(3, Ports.forSubnet(5), true, "256M", "768M", Path.of("/j"), Path.of("/cp"),
                Path.of("/a.jar"), java.util.Map.of(), java.util.Map.of(LocalCluster.REPLICATION_FACTOR, "1",
                LocalCluster.PROTOCOL, "fastccs,eiger,wren,eventual", "cassandra.settings.commitlog_sync", "periodic",
                "transaction_timeout", "2s"));

        StartOptions plain = LocalCluster.keptSettings(previous, StartOptions.nodes(3), tmp);
        assertThat(plain.nodeSettings()).containsEntry(LocalCluster.PROTOCOL, "fastccs,eiger,wren,eventual")
                .containsEntry("cassandra.settings.commitlog_sync", "periodic").containsEntry("transaction_timeout", "2s")
                .containsEntry(LocalCluster.REPLICATION_FACTOR, "1");

        StartOptions changed = LocalCluster.keptSettings(previous, StartOptions.nodes(3).withNodeSettings(java.util.Map.of(
                "cassandra.settings.commitlog_sync", "batch", LocalCluster.PROTOCOL, "fastccs")), tmp);
        assertThat(changed.nodeSettings()).containsEntry(LocalCluster.PROTOCOL, "fastccs")
                .containsEntry("cassandra.settings.commitlog_sync", "batch").containsEntry("transaction_timeout", "2s");
    }

    @Test
    void aReplacementIsRefusedAtReplicationFactorOneWhereTheNodeHoldsTheOnlyCopy() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("single-copy"));
        new ClusterState(3, Ports.forSubnet(5), true, "256M", "768M", Path.of("/j"), classpathFile(), Path.of("/agent.jar"),
                java.util.Map.of(), java.util.Map.of(LocalCluster.REPLICATION_FACTOR, "1")).save(dir.resolve(ClusterState.FILE_NAME));
        Files.createDirectories(dir.resolve("node2/data/keep"));

        assertThatThrownBy(() -> LocalCluster.at(dir).replace(2, java.time.Duration.ofSeconds(1)))
                .isInstanceOf(ClusterException.class).hasMessageContaining("only copy");
        assertThat(dir.resolve("node2/data/keep")).as("nothing deleted").isDirectory();
        assertThatThrownBy(() -> LocalCluster.at(dir).replace(4, java.time.Duration.ofSeconds(1))).hasMessageContaining("no node 4");
    }

    @Test
    void operationsOnNoClusterSaySo() {
        LocalCluster cluster = LocalCluster.at(tmp.resolve("none"));

        assertThat(cluster.exists()).isFalse();
        assertThatThrownBy(cluster::status).hasMessageContaining("no cluster in");
        assertThatThrownBy(() -> cluster.kill(1)).hasMessageContaining("no cluster in");
    }

    @Test
    void theRepositoryRootIsFoundFromTheBuildOutput() {
        assertThat(LocalCluster.repoRoot()).hasValueSatisfying(root -> {
            assertThat(root.resolve("server-patch")).isDirectory();
            assertThat(root.resolve("cluster/pom.xml")).isRegularFile();
            assertThat(LocalCluster.defaultDir()).isEqualTo(root.resolve(".cluster"));
            assertThat(LocalCluster.defaultNodeClasspathFile()).isEqualTo(root.resolve("server-patch/target/node-classpath.txt"));
            assertThat(LocalCluster.defaultAgentJar().getParent()).isEqualTo(root.resolve("server-patch/target"));
            assertThat(LocalCluster.defaultAgentJar().getFileName().toString()).startsWith("fastccs-server-patch-").endsWith("-agent.jar");
        });
    }

    @Test
    void pluginLinesAreTheEntriesNamingFastCcsWithTheirStackTraces() throws IOException {
        Path logs = Files.createDirectories(tmp.resolve("c/node1/logs"));
        Files.writeString(logs.resolve("system.log"), String.join("\n",
                "INFO  [main] 2026-01-01 00:00:00,000 YamlConfigurationLoader.java:103 - Configuration location: file:/x/fastccs",
                "INFO  [main] 2026-01-01 00:00:01,000 Config.java:1371 - Node configuration:[cluster_name=fastccs]",
                "INFO  [main] 2026-01-01 00:00:02,000 ColumnFamilyStore.java:502 - Initializing /tmp/fastccs-it/system.local",
                "ERROR [fastccs-starter] 2026-01-01 00:00:03,000 FastCcsAgent.java:40 - FastCCS failed to start",
                "java.lang.ClassNotFoundException: io.fastccs.server.Missing",
                "\tat io.fastccs.server.FastCcsAgent.start(FastCcsAgent.java:37)",
                "INFO  [main] 2026-01-01 00:00:04,000 StorageService.java:1 - Node is NORMAL",
                ""));

        String lines = LocalCluster.at(tmp.resolve("c")).pluginLogLines(1);

        assertThat(lines).contains("FastCCS failed to start", "ClassNotFoundException", "FastCcsAgent.java:37")
                .doesNotContain("Configuration location", "Node configuration", "Initializing", "NORMAL");
    }

    @Test
    void logTailsShowTheLatestLaunchOnly() throws IOException {
        Path logs = Files.createDirectories(tmp.resolve("c/node1/logs"));
        Files.writeString(logs.resolve("stdout.log"), String.join("\n",
                "---- fastccs cluster: launch one", "old failure", "---- fastccs cluster: launch two", "new failure", ""));

        String tails = LocalCluster.at(tmp.resolve("c")).logTails(1);

        assertThat(tails).contains("new failure").doesNotContain("old failure");
    }

    /** A classpath file naming one jar that exists. */
    private Path classpathFile() throws IOException {
        Path jar = Files.writeString(tmp.resolve("some.jar"), "");
        return Files.writeString(tmp.resolve("cp-ok.txt"), jar.toString());
    }
}
