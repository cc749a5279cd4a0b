package io.fastccs.tools.cluster;

import io.fastccs.protocol.primitives.Protocol;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
    static final Duration STOP_GRACE = Duration.ofSeconds(30);
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);
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
    private final Consumer<String> progress;
    /** Nodes this object launched: their exit codes explain a failed start. */
    private final Map<Integer, Process> launched = new HashMap<>();
    private final NodeProcesses processes;
    private final NodeDiagnosis diagnosis;
    private final Readiness readiness;
    private final Nodetool nodetool;

    private LocalCluster(Path dir, Consumer<String> progress) {
        this.layout = new ClusterLayout(dir);
        this.progress = progress;
        this.processes = new NodeProcesses(layout);
        this.diagnosis = new NodeDiagnosis(dir, new NodeLogs(layout), processes, launched);
        this.readiness = new Readiness(dir, progress, processes, diagnosis);
        this.nodetool = new Nodetool(layout);
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
    /** The node setting naming where a node keeps its consensus storage (the plugin's {@code raft_directory}). */
    static final String RAFT_DIRECTORY = "raft_directory";

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
        return Files.isRegularFile(layout.stateFile());
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
        String property = System.getProperty("fastccs.root");
        if (property != null)
            return Optional.of(Path.of(property).toAbsolutePath().normalize());
        List<Path> starts = new ArrayList<>();
        try {
            starts.add(Path.of(LocalCluster.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (Exception e) {
            // No code location (unusual class loader): the working directory is the only hint left.
        }
        starts.add(Path.of("").toAbsolutePath());
        for (Path start : starts)
            for (Path p = start.toAbsolutePath().normalize(); p != null; p = p.getParent())
                if (Files.isRegularFile(p.resolve("pom.xml")) && Files.isDirectory(p.resolve("server-patch")))
                    return Optional.of(p);
        return Optional.empty();
    }

    /** {@code <repo>/.cluster}. */
    public static Path defaultDir() {
        return requireRepoRoot("the cluster directory (give one with --dir)").resolve(".cluster");
    }

    public static Path defaultNodeClasspathFile() {
        return requireRepoRoot("the node classpath").resolve("server-patch/target/node-classpath.txt");
    }

    /** The server-patch module's agent jar, whatever the project version; the expected name when none is built. */
    public static Path defaultAgentJar() {
        Path target = requireRepoRoot("the agent jar").resolve("server-patch/target");
        try (Stream<Path> jars = Files.list(target)) {
            List<Path> agents = jars.filter(p -> p.getFileName().toString().matches("fastccs-server-patch-.*-agent\\.jar")).toList();
            if (agents.size() == 1)
                return agents.get(0);
        } catch (IOException e) {
            // Not built yet: start reports the expected path as missing.
        }
        return target.resolve("fastccs-server-patch-0.1.0-SNAPSHOT-agent.jar");
    }

    private static Path requireRepoRoot(String forWhat) {
        return repoRoot().orElseThrow(() -> new ClusterException("cannot find the FastCCS repository, which locates "
                + forWhat + "; run from inside it or pass -Dfastccs.root=DIR"));
    }

    // ---------------------------------------------------------------- start

    /**
     * Starts every node in parallel and waits until each serves (CQL, and the FastCCS handshake with the plugin)
     * and sees all the others live. Creates the cluster if the directory holds none; a stopped cluster with the
     * same node count starts again on its data, with the heap and plugin setting given now.
     *
     * @throws ClusterException naming the node and showing the end of its logs if a node dies or the wait times
     *                          out; nodes already started keep running (stop them with {@link #stop})
     */
    public StartReport start(StartOptions options) {
        Path classpathFile = absolute(options.nodeClasspathFile() != null ? options.nodeClasspathFile() : defaultNodeClasspathFile());
        String classpath = readNodeClasspath(classpathFile);
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
                writeNodeConfig(state, node);
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
        return served(readiness.awaitUp(state, nodes, launchedAt, launchedAt.plus(options.timeout())));
    }

    /**
     * A stopped cluster starts again with the node settings it ran with (its protocols, Cassandra settings and FastCCS
     * settings), each overridden by the same setting given again, as a user restarting a cluster expects (before
     * session 15 only the replication factor was kept, and a cluster of all four protocols came back running FastCCS
     * alone). The replication factor cannot change: it decides where the cluster's FastCCS data lives (the replicated
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
        checkNodeNumber(state, node);
        if (processes.isNode(node, state.pid(node)))
            throw new ClusterException("node " + node + " is running (pid " + state.pid(node) + "); kill or stop it first");
        if (!Files.isRegularFile(layout.cassandraYaml(node)))
            throw new ClusterException("node " + node + " has no configuration in " + layout.confDir(node));
        String classpath = readNodeClasspath(state.nodeClasspathFile());
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
     * back under a new member id and catch it up (docs/design.md, pitfall 5). The cluster remembers the replacement
     * until the node has served, so a restart before that replaces again and one after it does not.
     *
     * @throws ClusterException at replication factor 1, where the node holds the only copy of its partition, or on a
     *                          one-node cluster, where nothing is left to replace it from
     */
    public StartReport replace(int node, Duration timeout) {
        ClusterState state = state();
        checkNodeNumber(state, node);
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

    private StartReport replaceOnce(int node, Duration timeout) {
        ClusterState state = state();
        if (processes.isNode(node, state.pid(node))) kill(node);
        progress.accept("wiping node " + node + ": " + String.join(", ", wipedDirs(state, node).stream().map(Path::toString).toList()));
        try {
            for (Path dir : wipedDirs(state, node)) deleteTree(dir);
            writeNodeConfig(state, node, node == 1 ? 2 : 1); // not its own seed, or it would not bootstrap
        } catch (IOException | UncheckedIOException e) {
            throw new ClusterException("cannot wipe node " + node + ": " + e.getMessage(), e);
        }
        save(state().withReplacing(node, true));
        awaitPortsReleased(state, node);
        awaitSeenDown(state, node);
        progress.accept("node " + node + " starts as a replacement of itself (replace_address_first_boot="
                + state.ports().address(node) + "; Cassandra bootstraps it)");
        return restart(node, timeout);
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
        Instant deadline = Instant.now().plus(KILL_WAIT.multipliedBy(3));
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

    /** SIGTERM to every running node, SIGKILL to those still up {@link #STOP_GRACE} later. */
    public List<Stopped> stop() {
        ClusterState state = state();
        Map<Integer, ProcessHandle> running = new LinkedHashMap<>();
        for (int node : processes.running(state))
            ProcessHandle.of(state.pid(node)).ifPresent(handle -> running.put(node, handle));
        Instant started = Instant.now();
        running.forEach((node, handle) -> {
            progress.accept("stopping node " + node + " (pid " + handle.pid() + ")");
            handle.destroy();
        });
        Map<Integer, Duration> stoppedAfter = new HashMap<>();
        awaitExit(state, running, stoppedAfter, started, started.plus(STOP_GRACE));
        Set<Integer> killed = new TreeSet<>();
        running.forEach((node, handle) -> {
            if (!stoppedAfter.containsKey(node)) {
                progress.accept("node " + node + " still up after " + STOP_GRACE.toSeconds() + " s: SIGKILL");
                handle.destroyForcibly();
                killed.add(node);
            }
        });
        awaitExit(state, running, stoppedAfter, started, Instant.now().plus(KILL_WAIT));
        List<Stopped> result = new ArrayList<>();
        for (var entry : running.entrySet()) {
            int node = entry.getKey();
            if (!stoppedAfter.containsKey(node))
                throw new ClusterException("node " + node + " (pid " + entry.getValue().pid() + ") survived SIGKILL");
            result.add(new Stopped(node, entry.getValue().pid(), stoppedAfter.get(node), killed.contains(node)));
        }
        forgetPids(IntStream.rangeClosed(1, state.nodes()).boxed().toList());
        return result;
    }

    /** The pid of running node {@code node} (faults that act on its process: firewall rules by process). */
    public long pid(int node) {
        ClusterState state = state();
        checkNodeNumber(state, node);
        long pid = state.pid(node);
        if (!processes.isNode(node, pid)) throw new ClusterException("node " + node + " is not running");
        return pid;
    }

    /** SIGKILL to node {@code node}, as a crash would; returns once it is gone. */
    public void kill(int node) {
        ClusterState state = state();
        checkNodeNumber(state, node);
        long pid = state.pid(node);
        if (!processes.isNode(node, pid))
            throw new ClusterException("node " + node + " is not running");
        ProcessHandle handle = ProcessHandle.of(pid).orElseThrow(() -> new ClusterException("node " + node + " is not running"));
        handle.destroyForcibly();
        Map<Integer, Duration> gone = new HashMap<>();
        Instant now = Instant.now();
        awaitExit(state, Map.of(node, handle), gone, now, now.plus(KILL_WAIT));
        if (gone.isEmpty())
            throw new ClusterException("node " + node + " (pid " + pid + ") survived SIGKILL");
        forgetPids(List.of(node));
        progress.accept("killed node " + node + " (pid " + pid + ")");
    }

    /**
     * SIGSTOP to node {@code node} (only a pid this cluster recorded for that node): the process freezes, its sockets
     * stay open, as in a long GC pause or a hung VM. {@link #resume} continues it.
     */
    public void pause(int node) {
        signal(node, "STOP");
        progress.accept("paused node " + node + " (SIGSTOP)");
    }

    /** SIGCONT to node {@code node}, paused by {@link #pause}. */
    public void resume(int node) {
        signal(node, "CONT");
        progress.accept("resumed node " + node + " (SIGCONT)");
    }

    private void signal(int node, String signal) {
        ClusterState state = state();
        checkNodeNumber(state, node);
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

    /**
     * Starts the given stopped nodes again all at once (as after a power cut of the whole cluster) and waits until
     * every one serves, as {@link #start} does.
     */
    public StartReport restartAll(List<Integer> nodes, Duration timeout) {
        ClusterState state = state();
        for (int node : nodes) {
            checkNodeNumber(state, node);
            if (processes.isNode(node, state.pid(node)))
                throw new ClusterException("node " + node + " is running (pid " + state.pid(node) + "); kill or stop it first");
            NodeProcesses.checkPortsFree(state, node);
        }
        String classpath = readNodeClasspath(state.nodeClasspathFile());
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

    private void awaitExit(ClusterState state, Map<Integer, ProcessHandle> handles, Map<Integer, Duration> exitedAfter,
                           Instant started, Instant deadline) {
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
        ClusterState current = state();
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
        save(current);
    }

    // ---------------------------------------------------------------- nodetool

    /** Starts nodetool against node {@code node}; with {@code inheritIO} its output goes to this process's. */
    public Process startNodetool(int node, List<String> args, boolean inheritIO) {
        ClusterState state = state();
        checkNodeNumber(state, node);
        return nodetool.start(state, node, args, inheritIO);
    }

    /** Runs nodetool against node {@code node} and collects its output. */
    public NodetoolResult nodetool(int node, String... args) {
        ClusterState state = state();
        checkNodeNumber(state, node);
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
        if (!exists())
            throw new ClusterException("no cluster in " + dir() + " (start one with: bin/fastccs cluster start --nodes 3)");
        try {
            return ClusterState.load(layout.stateFile());
        } catch (IOException e) {
            throw new ClusterException("cannot read " + layout.stateFile() + ": " + e.getMessage(), e);
        }
    }

    private void save(ClusterState state) {
        try {
            state.save(layout.stateFile());
        } catch (IOException e) {
            throw new ClusterException("cannot write " + layout.stateFile() + ": " + e.getMessage(), e);
        }
    }

    private void writeNodeConfig(ClusterState state, int node) throws IOException {
        writeNodeConfig(state, node, 1);
    }

    private void writeNodeConfig(ClusterState state, int node, int seed) throws IOException {
        Path nodeDir = layout.nodeDir(node);
        for (String sub : List.of("conf", "logs", "data", "commitlog", "hints", "saved_caches", "cdc_raw"))
            Files.createDirectories(nodeDir.resolve(sub));
        Files.writeString(layout.cassandraYaml(node), NodeConfigFiles.cassandraYaml(node, state.nodes(), state.ports(), nodeDir,
                ClusterSecurity.load(dir()), seed));
        Files.writeString(layout.logbackXml(node), NodeConfigFiles.logbackXml(layout.logDir(node)));
    }

    static String readNodeClasspath(Path file) {
        if (!Files.isRegularFile(file))
            throw new ClusterException("the node classpath " + file + " is missing: run mvn -B -DskipTests package first (bin/fastccs builds by itself)");
        try {
            String classpath = Files.readString(file).trim();
            for (String jar : classpath.split(File.pathSeparator))
                if (!Files.exists(Path.of(jar)))
                    throw new ClusterException("the node classpath " + file + " names " + jar
                            + ", which is missing: run mvn -B -DskipTests package first (bin/fastccs builds by itself)");
            return classpath;
        } catch (IOException e) {
            throw new ClusterException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static void checkNodeNumber(ClusterState state, int node) {
        if (node < 1 || node > state.nodes())
            throw new ClusterException("no node " + node + ": the cluster has nodes 1 to " + state.nodes());
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
