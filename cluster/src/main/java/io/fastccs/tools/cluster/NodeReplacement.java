package io.fastccs.tools.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A node that lost its disk comes back as a replacement of itself, as a Cassandra operator replaces a dead node at the
 * same address (see {@link LocalCluster#replace}): killed, wiped, and started again with
 * {@code replace_address_first_boot}, the start repeated when Cassandra's gossip fails it before it joins.
 */
final class NodeReplacement {
    /**
     * Cassandra's startup errors of a replacement that has joined nothing yet, which a second start gets past: on the
     * loaded 2-core machine its gossip with the seed did not settle within the ring delay ("Unable to contact any
     * seeds", WipeReplaceIT with a load average above 30), or its shadow round ended on a partial reply (see
     * awaitSeenDown). The node is wiped again and started again, up to {@link #REPLACE_ATTEMPTS} starts in all.
     */
    private static final List<String> REPLACEMENT_GOSSIP_FAILURES =
            List.of("Unable to contact any seeds", "because it doesn't exist in gossip");
    private static final int REPLACE_ATTEMPTS = 3;
    /** How long a replacement waits for the ring to see the replaced node down (see awaitSeenDown). */
    private static final Duration SEEN_DOWN_WAIT = Duration.ofSeconds(60);
    /** The node setting naming where a node keeps its consensus storage (the plugin's {@code raft_directory}). */
    static final String RAFT_DIRECTORY = "raft_directory";

    /** Starts a stopped node again on its configuration and data, and waits until it serves. */
    @FunctionalInterface
    interface Restart {
        LocalCluster.StartReport restart(int node, Duration timeout);
    }

    private final ClusterLayout layout;
    private final StateFile stateFile;
    private final NodeProcesses processes;
    private final NodeSignals signals;
    private final Restart restart;
    private final Consumer<String> progress;

    NodeReplacement(ClusterLayout layout, StateFile stateFile, NodeProcesses processes, NodeSignals signals, Restart restart,
                    Consumer<String> progress) {
        this.layout = layout;
        this.stateFile = stateFile;
        this.processes = processes;
        this.signals = signals;
        this.restart = restart;
        this.progress = progress;
    }

    LocalCluster.StartReport replace(int node, Duration timeout) {
        ClusterState state = stateFile.read();
        state.requireNode(node);
        if (state.nodes() < 2)
            throw new ClusterException("a one-node cluster cannot replace its node: nothing is left to take the data from");
        if (state.plugin() && state.replicationFactor() < 2)
            throw new ClusterException("the cluster runs at replication factor 1: node " + node + " holds the only copy of "
                    + "its partition, and wiping it loses those writes (replace needs --rf 2 or more)");
        for (int attempt = 1; ; attempt++) {
            try {
                return replaceOnce(node, timeout);
            } catch (ClusterException e) {
                String why = String.valueOf(e.getMessage());
                Optional<String> gossip = REPLACEMENT_GOSSIP_FAILURES.stream().filter(why::contains).findFirst();
                if (attempt >= REPLACE_ATTEMPTS || gossip.isEmpty()) throw e;
                progress.accept("node " + node + "'s replacement stopped in Cassandra's startup before it joined (\""
                        + gossip.get() + "\"); wiping it and starting it again");
            }
        }
    }

    private LocalCluster.StartReport replaceOnce(int node, Duration timeout) {
        ClusterState state = stateFile.read();
        if (processes.isNode(node, state.pid(node))) signals.kill(node);
        progress.accept("wiping node " + node + ": " + String.join(", ", wipedDirs(state, node).stream().map(Path::toString).toList()));
        try {
            for (Path dir : wipedDirs(state, node)) deleteTree(dir);
            NodeConfigFiles.write(layout, state, node, node == 1 ? 2 : 1); // not its own seed, or it would not bootstrap
        } catch (IOException | UncheckedIOException e) {
            throw new ClusterException("cannot wipe node " + node + ": " + e.getMessage(), e);
        }
        stateFile.write(stateFile.read().withReplacing(node, true));
        awaitPortsReleased(state, node);
        awaitSeenDown(state, node);
        progress.accept("node " + node + " starts as a replacement of itself (replace_address_first_boot="
                + state.ports().address(node) + "; Cassandra bootstraps it)");
        return restart.restart(node, timeout);
    }

    /**
     * Cassandra replaces only a node the ring sees down, and a replacement started while the others still count the
     * killed process live can end its gossip shadow round on a regular reply from a node that is not a seed, which
     * lacks the replaced node's state ("Cannot replace_address ... because it doesn't exist in gossip"; seen when the
     * replacement followed the kill within seconds). So it waits until no running node's gossip sees the node live
     * (their failure detectors convict it within seconds), for up to {@link #SEEN_DOWN_WAIT}, then starts anyway.
     */
    private void awaitSeenDown(ClusterState state, int node) {
        String address = state.ports().address(node);
        Instant started = Instant.now();
        while (true) {
            List<Integer> seeing = new ArrayList<>();
            for (int other : processes.running(state))
                if (other != node && RingProbe.view(state.ports().jmx(other)).filter(v -> v.liveNodes().contains(address)).isPresent())
                    seeing.add(other);
            if (seeing.isEmpty()) return;
            if (Instant.now().isAfter(started.plus(SEEN_DOWN_WAIT))) {
                progress.accept("nodes " + seeing + " still see node " + node + " live after " + SEEN_DOWN_WAIT.toSeconds()
                        + " s; starting its replacement anyway");
                return;
            }
            Readiness.pause();
        }
    }

    /** A SIGKILLed JVM's ports stay bound for a moment after the process is gone. */
    private static void awaitPortsReleased(ClusterState state, int node) {
        Instant deadline = Instant.now().plus(NodeSignals.KILL_WAIT.multipliedBy(3));
        while (true) {
            try {
                NodeProcesses.checkPortsFree(state, node);
                return;
            } catch (ClusterException e) {
                if (Instant.now().isAfter(deadline)) throw e;
                Readiness.pause();
            }
        }
    }

    /** What a lost disk takes: everything of node {@code node} but its configuration and logs. */
    private List<Path> wipedDirs(ClusterState state, int node) {
        Path nodeDir = layout.nodeDir(node);
        List<Path> dirs = new ArrayList<>();
        for (String sub : List.of("data", "commitlog", "saved_caches", "hints", "cdc_raw")) dirs.add(nodeDir.resolve(sub));
        // The plugin's raft_directory, relative to the node's working directory; by default beside the data directory.
        String raft = state.nodeSettings().get(RAFT_DIRECTORY);
        dirs.add(raft == null ? nodeDir.resolve("fastccs-raft") : nodeDir.resolve(raft));
        return dirs;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
