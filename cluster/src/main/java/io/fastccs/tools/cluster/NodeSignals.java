package io.fastccs.tools.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * Signals a cluster's running nodes (stop, kill, pause, resume) and forgets the pids of those that are gone. Only a
 * pid the cluster recorded for the node is signalled, and only while its command line is that node's Cassandra.
 */
final class NodeSignals {
    static final Duration STOP_GRACE = Duration.ofSeconds(30);
    static final Duration KILL_WAIT = Duration.ofSeconds(10);

    private final ClusterLayout layout;
    private final StateFile stateFile;
    private final NodeProcesses processes;
    private final Consumer<String> progress;

    NodeSignals(ClusterLayout layout, StateFile stateFile, NodeProcesses processes, Consumer<String> progress) {
        this.layout = layout;
        this.stateFile = stateFile;
        this.processes = processes;
        this.progress = progress;
    }

    /** Stops every running node ({@link LocalCluster#stop}): SIGTERM, then SIGKILL after {@link #STOP_GRACE}. */
    List<LocalCluster.Stopped> stopAll() {
        ClusterState state = stateFile.read();
        Map<Integer, ProcessHandle> running = new LinkedHashMap<>();
        for (int node : processes.running(state))
            ProcessHandle.of(state.pid(node)).ifPresent(handle -> running.put(node, handle));
        Instant started = Instant.now();
        running.forEach((node, handle) -> {
            progress.accept("stopping node " + node + " (pid " + handle.pid() + ")");
            handle.destroy();
        });
        Map<Integer, Duration> stoppedAfter = new HashMap<>();
        awaitExit(running, stoppedAfter, started, started.plus(STOP_GRACE));
        Set<Integer> killed = new TreeSet<>();
        running.forEach((node, handle) -> {
            if (!stoppedAfter.containsKey(node)) {
                progress.accept("node " + node + " still up after " + STOP_GRACE.toSeconds() + " s: SIGKILL");
                handle.destroyForcibly();
                killed.add(node);
            }
        });
        awaitExit(running, stoppedAfter, started, Instant.now().plus(KILL_WAIT));
        List<LocalCluster.Stopped> result = new ArrayList<>();
        for (var entry : running.entrySet()) {
            int node = entry.getKey();
            if (!stoppedAfter.containsKey(node))
                throw new ClusterException("node " + node + " (pid " + entry.getValue().pid() + ") survived SIGKILL");
            result.add(new LocalCluster.Stopped(node, entry.getValue().pid(), stoppedAfter.get(node), killed.contains(node)));
        }
        forgetPids(IntStream.rangeClosed(1, state.nodes()).boxed().toList());
        return result;
    }

    /** SIGKILL to node {@code node} ({@link LocalCluster#kill}); returns once it is gone. */
    void kill(int node) {
        ClusterState state = stateFile.read();
        state.requireNode(node);
        long pid = state.pid(node);
        if (!processes.isNode(node, pid))
            throw new ClusterException("node " + node + " is not running");
        ProcessHandle handle = ProcessHandle.of(pid).orElseThrow(() -> new ClusterException("node " + node + " is not running"));
        handle.destroyForcibly();
        Map<Integer, Duration> gone = new HashMap<>();
        Instant now = Instant.now();
        awaitExit(Map.of(node, handle), gone, now, now.plus(KILL_WAIT));
        if (gone.isEmpty())
            throw new ClusterException("node " + node + " (pid " + pid + ") survived SIGKILL");
        forgetPids(List.of(node));
        progress.accept("killed node " + node + " (pid " + pid + ")");
    }

    /** Sends {@code signal} (a name {@code kill} knows: STOP, CONT) to running node {@code node}. */
    void signal(int node, String signal) {
        ClusterState state = stateFile.read();
        state.requireNode(node);
        long pid = state.pid(node);
        if (!processes.isNode(node, pid))
            throw new ClusterException("node " + node + " is not running");
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (kill.waitFor() != 0)
                throw new ClusterException("kill -" + signal + " " + pid + " (node " + node + ") failed: " + output);
        } catch (IOException e) {
            throw new ClusterException("cannot signal node " + node + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while signalling node " + node, e);
        }
    }

    private void awaitExit(Map<Integer, ProcessHandle> handles, Map<Integer, Duration> exitedAfter, Instant started,
                           Instant deadline) {
        while (true) {
            handles.forEach((node, handle) -> {
                if (!exitedAfter.containsKey(node) && !processes.isNode(node, handle.pid()))
                    exitedAfter.put(node, Duration.between(started, Instant.now()));
            });
            if (exitedAfter.size() == handles.size() || Instant.now().isAfter(deadline))
                return;
            Readiness.pause();
        }
    }

    private void forgetPids(List<Integer> nodes) {
        // Reread: the state file is the truth; other nodes' pids may have changed since this call began.
        ClusterState current = stateFile.read();
        for (int node : nodes) {
            if (processes.isNode(node, current.pid(node)))
                continue;
            current = current.withoutPid(node);
            try {
                Files.deleteIfExists(layout.pidFile(node));
            } catch (IOException e) {
                throw new ClusterException("cannot delete " + layout.pidFile(node) + ": " + e.getMessage(), e);
            }
        }
        stateFile.write(current);
    }
}
