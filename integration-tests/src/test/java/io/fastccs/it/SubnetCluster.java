package io.fastccs.it;

import io.fastccs.tools.cluster.LocalCluster;
import io.fastccs.tools.cluster.Ports;
import io.fastccs.tools.cluster.StartOptions;
import io.fastccs.testkit.ClusterView;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A real cluster of one test class on a loopback subnet of its own (127.0.S.k), in a temporary directory, seen
 * through the nemesis tool's {@link ClusterView}. {@link #close()} stops every node it started, keeps their logs
 * under {@code fastccs.it.logDir/NAME} and deletes the directory.
 */
final class SubnetCluster implements AutoCloseable {
    private final String name;
    private final LocalCluster local;
    private final ClusterView view;
    private final Thread hook;
    private boolean closed;

    private SubnetCluster(String name, LocalCluster local, ClusterView view, Thread hook) {
        this.name = name;
        this.local = local;
        this.view = view;
        this.hook = hook;
    }

    static SubnetCluster start(String name, int subnet, int nodes) throws IOException, InterruptedException {
        return start(name, subnet, nodes, java.util.Map.of());
    }

    /** @param nodeSettings FastCCS settings for every node, by name (as {@code cluster start --node-setting}) */
    static SubnetCluster start(String name, int subnet, int nodes, java.util.Map<String, String> nodeSettings)
            throws IOException, InterruptedException {
        ClassPin.pinProjectClasses();
        // These nodes restart often, all at once too: give the ring time to converge on a busy machine.
        if (System.getProperty("fastccs.cluster.pluginGraceSeconds") == null)
            System.setProperty("fastccs.cluster.pluginGraceSeconds", "240");
        Ports ports = Ports.forSubnet(subnet);
        awaitSubnetFree(ports, nodes);
        Path dir = Files.createTempDirectory("fastccs-it-" + name + "-");
        LocalCluster cluster = LocalCluster.at(dir, line -> TestCluster.log("[" + name + "] " + line));
        Thread hook = new Thread(() -> {
            try {
                if (cluster.exists()) cluster.stop();
            } catch (RuntimeException e) {
                System.err.println("could not stop the cluster in " + dir + ": " + e);
            }
        }, "fastccs-it-" + name + "-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            LocalCluster.StartReport report = cluster.start(StartOptions.nodes(nodes).onSubnet(subnet)
                    .withTimeout(Duration.ofMinutes(10)).withNodeSettings(nodeSettings));
            TestCluster.log(String.format("%s: %d nodes on 127.0.%d.k serving %.1f s after launch", name, nodes, subnet,
                    report.toServing().toMillis() / 1000.0));
            return new SubnetCluster(name, cluster, ClusterView.discover(ports, nodes), hook);
        } catch (RuntimeException | IOException | Error e) {
            new SubnetCluster(name, cluster, null, hook).close();
            throw e;
        }
    }

    LocalCluster local() {
        return local;
    }

    ClusterView view() {
        return view;
    }

    /**
     * Restarts node {@code node} after a kill, waiting while the SIGKILLed JVM's ports are still bound (for up to a
     * minute); returns once it serves.
     */
    LocalCluster.StartReport restartKilled(int node) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (true) {
            try {
                return local.restart(node);
            } catch (io.fastccs.tools.cluster.ClusterException e) {
                if (!String.valueOf(e.getMessage()).contains("in use") || System.nanoTime() - deadline > 0) throw e;
                Thread.sleep(1_000);
            }
        }
    }

    /** A client that knows every node as a contact point and reconnects quickly (failovers are what these tests do). */
    io.fastccs.client.FastCcsClient newClient() {
        io.fastccs.client.FastCcsClientBuilder b = io.fastccs.client.FastCcsClient.builder()
                .withReconnectDelay(Duration.ofMillis(100), Duration.ofSeconds(1));
        view.fastccsAddresses().forEach(b::addContactPoint);
        return b.build();
    }

    private static void awaitSubnetFree(Ports ports, int nodes) throws InterruptedException {
        Instant deadline = Instant.now().plus(TestCluster.WAIT_OTHER_CLUSTER);
        while (true) {
            List<String> held = TestCluster.heldPorts(ports, nodes);
            if (held.isEmpty()) return;
            if (Instant.now().isAfter(deadline))
                throw new IllegalStateException("ports " + held + " are still held: another cluster runs on subnet " + ports.subnet());
            TestCluster.log("waiting for " + held + " (another cluster on subnet " + ports.subnet() + ") to be released");
            Thread.sleep(TestCluster.POLL_OTHER_CLUSTER.toMillis());
        }
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        TestCluster.keepLogs(local, local.exists() ? local.nodeCount() : 0, name);
        try {
            if (local.exists()) local.remove();
            else Files.deleteIfExists(local.dir());
        } catch (RuntimeException | IOException e) {
            System.err.println("could not remove the cluster in " + local.dir() + ": " + e);
            try {
                if (local.exists()) local.stop();
            } catch (RuntimeException ignored) {
                // nothing more to do
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
            // shutting down
        }
    }
}
