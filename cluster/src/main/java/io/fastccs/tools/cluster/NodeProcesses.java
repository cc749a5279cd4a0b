package io.fastccs.tools.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Facts about a cluster's node processes and ports: which recorded pids are still this cluster's nodes (never a
 * reused pid or a zombie), their memory, whether a port accepts connections or is free for a node.
 */
final class NodeProcesses {
    private final ClusterLayout layout;

    NodeProcesses(ClusterLayout layout) {
        this.layout = layout;
    }

    List<Integer> running(ClusterState state) {
        return IntStream.rangeClosed(1, state.nodes()).filter(node -> isNode(node, state.pid(node))).boxed().toList();
    }

    /**
     * Whether {@code pid} is alive and is node {@code node} of this cluster: its command line runs Cassandra with
     * this node's config. A zombie or a reused pid is not.
     */
    boolean isNode(int node, long pid) {
        if (pid <= 0)
            return false;
        Path proc = Path.of("/proc", Long.toString(pid));
        if (!Files.isDirectory(Path.of("/proc/self")))
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false); // no procfs: trust the pid
        try {
            String commandLine = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
            if (!commandLine.contains(NodeCommandLine.DAEMON_CLASS)
                    || !commandLine.contains("-Dcassandra.config=" + layout.configUrl(node) + " "))
                return false;
            String stat = Files.readString(proc.resolve("stat"));
            char processState = stat.charAt(stat.lastIndexOf(')') + 2);
            return processState != 'Z' && processState != 'X';
        } catch (IOException | RuntimeException e) {
            return false; // gone while we looked
        }
    }

    /** VmRSS from /proc, -1 if unavailable. */
    static long residentBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:"))
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        } catch (IOException | NumberFormatException e) {
            // The process is gone or /proc is not Linux's.
        }
        return -1;
    }

    static boolean accepting(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Refuses to start a node whose ports another process holds (another cluster, a leftover node). */
    static void checkPortsFree(ClusterState state, int node) {
        String address = state.ports().address(node);
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put(address + ":" + state.ports().storage() + " (storage)", state.ports().storage());
        ports.put(address + ":" + state.ports().cql() + " (CQL)", state.ports().cql());
        if (state.plugin())
            ports.put(address + ":" + state.ports().fastccs() + " (FastCCS)", state.ports().fastccs());
        for (var port : ports.entrySet())
            checkPortFree(address, port.getValue(), port.getKey(), node);
        checkPortFree("127.0.0.1", state.ports().jmx(node), "127.0.0.1:" + state.ports().jmx(node) + " (JMX)", node);
    }

    private static void checkPortFree(String host, int port, String what, int node) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true); // sockets of a just-stopped node linger in TIME_WAIT; they do not count
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port));
        } catch (IOException e) {
            throw new ClusterException("cannot start node " + node + ": " + what + " is in use by another process "
                    + "(another local cluster? see pgrep -af CassandraDaemon)");
        }
    }
}
