package io.fastccs.tools.cluster;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real 3-node Cassandra 5.0 cluster without the plugin: start, status, nodetool, kill -9 of one node, restart.
 * Needs the server-patch module built (its node-classpath.txt); {@code -Dfastccs.nodeClasspath=FILE} uses
 * another classpath file. Runs on 127.0.51.1-3 (JMX 127.0.0.1:22500-22502).
 */
@Tag("integration")
class LocalClusterIT {
    private static final int NODES = 3;
    /** Its own subnet: a user's cluster on 127.0.0.k and the integration tests' on 127.0.50.k may be running. */
    private static final int SUBNET = 51;
    private static Path dir;
    private static LocalCluster cluster;
    private static boolean passed;

    @Test
    void threeNodesStartServeSurviveAKillAndRestart() throws IOException {
        dir = Files.createTempDirectory("local-cluster-it");
        cluster = LocalCluster.at(dir, line -> System.out.println("[cluster] " + line));
        StartOptions options = StartOptions.nodes(NODES).onSubnet(SUBNET).withPlugin(false);
        String classpathOverride = System.getProperty("fastccs.nodeClasspath");
        if (classpathOverride != null)
            options = options.withNodeClasspathFile(Path.of(classpathOverride));

        LocalCluster.StartReport started = cluster.start(options);
        System.out.printf("[measured] 3-node cluster serving CQL after %.1f s, ring converged after %.1f s%n",
                seconds(started.toServing()), seconds(started.toRing()));

        List<NodeStatus> status = cluster.status();
        assertThat(status).hasSize(NODES).allSatisfy(node -> {
            assertThat(node.serving()).as("node %d serving", node.node()).isTrue();
            assertThat(node.fastccs()).isEqualTo(NodeStatus.FastCcs.OFF);
            assertThat(node.liveNodesSeen()).as("live nodes node %d sees", node.node()).isEqualTo(NODES);
        });
        status.forEach(node -> System.out.printf("[measured] node %d RSS %d MiB%n", node.node(), node.rssBytes() >> 20));
        System.out.printf("[measured] total RSS %d MiB%n", status.stream().mapToLong(NodeStatus::rssBytes).sum() >> 20);
        assertThat(ClusterCommand.commandLine().execute("status", "--dir", dir.toString())).as("CLI status exit code").isZero();

        assertThat(nodetoolStatusLines(1)).as("nodetool status right after start")
                .containsExactlyInAnyOrder("UN 127.0.51.1", "UN 127.0.51.2", "UN 127.0.51.3");

        cluster.kill(2);
        NodeStatus killed = cluster.status().get(1);
        assertThat(killed.processAlive()).isFalse();
        assertThat(killed.cqlUp()).isFalse();
        assertThat(cluster.status()).filteredOn(node -> node.node() != 2).allMatch(NodeStatus::serving);
        Instant killedAt = Instant.now();
        await("node 1 to see node 2 down", () -> cluster.status().get(0).liveNodesSeen(), seen -> seen == NODES - 1);
        System.out.printf("[measured] node 1's gossip saw node 2 down %.1f s after the kill%n", seconds(Duration.between(killedAt, Instant.now())));
        assertThat(nodetoolStatusLines(1)).contains("DN 127.0.51.2");

        LocalCluster.StartReport restarted = cluster.restart(2);
        System.out.printf("[measured] node 2 serving again %.1f s after restart, seen by all after %.1f s%n",
                seconds(restarted.toServing()), seconds(restarted.toRing()));
        assertThat(cluster.status()).allSatisfy(node -> {
            assertThat(node.serving()).as("node %d serving after the restart", node.node()).isTrue();
            assertThat(node.liveNodesSeen()).isEqualTo(NODES);
        });
        assertThat(nodetoolStatusLines(1)).containsExactlyInAnyOrder("UN 127.0.51.1", "UN 127.0.51.2", "UN 127.0.51.3");
        passed = true;
    }

    @AfterAll
    static void stopEverything() throws IOException {
        if (cluster == null || !cluster.exists())
            return;
        Instant stopping = Instant.now();
        List<LocalCluster.Stopped> stopped = cluster.stop();
        System.out.printf("[measured] stop: %s in %.1f s%n", stopped, seconds(Duration.between(stopping, Instant.now())));
        assertThat(cluster.status()).noneMatch(NodeStatus::processAlive);
        if (passed)
            cluster.remove();
        else
            System.out.println("[cluster] logs kept in " + dir);
    }

    /** "UN 127.0.0.1"-style status and address of each node in {@code nodetool status}. */
    private static List<String> nodetoolStatusLines(int node) {
        LocalCluster.NodetoolResult result = cluster.nodetool(node, "status");
        assertThat(result.exitCode()).as("nodetool status exit code; output:%n%s", result.output()).isZero();
        return Arrays.stream(result.output().split("\n"))
                .filter(line -> line.matches("^[UD][NLJM] +127\\.0\\.\\d+\\.\\d+ .*"))
                .map(line -> line.substring(0, 2) + " " + line.substring(2).trim().split(" +")[0])
                .toList();
    }

    private static <T> void await(String what, Supplier<T> probe, Predicate<T> done) {
        Instant deadline = Instant.now().plusSeconds(90);
        T last = probe.get();
        while (!done.test(last)) {
            assertThat(Instant.now()).as("waiting for %s, last seen %s", what, last).isBefore(deadline);
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
            last = probe.get();
        }
    }

    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }
}
