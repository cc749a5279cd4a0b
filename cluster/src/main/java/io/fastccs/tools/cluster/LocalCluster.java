package io.fastccs.tools.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
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
    /** How long a node that serves CQL gets for its plugin to answer, before start reports the plugin broken. */
    static final Duration PLUGIN_GRACE = Duration.ofSeconds(30);
    /**
     * With Cassandra's security on, a node's ring (gossip over TLS) and auth setup take longer before the plugin
     * serves: on a loaded 2-core machine well over 30 s after CQL opens.
     */
    static final Duration SECURED_PLUGIN_GRACE = Duration.ofSeconds(120);
    static final Duration STOP_GRACE = Duration.ofSeconds(30);
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(250);
    /** How often a start that is still waiting says what it waits for. */
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

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
    private final NodeLogs logs;
    private final Consumer<String> progress;
    /** Nodes this object launched: their exit codes explain a failed start. */
    private final Map<Integer, Process> launched = new HashMap<>();

    private LocalCluster(Path dir, Consumer<String> progress) {
        this.layout = new ClusterLayout(dir);
        this.logs = new NodeLogs(layout);
        this.progress = progress;
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
        if (exists()) {
            ClusterState previous = state();
            if (options.subnet() == StartOptions.SAME_SUBNET)
                subnet = previous.ports().subnet();
            else if (options.subnet() != previous.ports().subnet())
                throw new ClusterException(dir() + " holds a cluster on subnet " + previous.ports().subnet() + " (127.0."
                        + previous.ports().subnet() + ".k), not " + options.subnet() + "; its data names those addresses");
            List<Integer> running = runningNodes(previous);
            if (!running.isEmpty())
                throw new ClusterException("the cluster in " + dir() + " is already running (nodes " + running
                        + "); stop it first");
            if (previous.nodes() != options.nodes())
                throw new ClusterException(dir() + " holds a " + previous.nodes() + "-node cluster, not "
                        + options.nodes() + "; remove it first or use another directory");
        } else if (Files.isDirectory(dir()) && !isEmptyDirectory(dir())) {
            throw new ClusterException(dir() + " exists and is not a cluster directory (no " + ClusterState.FILE_NAME
                    + "); pick another directory");
        }

        ClusterState state = new ClusterState(options.nodes(), Ports.forSubnet(subnet), options.plugin(), options.heapMin(),
                options.heapMax(), java, classpathFile, agentJar, Map.of());
        List<Integer> nodes = IntStream.rangeClosed(1, state.nodes()).boxed().toList();
        for (int node : nodes)
            checkPortsFree(state, node);
        try {
            Files.createDirectories(dir());
            Files.createDirectories(layout.nodetoolHome());
            Files.writeString(layout.toolsLogbackXml(), NodeConfigFiles.toolsLogbackXml());
            if (options.security().enabled()) {
                options.security().save(dir());
                if (options.security().tls()) ClusterSecurity.generateStores(dir(), java);
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
        return awaitUp(state, nodes, launchedAt, launchedAt.plus(options.timeout()));
    }

    /** Starts node {@code node} again with its existing configuration and data, and waits as {@link #start} does. */
    public StartReport restart(int node, Duration timeout) {
        ClusterState state = state();
        checkNodeNumber(state, node);
        if (isNodeProcess(node, state.pid(node)))
            throw new ClusterException("node " + node + " is running (pid " + state.pid(node) + "); kill or stop it first");
        if (!Files.isRegularFile(layout.cassandraYaml(node)))
            throw new ClusterException("node " + node + " has no configuration in " + layout.confDir(node));
        String classpath = readNodeClasspath(state.nodeClasspathFile());
        if (state.plugin() && !Files.isRegularFile(state.agentJar()))
            throw new ClusterException("the FastCCS agent " + state.agentJar() + " is missing: run mvn -B -DskipTests package first (bin/fastccs builds by itself)");
        checkPortsFree(state, node);
        Instant launchedAt = Instant.now();
        state = launch(state.withoutPid(node), node, classpath);
        return awaitUp(state, List.of(node), launchedAt, launchedAt.plus(timeout));
    }

    public StartReport restart(int node) {
        return restart(node, StartOptions.DEFAULT_TIMEOUT);
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

    private StartReport awaitUp(ClusterState state, List<Integer> nodes, Instant launchedAt, Instant deadline) {
        Duration toServing = awaitServing(state, nodes, launchedAt, deadline);
        Duration toRing = awaitRing(state, launchedAt, deadline);
        return new StartReport(nodes, toServing, toRing);
    }

    /**
     * How long a node may serve CQL before its plugin answers: {@link #PLUGIN_GRACE} ({@link #SECURED_PLUGIN_GRACE}
     * with security on), or the system property {@code fastccs.cluster.pluginGraceSeconds} (a heavily loaded
     * machine may need minutes to converge the ring).
     */
    private Duration pluginGrace() {
        Long configured = Long.getLong("fastccs.cluster.pluginGraceSeconds");
        if (configured != null) return Duration.ofSeconds(configured);
        try {
            return ClusterSecurity.load(dir()).enabled() ? SECURED_PLUGIN_GRACE : PLUGIN_GRACE;
        } catch (IOException e) {
            return PLUGIN_GRACE;
        }
    }

    /** Polls until every node in {@code nodes} serves CQL and, with the plugin, answers the FastCCS handshake. */
    private Duration awaitServing(ClusterState state, Collection<Integer> nodes, Instant launchedAt, Instant deadline) {
        Set<Integer> pending = new TreeSet<>(nodes);
        Map<Integer, Instant> cqlUpSince = new HashMap<>();
        Map<Integer, String> waitingFor = new HashMap<>();
        Instant lastReport = Instant.now();
        while (true) {
            for (Iterator<Integer> it = pending.iterator(); it.hasNext(); ) {
                int node = it.next();
                String address = state.ports().address(node);
                if (!isNodeProcess(node, state.pid(node)))
                    throw new ClusterException(describeDeath(state, node) + logTails(node) + othersStillRunning(state, node));
                if (!accepting(address, state.ports().cql())) {
                    waitingFor.put(node, "the CQL port " + address + ":" + state.ports().cql() + " to open");
                    continue;
                }
                Instant cqlUp = cqlUpSince.computeIfAbsent(node, n -> Instant.now());
                if (state.plugin()) {
                    FastCcsHandshake.Result handshake = FastCcsHandshake.probe(address, state.ports().fastccs(), PROBE_TIMEOUT);
                    if (!handshake.ok()) {
                        waitingFor.put(node, "the FastCCS handshake on " + address + ":" + state.ports().fastccs()
                                + " (last try: " + handshake.problem() + ")");
                        Duration grace = pluginGrace();
                        if (Duration.between(cqlUp, Instant.now()).compareTo(grace) > 0)
                            throw new ClusterException(String.format("node %d (%s, pid %d) serves CQL but its FastCCS "
                                    + "plugin does not answer the handshake on %s:%d %d s later: %s.%nThe agent is %s; "
                                    + "start with --no-plugin for plain Cassandra.", node, address, state.pid(node), address,
                                    state.ports().fastccs(), grace.toSeconds(), handshake.problem(), state.agentJar())
                                    + pluginLogLines(node) + logTails(node) + othersStillRunning(state, -1));
                        continue;
                    }
                }
                progress.accept(String.format("node %d serving after %.1f s", node, secondsSince(launchedAt)));
                it.remove();
            }
            if (pending.isEmpty())
                return Duration.between(launchedAt, Instant.now());
            if (Duration.between(lastReport, Instant.now()).compareTo(PROGRESS_EVERY) >= 0) {
                int node = pending.iterator().next();
                progress.accept(String.format("%d of %d node%s serving after %.0f s; node %d waits for %s", nodes.size() - pending.size(),
                        nodes.size(), nodes.size() == 1 ? "" : "s", secondsSince(launchedAt), node, waitingFor.get(node)));
                lastReport = Instant.now();
            }
            if (Instant.now().isAfter(deadline)) {
                int node = pending.iterator().next();
                throw new ClusterException(String.format("node%s %s not serving after %.0f s; node %d is waiting for %s.",
                        pending.size() == 1 ? "" : "s", pending, secondsSince(launchedAt), node, waitingFor.get(node))
                        + logTails(node) + othersStillRunning(state, -1));
            }
            pause();
        }
    }

    /**
     * Polls until every running node sees every running node live and knows an owner for every node's token, so
     * a client can use the whole ring (and {@code nodetool status} shows UN) as soon as this returns.
     */
    private Duration awaitRing(ClusterState state, Instant launchedAt, Instant deadline) {
        while (true) {
            List<Integer> running = runningNodes(state);
            Set<String> runningAddresses = running.stream().map(state.ports()::address).collect(Collectors.toSet());
            Map<Integer, String> notConverged = new LinkedHashMap<>();
            for (int node : running) {
                Optional<RingProbe.View> view = RingProbe.view(state.ports().jmx(node));
                if (view.isEmpty())
                    notConverged.put(node, "no JMX answer on 127.0.0.1:" + state.ports().jmx(node));
                else if (!view.get().liveNodes().containsAll(runningAddresses) || view.get().tokenOwners() < state.nodes()
                        || !"NORMAL".equals(view.get().operationMode()))
                    notConverged.put(node, "sees live " + view.get().liveNodes() + ", " + view.get().tokenOwners()
                            + " of " + state.nodes() + " tokens, mode " + view.get().operationMode());
            }
            if (notConverged.isEmpty()) {
                progress.accept(String.format("ring converged after %.1f s: every running node sees %s live",
                        secondsSince(launchedAt), new TreeSet<>(runningAddresses)));
                return Duration.between(launchedAt, Instant.now());
            }
            if (Instant.now().isAfter(deadline))
                throw new ClusterException(String.format("the ring did not converge within %.0f s: %s",
                        secondsSince(launchedAt), notConverged.entrySet().stream()
                                .map(e -> "node " + e.getKey() + " " + e.getValue()).collect(Collectors.joining("; "))));
            pause();
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
            boolean alive = isNodeProcess(node, pid);
            boolean cql = alive && accepting(address, state.ports().cql());
            NodeStatus.FastCcs fastccs = !state.plugin() ? NodeStatus.FastCcs.OFF
                    : alive && FastCcsHandshake.probe(address, state.ports().fastccs(), PROBE_TIMEOUT).ok()
                    ? NodeStatus.FastCcs.UP : NodeStatus.FastCcs.DOWN;
            long rss = alive ? residentBytes(pid) : -1;
            int liveSeen = alive ? RingProbe.view(state.ports().jmx(node)).map(v -> v.liveNodes().size()).orElse(-1) : -1;
            statuses.add(new NodeStatus(node, address, pid, alive, cql, fastccs, rss, liveSeen));
        }
        return statuses;
    }

    /** SIGTERM to every running node, SIGKILL to those still up {@link #STOP_GRACE} later. */
    public List<Stopped> stop() {
        ClusterState state = state();
        Map<Integer, ProcessHandle> running = new LinkedHashMap<>();
        for (int node : runningNodes(state))
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

    /** SIGKILL to node {@code node}, as a crash would; returns once it is gone. */
    public void kill(int node) {
        ClusterState state = state();
        checkNodeNumber(state, node);
        long pid = state.pid(node);
        if (!isNodeProcess(node, pid))
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
        if (!isNodeProcess(node, pid))
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
            if (isNodeProcess(node, state.pid(node)))
                throw new ClusterException("node " + node + " is running (pid " + state.pid(node) + "); kill or stop it first");
            checkPortsFree(state, node);
        }
        String classpath = readNodeClasspath(state.nodeClasspathFile());
        if (state.plugin() && !Files.isRegularFile(state.agentJar()))
            throw new ClusterException("the FastCCS agent " + state.agentJar() + " is missing: run mvn -B -DskipTests package first (bin/fastccs builds by itself)");
        Instant launchedAt = Instant.now();
        for (int node : nodes)
            state = launch(state.withoutPid(node), node, classpath);
        return awaitUp(state, nodes, launchedAt, launchedAt.plus(timeout));
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
                if (!exitedAfter.containsKey(node) && !isNodeProcess(node, handle.pid()))
                    exitedAfter.put(node, Duration.between(started, Instant.now()));
            });
            if (exitedAfter.size() == handles.size() || Instant.now().isAfter(deadline))
                return;
            pause();
        }
    }

    private void forgetPids(List<Integer> nodes) {
        // Reread: the state file is the truth; other nodes' pids may have changed since this call began.
        ClusterState current = state();
        for (int node : nodes) {
            if (isNodeProcess(node, current.pid(node)))
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
        String classpath = readNodeClasspath(state.nodeClasspathFile());
        try {
            Files.createDirectories(layout.nodetoolHome());
            if (!Files.isRegularFile(layout.toolsLogbackXml()))
                Files.writeString(layout.toolsLogbackXml(), NodeConfigFiles.toolsLogbackXml());
            ProcessBuilder builder = new ProcessBuilder(NodeCommandLine.nodetool(state, layout, node, classpath, args))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            if (inheritIO)
                builder.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
            else
                builder.redirectErrorStream(true);
            return builder.start();
        } catch (IOException e) {
            throw new ClusterException("cannot run nodetool: " + e.getMessage(), e);
        }
    }

    /** Runs nodetool against node {@code node} and collects its output. */
    public NodetoolResult nodetool(int node, String... args) {
        Process process = startNodetool(node, List.of(args), false);
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new ClusterException("nodetool " + String.join(" ", args) + " did not finish in 2 minutes");
            }
            return new NodetoolResult(process.exitValue(), output);
        } catch (IOException e) {
            throw new ClusterException("cannot read nodetool's output: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new ClusterException("interrupted while nodetool ran", e);
        }
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
        Path nodeDir = layout.nodeDir(node);
        for (String sub : List.of("conf", "logs", "data", "commitlog", "hints", "saved_caches", "cdc_raw"))
            Files.createDirectories(nodeDir.resolve(sub));
        Files.writeString(layout.cassandraYaml(node), NodeConfigFiles.cassandraYaml(node, state.nodes(), state.ports(), nodeDir,
                ClusterSecurity.load(dir())));
        Files.writeString(layout.logbackXml(node), NodeConfigFiles.logbackXml(layout.logDir(node)));
    }

    private List<Integer> runningNodes(ClusterState state) {
        return IntStream.rangeClosed(1, state.nodes()).filter(node -> isNodeProcess(node, state.pid(node))).boxed().toList();
    }

    /**
     * Whether {@code pid} is alive and is node {@code node} of this cluster: its command line runs Cassandra with
     * this node's config. A zombie or a reused pid is not.
     */
    private boolean isNodeProcess(int node, long pid) {
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

    private static boolean accepting(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Refuses to start a node whose ports another process holds (another cluster, a leftover node). */
    private static void checkPortsFree(ClusterState state, int node) {
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

    private static String readNodeClasspath(Path file) {
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

    private String describeDeath(ClusterState state, int node) {
        Process process = launched.get(node);
        String exit = "";
        if (process != null) {
            try {
                if (process.waitFor(2, TimeUnit.SECONDS))
                    exit = " with exit code " + process.exitValue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return "node " + node + " (" + state.ports().address(node) + ", pid " + state.pid(node) + ") exited" + exit + " before serving.";
    }

    /** The end of the node's stdout.log (latest launch only) and system.log, for error messages. */
    String logTails(int node) {
        return logs.tails(node);
    }

    /** What the plugin logged in system.log (lines naming FastCCS and the stack traces under them). */
    String pluginLogLines(int node) {
        return logs.pluginLines(node);
    }

    private String othersStillRunning(ClusterState state, int exceptNode) {
        List<Integer> others = new ArrayList<>(runningNodes(state));
        others.remove(Integer.valueOf(exceptNode));
        return others.isEmpty() ? "" : String.format("%nNodes %s are still running: bin/fastccs cluster stop --dir %s",
                others, dir());
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

    private static double secondsSince(Instant start) {
        return Duration.between(start, Instant.now()).toMillis() / 1000.0;
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_INTERVAL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while waiting for the cluster", e);
        }
    }
}
