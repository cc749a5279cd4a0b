package io.fastccs.it;

import io.fastccs.core.ring.TokenRing;
import io.fastccs.tools.cluster.LocalCluster;
import io.fastccs.tools.cluster.Ports;
import io.fastccs.tools.cluster.StartOptions;
import io.fastccs.testkit.ClusterView;
import io.fastccs.testkit.RawClient;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The one real cluster of a test class: {@value #NODES} Cassandra 5.0 nodes with the FastCCS plugin, node k on
 * 127.0.{@value #SUBNET_DEFAULT}.k (see {@link #SUBNET}), in a temporary directory. Knows which partition each node is (partition indices follow token order,
 * not node numbers). {@link #close()} stops every node it started and deletes the directory, keeping the nodes'
 * logs under {@code fastccs.it.logDir}.
 */
final class TestCluster implements AutoCloseable {
    static final int NODES = 3;
    static final Duration POLL_OTHER_CLUSTER = Duration.ofSeconds(30);
    static final Duration WAIT_OTHER_CLUSTER = Duration.ofMinutes(20);
    /** Its own loopback subnet, so a user's cluster on 127.0.0.k (or another tool's) can keep running. */
    static final int SUBNET_DEFAULT = 50;
    static final int SUBNET = Integer.getInteger("fastccs.it.subnet", SUBNET_DEFAULT);
    static final Ports PORTS = Ports.forSubnet(SUBNET);

    private final LocalCluster cluster;
    private final Thread shutdownHook;
    private final LocalCluster.StartReport startReport;
    private final ClusterView view;
    private boolean closed;

    private TestCluster(LocalCluster cluster, Thread shutdownHook, LocalCluster.StartReport startReport) throws IOException {
        this.cluster = cluster;
        this.shutdownHook = shutdownHook;
        this.startReport = startReport;
        this.view = ClusterView.discover(PORTS, NODES);
    }

    /**
     * Waits until no other cluster holds this subnet's addresses and ports, then starts the cluster. On failure the nodes already started are stopped and the directory removed.
     */
    static TestCluster start() throws IOException, InterruptedException {
        ClassPin.pinProjectClasses();
        awaitSubnetFree();
        Path dir = Files.createTempDirectory("fastccs-it-");
        LocalCluster cluster = LocalCluster.at(dir, line -> log("[cluster] " + line));
        Thread hook = new Thread(() -> stopQuietly(cluster), "fastccs-it-cluster-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            LocalCluster.StartReport report = cluster.start(StartOptions.nodes(NODES).onSubnet(SUBNET).withTimeout(Duration.ofMinutes(4)));
            log(String.format("cluster of %d nodes serving %.1f s after launch, ring converged after %.1f s (%s)", NODES,
                    report.toServing().toMillis() / 1000.0, report.toRing().toMillis() / 1000.0, dir));
            return new TestCluster(cluster, hook, report);
        } catch (RuntimeException | IOException | Error e) {
            keepLogs(cluster);
            removeQuietly(cluster);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down already
            }
            throw e;
        }
    }

    /**
     * Polls every 30 s, up to 20 minutes, until the ports of this subnet are free: another test run (or a leftover
     * node) may hold them. Clusters on other subnets, such as a user's on 127.0.0.k, do not matter.
     */
    static void awaitSubnetFree() throws InterruptedException {
        Instant deadline = Instant.now().plus(WAIT_OTHER_CLUSTER);
        while (true) {
            List<String> held = heldPorts();
            if (held.isEmpty()) return;
            if (Instant.now().isAfter(deadline))
                throw new IllegalStateException("ports " + held + " are still held after " + WAIT_OTHER_CLUSTER.toMinutes()
                        + " minutes; another cluster runs on subnet " + SUBNET + " (-Dfastccs.it.subnet picks another)");
            log("waiting for " + held + " (another cluster on subnet " + SUBNET + ") to be released; checking again in "
                    + POLL_OTHER_CLUSTER.toSeconds() + " s");
            Thread.sleep(POLL_OTHER_CLUSTER.toMillis());
        }
    }

    private static List<String> heldPorts() {
        return heldPorts(PORTS, NODES);
    }

    /** The ports of nodes 1..{@code nodes} on {@code ports}' subnet that another process holds. */
    static List<String> heldPorts(Ports ports, int nodes) {
        List<String> held = new ArrayList<>();
        for (int node = 1; node <= nodes; node++) {
            for (var hostPort : List.of(new InetSocketAddress(ports.address(node), ports.storage()),
                    new InetSocketAddress(ports.address(node), ports.cql()), new InetSocketAddress(ports.address(node), ports.fastccs()),
                    new InetSocketAddress("127.0.0.1", ports.jmx(node)))) {
                try (ServerSocket socket = new ServerSocket()) {
                    socket.setReuseAddress(true);
                    socket.bind(hostPort);
                } catch (IOException e) {
                    held.add(hostPort.getHostString() + ":" + hostPort.getPort());
                }
            }
        }
        return held;
    }

    LocalCluster local() {
        return cluster;
    }

    LocalCluster.StartReport startReport() {
        return startReport;
    }

    TokenRing ring() {
        return view.ring();
    }

    /** The cluster as the nemesis tool's pieces (outcome queries, raw clients) see it. */
    ClusterView view() {
        return view;
    }

    static InetSocketAddress fastccsAddress(int node) {
        return new InetSocketAddress(PORTS.address(node), PORTS.fastccs());
    }

    static InetSocketAddress cqlAddress(int node) {
        return new InetSocketAddress(PORTS.address(node), PORTS.cql());
    }

    int partitionOfNode(int node) {
        return view.partitionOfNode(node);
    }

    int nodeOfPartition(int partition) {
        return view.nodeOfPartition(partition);
    }

    int ownerOf(String key) {
        return view.ownerOf(key);
    }

    /**
     * Starts polling node {@code node}'s FastCCS port (a handshake every 100 ms) and completes with the
     * {@link System#nanoTime()} of the first successful handshake, or exceptionally after {@code timeout}. The
     * plugin may serve before Cassandra's CQL port is up, which {@link LocalCluster#restart} also waits for.
     */
    static java.util.concurrent.CompletableFuture<Long> firstHandshake(int node, Duration timeout) {
        java.util.concurrent.CompletableFuture<Long> result = new java.util.concurrent.CompletableFuture<>();
        Thread t = new Thread(() -> {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() - deadline < 0) {
                try (RawClient c = RawClient.open(fastccsAddress(node), Duration.ofMillis(500))) {
                    result.complete(System.nanoTime());
                    return;
                } catch (IOException e) {
                    // not yet
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    result.completeExceptionally(e);
                    return;
                }
            }
            result.completeExceptionally(new IllegalStateException("node " + node + " did not answer a FastCCS handshake within " + timeout));
        }, "handshake-probe-" + node);
        t.setDaemon(true);
        t.start();
        return result;
    }

    RawClient connect(int node) throws IOException {
        return RawClient.open(fastccsAddress(node), Duration.ofSeconds(10));
    }

    /** Stops every node (by pid), keeps their logs and deletes the cluster directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        keepLogs(cluster);
        removeQuietly(cluster);
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException ignored) {
            // the JVM is shutting down: the hook runs anyway
        }
    }

    private static void stopQuietly(LocalCluster cluster) {
        try {
            if (cluster.exists()) cluster.stop();
        } catch (RuntimeException e) {
            System.err.println("could not stop the test cluster in " + cluster.dir() + ": " + e);
        }
    }

    private static void removeQuietly(LocalCluster cluster) {
        try {
            if (cluster.exists()) cluster.remove();
            else Files.deleteIfExists(cluster.dir());
        } catch (RuntimeException | IOException e) {
            System.err.println("could not remove the test cluster in " + cluster.dir() + ": " + e);
            stopQuietly(cluster);
        }
    }

    /** Copies every node's logs to {@code fastccs.it.logDir} (default target/cluster-logs), for post-mortems. */
    private static void keepLogs(LocalCluster cluster) {
        keepLogs(cluster, NODES, "");
    }

    /** Copies the logs of nodes 1..{@code nodes} to {@code fastccs.it.logDir}/{@code under}/node<i>k</i>. */
    static void keepLogs(LocalCluster cluster, int nodes, String under) {
        Path target = Path.of(System.getProperty("fastccs.it.logDir", "target/cluster-logs")).resolve(under);
        try {
            for (int node = 1; node <= nodes; node++) {
                Path logDir = cluster.systemLog(node).getParent();
                if (logDir == null || !Files.isDirectory(logDir)) continue;
                Path dest = target.resolve("node" + node);
                Files.createDirectories(dest);
                try (Stream<Path> logs = Files.list(logDir)) {
                    for (Path log : logs.filter(Files::isRegularFile).toList())
                        Files.copy(log, dest.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            log("node logs kept in " + target.toAbsolutePath());
        } catch (IOException | RuntimeException e) {
            System.err.println("could not keep the node logs: " + e);
        }
    }

    static void log(String line) {
        System.out.println("[it " + Instant.now() + "] " + line);
    }
}
