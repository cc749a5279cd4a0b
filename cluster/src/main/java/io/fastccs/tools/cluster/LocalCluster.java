package io.fastccs.tools.cluster;

import io.fastccs.core.primitives.Protocol;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * A local Cassandra 5.0 cluster in one directory, node k on 127.0.S.k (S the subnet, 0 by default), each node a JVM started from the Maven
 * jars listed in the server-patch module's {@code node-classpath.txt}, optionally with the FastCCS agent.
 *
 * <p>Every operation reads the state file first and writes it after, so separate processes (CLI invocations,
 * a test and a CLI) can work on the same cluster one after the other. Only processes this tool started are ever
 * signalled: a recorded pid counts only while its command line is this node's Cassandra.
 */
public final class LocalCluster {
    /** When {@link #start} or {@link #restart} returns: the nodes serve and see each other. */
    public record StartReport(List<Integer> nodes, Duration toServing, Duration toRing) {
    }

    /** How a node went down on {@link #stop}. */
    public record Stopped(int node, long pid, Duration took, boolean killed) {
    }

    /** What nodetool printed (stdout and stderr together) and its exit code. */
    public record NodetoolResult(int exitCode, String output) {
    }

    private final ClusterLayout layout;
    private final StateFile stateFile;
    private final Consumer<String> progress;
    /** Nodes this object launched: their exit codes explain a failed start. */
    private final Map<Integer, Process> launched = new HashMap<>();
    private final NodeProcesses processes;
    private final NodeDiagnosis diagnosis;
    private final Readiness readiness;
    private final Nodetool nodetool;
    private final NodeSignals signals;
    private final NodeReplacement replacement;

    private LocalCluster(Path dir, Consumer<String> progress) {
        this.layout = new ClusterLayout(dir);
        this.stateFile = new StateFile(layout);
        this.progress = progress;
        this.processes = new NodeProcesses(layout);
        this.diagnosis = new NodeDiagnosis(dir, new NodeLogs(layout), processes, launched);
        this.readiness = new Readiness(dir, progress, processes, diagnosis);
        this.nodetool = new Nodetool(layout);
        this.signals = new NodeSignals(layout, stateFile, processes, progress);
        this.replacement = new NodeReplacement(layout, stateFile, processes, signals, this::restart, progress);
    }

    /** The node setting naming the replicas per partition (the plugin's {@code replication_factor}). */
    public static final String REPLICATION_FACTOR = "replication_factor";
    /**
     * Node settings under this prefix are {@code cassandra.yaml} settings, not FastCCS's: they reach the nodes as
     * {@code -Dcassandra.settings.NAME=VALUE}, Cassandra's own override of its yaml (e.g. commitlog_sync).
     */
    public static final String CASSANDRA_SETTING_PREFIX = "cassandra.settings.";
    /** The commit log's sync mode the tool writes into every node's cassandra.yaml (a Cassandra setting overrides it). */
    public static final String DEFAULT_COMMITLOG_SYNC = "batch";
    /** The node setting naming the consistency protocol (the plugin's {@code protocol}). */
    public static final String PROTOCOL = "protocol";

    /** A new cluster's replicas per partition: three once there are three nodes to hold them, else one. */
    public static int defaultReplicationFactor(int nodes) {
        return nodes >= 3 ? 3 : 1;
    }

    /** The cluster in {@code dir}, which need not exist yet; progress messages are dropped. */
    public static LocalCluster at(Path dir) {
        return new LocalCluster(dir, message -> { });
    }

    /** The cluster in {@code dir}; {@code progress} receives one line per step (node launched, node serving...). */
    public static LocalCluster at(Path dir, Consumer<String> progress) {
        return new LocalCluster(dir, progress);
    }

    public Path dir() {
        return layout.dir();
    }

    /** Whether the directory holds a cluster (its state file). */
    public boolean exists() {
        return stateFile.exists();
    }

    public int nodeCount() {
        return state().nodes();
    }

    public boolean pluginEnabled() {
        return state().plugin();
    }

    public Ports ports() {
        return state().ports();
    }

    /** The FastCCS settings every node runs with, by name (as given to {@link StartOptions#withNodeSettings}). */
    public Map<String, String> nodeSettings() {
        return state().nodeSettings();
    }

    /** The consistency protocols its nodes run (the node setting {@code protocol}; FastCCS when unset). */
    public List<Protocol> protocols() {
        return state().protocols();
    }

    /**
     * The protocols a {@code protocol} setting names (one word or several, comma-separated; null: FastCCS).
     *
     * @throws IllegalArgumentException for a word that names no protocol
     */
    public static List<Protocol> protocols(String setting) {
        if (setting == null) return List.of(Protocol.FASTCCS);
        List<Protocol> out = new ArrayList<>();
        for (String word : setting.split(",", -1)) {
            Protocol p = Protocol.parse(word);
            if (!out.contains(p)) out.add(p);
        }
        return List.copyOf(out);
    }

    /** Its replicas per partition. */
    public int replicationFactor() {
        return state().replicationFactor();
    }

    public Path systemLog(int node) {
        return layout.systemLog(node);
    }

    // ---------------------------------------------------------------- defaults located from the repository

    /**
     * The repository root: {@code -Dfastccs.root}, else the first directory above this class's jar (or the
     * working directory) that holds a pom.xml and a server-patch module.
     */
    public static Optional<Path> repoRoot() {
        return RepositoryFiles.repoRoot();
    }

    /** {@code <repo>/.cluster}. */
    public static Path defaultDir() {
        return RepositoryFiles.defaultDir();
    }

    public static Path defaultNodeClasspathFile() {
        return RepositoryFiles.defaultNodeClasspathFile();
    }

    /** The server-patch module's agent jar, whatever the project version; the expected name when none is built. */
    public static Path defaultAgentJar() {
        return RepositoryFiles.defaultAgentJar();
    }

    // ---------------------------------------------------------------- start

    /**
     * Starts every node in parallel and waits until each serves (CQL, and the FastCCS handshake with the plugin)
     * and sees all the others live, and with replicated partitions until every group is led by its preferred member
     * (at most {@link Readiness#LEADERSHIP_SETTLING}). Creates the cluster if the directory holds none; a stopped cluster with the
     * same node count starts again on its data, with the heap and plugin setting given now.
     *
     * @throws ClusterException naming the node and showing the end of its logs if a node dies or the wait times
     *                          out; nodes already started keep running (stop them with {@link #stop})
     */
    public StartReport start(StartOptions options) {
        Path classpathFile = absolute(options.nodeClasspathFile() != null ? options.nodeClasspathFile() : defaultNodeClasspathFile());
        String classpath = RepositoryFiles.readNodeClasspath(classpathFile);
        Path agentJar = null;
        if (options.plugin()) {
            agentJar = absolute(options.agentJar() != null ? options.agentJar() : defaultAgentJar());
            if (!Files.isRegularFile(agentJar))
                throw new ClusterException("the FastCCS agent " + agentJar + " is missing: run mvn -B -DskipTests package "
                        + "first, or start without the plugin (--no-plugin)");
        }
        Path java = JavaRuntimes.checked(options.java() != null ? options.java() : JavaRuntimes.find());

        int subnet = options.subnet() == StartOptions.SAME_SUBNET ? 0 : options.subnet();
        Set<Integer> replacing = Set.of();
        if (exists()) {
            ClusterState previous = state();
            replacing = previous.replacing();
            if (options.subnet() == StartOptions.SAME_SUBNET)
                subnet = previous.ports().subnet();
            else if (options.subnet() != previous.ports().subnet())
                throw new ClusterException(dir() + " holds a cluster on subnet " + previous.ports().subnet() + " (127.0."
                        + previous.ports().subnet() + ".k), not " + options.subnet() + "; its data names those addresses");
            List<Integer> running = processes.running(previous);
            if (!running.isEmpty())
                throw new ClusterException("the cluster in " + dir() + " is already running (nodes " + running
                        + "); stop it first");
            if (previous.nodes() != options.nodes())
                throw new ClusterException(dir() + " holds a " + previous.nodes() + "-node cluster, not "
                        + options.nodes() + "; remove it first or use another directory");
            options = keptSettings(previous, options, dir());
        } else if (Files.isDirectory(dir()) && !isEmptyDirectory(dir())) {
            throw new ClusterException(dir() + " exists and is not a cluster directory (no " + ClusterState.FILE_NAME
                    + "); pick another directory");
        }

        ClusterState state = new ClusterState(options.nodes(), Ports.forSubnet(subnet), options.plugin(), options.heapMin(),
                options.heapMax(), java, classpathFile, agentJar, Map.of(), options.nodeSettings(), replacing);
        List<Integer> nodes = IntStream.rangeClosed(1, state.nodes()).boxed().toList();
        for (int node : nodes)
            NodeProcesses.checkPortsFree(state, node);
        try {
            Files.createDirectories(dir());
            Files.createDirectories(layout.nodetoolHome());
            Files.writeString(layout.toolsLogbackXml(), NodeConfigFiles.toolsLogbackXml());
            if (options.security().enabled()) {
                options.security().save(dir());
                if (options.security().tls())
                    ClusterSecurity.generateStores(dir(), java, nodes.stream().map(state.ports()::address).toList());
            }
            for (int node : nodes)
                NodeConfigFiles.write(layout, state, node, 1);
            save(state);
        } catch (IOException e) {
            throw new ClusterException("cannot write the cluster configuration in " + dir() + ": " + e.getMessage(), e);
        }

        progress.accept(String.format("starting %d node%s in %s (plugin %s, heap %s..%s, %s)", state.nodes(),
                state.nodes() == 1 ? "" : "s", dir(), state.plugin() ? "on: " + agentJar.getFileName() : "off",
                state.heapMin(), state.heapMax(), java));
        Instant launchedAt = Instant.now();
        for (int node : nodes)
            state = launch(state, node, classpath);
        StartReport report = readiness.awaitUp(state, nodes, launchedAt, launchedAt.plus(options.timeout()));
        readiness.awaitLeaderships(state, launchedAt, launchedAt.plus(options.timeout()));
        return served(report);
    }

    /**
     * A stopped cluster starts again with the node settings it ran with (its protocols, Cassandra settings and FastCCS
     * settings), each overridden by the same setting given again, as a user restarting a cluster expects (a cluster of
     * all four protocols must not come back running FastCCS alone). The replication factor cannot change: it decides where the cluster's FastCCS data lives (the replicated
     * tables or the local groups' logs), so starting it at another would hide that data.
     */
    static StartOptions keptSettings(ClusterState previous, StartOptions options, Path dir) {
        String had = Integer.toString(previous.replicationFactor());
        String asked = options.nodeSettings().get(REPLICATION_FACTOR);
        if (asked != null && !asked.equals(had))
            throw new ClusterException(dir + " holds a cluster at replication factor " + had + ", not " + asked
                    + "; its data lives where that factor put it. Start it without --rf, or remove it first");
        Map<String, String> kept = new TreeMap<>(previous.nodeSettings());
        kept.putAll(options.nodeSettings());
        kept.put(REPLICATION_FACTOR, had);
        return options.withNodeSettings(kept);
    }

    /** Starts node {@code node} again with its existing configuration and data, and waits as {@link #start} does. */
    public StartReport restart(int node, Duration timeout) {
        ClusterState state = state();
        state.requireNode(node);
        if (processes.isNode(node, state.pid(node)))
            throw new ClusterException("node " + node + " is running (pid " + state.pid(node) + "); kill or stop it first");
        if (!Files.isRegularFile(layout.cassandraYaml(node)))
            throw new ClusterException("node " + node + " has no configuration in " + layout.confDir(node));
        String classpath = RepositoryFiles.readNodeClasspath(state.nodeClasspathFile());
        if (state.plugin() && !Files.isRegularFile(state.agentJar()))
            throw new ClusterException("the FastCCS agent " + state.agentJar() + " is missing: run mvn -B -DskipTests package first (bin/fastccs builds by itself)");
        NodeProcesses.checkPortsFree(state, node);
        Instant launchedAt = Instant.now();
        state = launch(state.withoutPid(node), node, classpath);
        return served(readiness.awaitUp(state, List.of(node), launchedAt, launchedAt.plus(timeout)));
    }

    public StartReport restart(int node) {
        return restart(node, StartOptions.DEFAULT_TIMEOUT);
    }

    /**
     * Node {@code node} lost its disk and comes back as a replacement of itself, as a Cassandra operator replaces a
     * dead node at the same address: SIGKILL if it runs, its data, commit log, saved caches, hints, CDC and consensus
     * storage deleted (configuration and logs kept), then started with {@code replace_address_first_boot} naming its
     * own address; returns once it serves, as {@link #restart} does. With replicated partitions its groups take it
     * back under a new member id and catch it up (docs/design/replication-replacement.md, "The change, in two steps"). The cluster remembers the replacement
     * until the node has served, so a restart before that replaces again and one after it does not.
     *
     * @throws ClusterException at replication factor 1, where the node holds the only copy of its partition, or on a
     *                          one-node cluster, where nothing is left to replace it from
     */
    public StartReport replace(int node, Duration timeout) {
        return replacement.replace(node, timeout);
    }

    /** The nodes in {@code report} served: those that were replacing themselves start normally from now on. */
    private StartReport served(StartReport report) {
        ClusterState state = state();
        ClusterState updated = state;
        for (int node : report.nodes()) updated = updated.withReplacing(node, false);
        if (!updated.equals(state)) save(updated);
        return report;
    }

    private ClusterState launch(ClusterState state, int node, String classpath) {
        List<String> command = NodeCommandLine.node(state, layout, node, classpath);
        try {
            Files.createDirectories(layout.logDir(node));
            String shown = String.join(" ", command).replace(classpath, "<" + state.nodeClasspathFile() + ">");
            Files.writeString(layout.stdoutLog(node), NodeLogs.LAUNCH_MARKER + Instant.now() + " node " + node + ": " + shown + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            Process process = new ProcessBuilder(command)
                    .directory(layout.nodeDir(node).toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(layout.stdoutLog(node).toFile()))
                    .start();
            launched.put(node, process);
            ClusterState updated = state.withPid(node, process.pid());
            Files.writeString(layout.pidFile(node), process.pid() + "\n");
            save(updated);
            progress.accept(String.format("node %d  %-11s pid %-7d CQL %s:%d  JMX 127.0.0.1:%d%s", node,
                    state.ports().address(node), process.pid(), state.ports().address(node), state.ports().cql(), state.ports().jmx(node),
                    state.plugin() ? "  FastCCS " + state.ports().address(node) + ":" + state.ports().fastccs() : ""));
            return updated;
        } catch (IOException e) {
            throw new ClusterException("cannot start node " + node + ": " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- status, stop, kill

    /** Each node's process, ports, memory and view of the ring. */
    public List<NodeStatus> status() {
        ClusterState state = state();
        List<NodeStatus> statuses = new ArrayList<>();
        for (int node = 1; node <= state.nodes(); node++) {
            String address = state.ports().address(node);
            long pid = state.pid(node);
            boolean alive = processes.isNode(node, pid);
            boolean cql = alive && NodeProcesses.accepting(address, state.ports().cql());
            NodeStatus.FastCcs fastccs = !state.plugin() ? NodeStatus.FastCcs.OFF
                    : alive && FastCcsHandshake.probe(address, state.ports().fastccs(), Readiness.PROBE_TIMEOUT, state.protocol()).ok()
                    ? NodeStatus.FastCcs.UP : NodeStatus.FastCcs.DOWN;
            String pluginProblem = null;
            if (fastccs == NodeStatus.FastCcs.DOWN && alive) {
                var health = RingProbe.pluginHealth(state.ports().jmx(node)).filter(RingProbe.PluginHealth::failed);
                if (health.isPresent()) {
                    fastccs = NodeStatus.FastCcs.FAILED;
                    pluginProblem = health.get().reason();
                }
            }
            long rss = alive ? NodeProcesses.residentBytes(pid) : -1;
            int liveSeen = alive ? RingProbe.view(state.ports().jmx(node)).map(v -> v.liveNodes().size()).orElse(-1) : -1;
            statuses.add(new NodeStatus(node, address, pid, alive, cql, fastccs, rss, liveSeen, pluginProblem));
        }
        return statuses;
    }

    /** SIGTERM to every running node, SIGKILL to those still up {@code NodeSignals.STOP_GRACE} (30 s) later. */
    public List<Stopped> stop() {
        return signals.stopAll();
    }

    /** SIGKILL to node {@code node}, as a crash would; returns once it is gone. */
    public void kill(int node) {
        signals.kill(node);
    }

    /**
     * SIGSTOP to node {@code node} (only a pid this cluster recorded for that node): the process freezes, its sockets
     * stay open, as in a long GC pause or a hung VM. {@link #resume} continues it.
     */
    public void pause(int node) {
        signals.signal(node, "STOP");
        progress.accept("paused node " + node + " (SIGSTOP)");
    }

    /** SIGCONT to node {@code node}, paused by {@link #pause}. */
    public void resume(int node) {
        signals.signal(node, "CONT");
        progress.accept("resumed node " + node + " (SIGCONT)");
    }

    /**
     * Starts the given stopped nodes again all at once (as after a power cut of the whole cluster) and waits until
     * every one serves, as {@link #start} does.
     */
    public StartReport restartAll(List<Integer> nodes, Duration timeout) {
        ClusterState state = state();
        for (int node : nodes) {
            state.requireNode(node);
            if (processes.isNode(node, state.pid(node)))
                throw new ClusterException("node " + node + " is running (pid " + state.pid(node) + "); kill or stop it first");
            NodeProcesses.checkPortsFree(state, node);
        }
        String classpath = RepositoryFiles.readNodeClasspath(state.nodeClasspathFile());
        if (state.plugin() && !Files.isRegularFile(state.agentJar()))
            throw new ClusterException("the FastCCS agent " + state.agentJar() + " is missing: run mvn -B -DskipTests package first (bin/fastccs builds by itself)");
        Instant launchedAt = Instant.now();
        for (int node : nodes)
            state = launch(state.withoutPid(node), node, classpath);
        return served(readiness.awaitUp(state, nodes, launchedAt, launchedAt.plus(timeout)));
    }

    /** Stops the cluster and deletes its directory. Refuses a directory that is not a cluster's. */
    public void remove() {
        if (!Files.exists(dir())) {
            progress.accept("nothing to remove: " + dir() + " does not exist");
            return;
        }
        if (!exists())
            throw new ClusterException(dir() + " is not a cluster directory (no " + ClusterState.FILE_NAME + "); not deleting it");
        stop();
        try (Stream<Path> paths = Files.walk(dir())) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList())
                Files.delete(p);
        } catch (IOException | UncheckedIOException e) {
            throw new ClusterException("cannot delete " + dir() + ": " + e.getMessage(), e);
        }
        progress.accept("removed " + dir());
    }

    // ---------------------------------------------------------------- nodetool

    /** Starts nodetool against node {@code node}; with {@code inheritIO} its output goes to this process's. */
    public Process startNodetool(int node, List<String> args, boolean inheritIO) {
        ClusterState state = state();
        state.requireNode(node);
        return nodetool.start(state, node, args, inheritIO);
    }

    /** Runs nodetool against node {@code node} and collects its output. */
    public NodetoolResult nodetool(int node, String... args) {
        ClusterState state = state();
        state.requireNode(node);
        return nodetool.run(state, node, args);
    }

    /** The end of the node's stdout.log (latest launch only) and system.log, for error messages. */
    String logTails(int node) {
        return diagnosis.logTails(node);
    }

    /** What the plugin logged in system.log (lines naming FastCCS and the stack traces under them). */
    String pluginLogLines(int node) {
        return diagnosis.pluginLogLines(node);
    }

    // ---------------------------------------------------------------- helpers

    private ClusterState state() {
        return stateFile.read();
    }

    private void save(ClusterState state) {
        stateFile.write(state);
    }

    private static boolean isEmptyDirectory(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    private static Path absolute(Path path) {
        return path.toAbsolutePath().normalize();
    }

}
