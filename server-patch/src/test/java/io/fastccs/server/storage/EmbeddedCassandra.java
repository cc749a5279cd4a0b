package io.fastccs.server.storage;

import org.apache.cassandra.service.CassandraDaemon;
import org.apache.cassandra.service.StorageService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

/**
 * One real Cassandra 5.0 node inside the test JVM, started once per JVM (surefire runs each test class in a fresh
 * JVM, see the module's pom): Murmur3, one token, 127.0.0.1 on free ports, {@code commitlog_sync: batch}, data in
 * a directory under {@code target/}. Cassandra cannot be stopped and started again in one JVM, so there is no
 * stop: the node drains in its shutdown hook when the JVM exits. The FastCCS start-up hook is installed first,
 * as the agent does on a real node, so {@code fastccs_local} is registered before commit log replay.
 */
public final class EmbeddedCassandra {
    private static final Logger logger = LoggerFactory.getLogger(EmbeddedCassandra.class);
    private static Path startedIn;

    private EmbeddedCassandra() {
    }

    /** Starts a node with a new, empty data directory; returns the directory. */
    public static synchronized Path startFresh() throws IOException {
        if (startedIn != null) return startedIn;
        Path base = Paths.get("target", "embedded-cassandra").toAbsolutePath();
        Files.createDirectories(base);
        return start(Files.createTempDirectory(base, "node-"));
    }

    /**
     * Starts a node on {@code dir} (keeping whatever data it holds, as a restart would) unless this JVM runs one
     * already on the same directory. Returns once the node serves, in NORMAL mode.
     */
    public static synchronized Path start(Path dir) throws IOException {
        return start(dir, true);
    }

    /** As {@link #start(Path)}; without the FastCCS start-up hook when {@code installHook} is false. */
    public static synchronized Path start(Path dir, boolean installHook) throws IOException {
        dir = dir.toAbsolutePath();
        if (startedIn != null) {
            if (!startedIn.equals(dir)) throw new IllegalStateException("a node already runs in this JVM on " + startedIn);
            return dir;
        }
        long started = System.nanoTime();
        Files.createDirectories(dir);
        Path yaml = dir.resolve("cassandra.yaml");
        Files.writeString(yaml, config(dir, freePort(), freePort()));

        if (installHook) StorageStartupHook.install();
        System.setProperty("cassandra.config", yaml.toUri().toString());
        System.setProperty("cassandra.storagedir", dir.toString());
        System.setProperty("cassandra-foreground", "yes"); // otherwise the daemon closes System.out and System.err
        System.setProperty("cassandra.skip_wait_for_gossip_to_settle", "0");
        System.setProperty("cassandra.ring_delay_ms", "1000");
        System.setProperty("cassandra.superuser_setup_delay_ms", "0");

        new CassandraDaemon(true).activate(); // managed: a failure throws instead of System.exit
        if (!StorageService.instance.isJoined() || !"NORMAL".equals(StorageService.instance.getOperationMode()))
            throw new IllegalStateException("Cassandra started but is in mode " + StorageService.instance.getOperationMode());
        startedIn = dir;
        logger.info("Embedded Cassandra up on {} in {} ms", dir, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        return dir;
    }

    private static String config(Path dir, int storagePort, int nativePort) {
        return String.join("\n",
                "cluster_name: fastccs-storage-test",
                "num_tokens: 1",
                "initial_token: 0",
                "auto_bootstrap: false",
                "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
                "endpoint_snitch: SimpleSnitch",
                "seed_provider:",
                "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
                "    parameters:",
                "      - seeds: \"127.0.0.1:" + storagePort + "\"",
                "listen_address: 127.0.0.1",
                "rpc_address: 127.0.0.1",
                "storage_port: " + storagePort,
                "native_transport_port: " + nativePort,
                "start_native_transport: false",
                "commitlog_sync: batch",
                "commitlog_directory: " + dir.resolve("commitlog"),
                "data_file_directories:",
                "  - " + dir.resolve("data"),
                "local_system_data_file_directory: " + dir.resolve("system"),
                "saved_caches_directory: " + dir.resolve("saved_caches"),
                "hints_directory: " + dir.resolve("hints"),
                "cdc_raw_directory: " + dir.resolve("cdc_raw"),
                "disk_failure_policy: stop",
                "commit_failure_policy: stop",
                "key_cache_size: 8MiB",
                "memtable_heap_space: 128MiB",
                "memtable_offheap_space: 128MiB",
                "concurrent_compactors: 1",
                "");
    }

    /** A port free on 127.0.0.1 right now, so concurrent test runs on one machine do not clash. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
