package io.fastccs.tools.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Waits for launched nodes to serve (CQL open, and the FastCCS handshake answered with the plugin) and for the ring to
 * converge, says what it waits for every few seconds, and explains a node that dies or never gets there.
 */
final class Readiness {
    /** How long a node that serves CQL gets for its plugin to answer, before start reports the plugin broken. */
    static final Duration PLUGIN_GRACE = Duration.ofSeconds(30);
    /**
     * With Cassandra's security on, a node's ring (gossip over TLS) and auth setup take longer before the plugin
     * serves: on a loaded 2-core machine well over 30 s after CQL opens.
     */
    static final Duration SECURED_PLUGIN_GRACE = Duration.ofSeconds(120);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(250);
    /** How often a start that is still waiting says what it waits for. */
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);
    /** How often a node whose plugin does not answer yet is asked over JMX whether it gave up (a JMX connect each). */
    private static final Duration HEALTH_PROBE_EVERY = Duration.ofSeconds(2);
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    /** How long a start waits for every group's leadership to come back to its preferred member. */
    static final Duration LEADERSHIP_SETTLING = Duration.ofSeconds(30);

    private final Path dir;
    private final Consumer<String> progress;
    private final NodeProcesses processes;
    private final NodeDiagnosis diagnosis;

    Readiness(Path dir, Consumer<String> progress, NodeProcesses processes, NodeDiagnosis diagnosis) {
        this.dir = dir;
        this.progress = progress;
        this.processes = processes;
        this.diagnosis = diagnosis;
    }

    LocalCluster.StartReport awaitUp(ClusterState state, List<Integer> nodes, Instant launchedAt, Instant deadline) {
        Duration toServing = awaitServing(state, nodes, launchedAt, deadline);
        Duration toRing = awaitRing(state, launchedAt, deadline);
        return new LocalCluster.StartReport(nodes, toServing, toRing);
    }

    /**
     * With replicated partitions, waits until every group is led by its preferred member, as each node's
     * {@code io.fastccs:type=Groups} bean says, at most {@link #LEADERSHIP_SETTLING} (and not past {@code deadline}).
     * A fresh cluster's groups elect whichever members are up first, and leadership then comes back to the preferred
     * member about 3 s after it caught up; a write in flight while it moves may be aborted (measured: 5 of 11 fresh
     * clusters, docs/design/one-round-writes.md, "Writes a moving leader aborted"). Not settled in time is said, not
     * fatal: the cluster serves, and the client runs an aborted write again.
     */
    void awaitLeaderships(ClusterState state, Instant launchedAt, Instant deadline) {
        if (!state.plugin() || state.replicationFactor() <= 1) return;
        Instant settleBy = Instant.now().plus(LEADERSHIP_SETTLING);
        if (settleBy.isAfter(deadline)) settleBy = deadline;
        Instant lastReport = Instant.now();
        while (true) {
            Map<Integer, String> unsettled = new LinkedHashMap<>();
            for (int node : processes.running(state)) {
                Optional<List<Integer>> notLeading = RingProbe.preferredNotLeading(state.ports().jmx(node));
                if (notLeading.isEmpty()) unsettled.put(node, "no answer from its io.fastccs:type=Groups bean");
                else if (!notLeading.get().isEmpty()) unsettled.put(node, "does not lead its groups " + notLeading.get() + " yet");
            }
            if (unsettled.isEmpty()) {
                progress.accept(String.format("leaderships settled after %.1f s: every group is led by its preferred member",
                        secondsSince(launchedAt)));
                return;
            }
            String which = unsettled.entrySet().stream().map(e -> "node " + e.getKey() + " " + e.getValue())
                    .collect(Collectors.joining("; "));
            if (Instant.now().isAfter(settleBy)) {
                progress.accept(String.format("leaderships not settled after %.0f s (%s); serving anyway: a write aborted "
                        + "while a leader moves is run again by the client", secondsSince(launchedAt), which));
                return;
            }
            if (Duration.between(lastReport, Instant.now()).compareTo(PROGRESS_EVERY) >= 0) {
                progress.accept(String.format("waiting for leaderships to settle after %.0f s: %s", secondsSince(launchedAt), which));
                lastReport = Instant.now();
            }
            pause();
        }
    }

    /**
     * How long a node may serve CQL before its plugin answers: {@link #PLUGIN_GRACE} ({@link #SECURED_PLUGIN_GRACE}
     * with security on or replicated partitions), or the system property {@code fastccs.cluster.pluginGraceSeconds} (a heavily loaded
     * machine may need minutes to converge the ring).
     */
    private Duration pluginGrace(ClusterState state) {
        Long configured = ToolProperty.PLUGIN_GRACE_SECONDS.getLong();
        if (configured != null) return Duration.ofSeconds(configured);
        // Replicated partitions: the port opens only once the ring settled and every group elected a leader, which on
        // a loaded 2-core machine took more than 30 s after CQL opened (a CI rehearsal's demo).
        if (state.replicationFactor() > 1) return SECURED_PLUGIN_GRACE;
        try {
            return ClusterSecurity.load(dir).enabled() ? SECURED_PLUGIN_GRACE : PLUGIN_GRACE;
        } catch (IOException e) {
            return PLUGIN_GRACE;
        }
    }

    /** Polls until every node in {@code nodes} serves CQL and, with the plugin, answers the FastCCS handshake. */
    private Duration awaitServing(ClusterState state, Collection<Integer> nodes, Instant launchedAt, Instant deadline) {
        Set<Integer> pending = new TreeSet<>(nodes);
        Map<Integer, Instant> cqlUpSince = new HashMap<>();
        Map<Integer, String> waitingFor = new HashMap<>();
        Map<Integer, Instant> lastHealthProbe = new HashMap<>();
        Duration grace = pluginGrace(state);
        Instant lastReport = Instant.now();
        while (true) {
            for (Iterator<Integer> it = pending.iterator(); it.hasNext(); ) {
                int node = it.next();
                String address = state.ports().address(node);
                if (!processes.isNode(node, state.pid(node)))
                    throw new ClusterException(diagnosis.describeDeath(state, node) + diagnosis.logTails(node) + diagnosis.othersStillRunning(state, node));
                if (!NodeProcesses.accepting(address, state.ports().cql())) {
                    waitingFor.put(node, "the CQL port " + address + ":" + state.ports().cql() + " to open");
                    continue;
                }
                Instant cqlUp = cqlUpSince.computeIfAbsent(node, n -> Instant.now());
                if (state.plugin()) {
                    FastCcsHandshake.Result handshake = FastCcsHandshake.probe(address, state.ports().fastccs(), PROBE_TIMEOUT, state.protocol());
                    if (!handshake.ok()) {
                        waitingFor.put(node, "the FastCCS handshake on " + address + ":" + state.ports().fastccs()
                                + " (last try: " + handshake.problem() + ")");
                        Instant probed = lastHealthProbe.get(node);
                        if (probed == null || Duration.between(probed, Instant.now()).compareTo(HEALTH_PROBE_EVERY) >= 0) {
                            lastHealthProbe.put(node, Instant.now());
                            var health = RingProbe.pluginHealth(state.ports().jmx(node)).filter(RingProbe.PluginHealth::failed);
                            if (health.isPresent())
                                throw new ClusterException(String.format("node %d (%s, pid %d) serves CQL but its FastCCS "
                                        + "plugin FAILED (JMX io.fastccs:type=FastCcs): %s", node, address, state.pid(node),
                                        health.get().reason()) + diagnosis.pluginLogLines(node) + diagnosis.othersStillRunning(state, -1));
                        }
                        if (Duration.between(cqlUp, Instant.now()).compareTo(grace) > 0)
                            throw new ClusterException(String.format("node %d (%s, pid %d) serves CQL but its FastCCS "
                                    + "plugin does not answer the handshake on %s:%d %d s later: %s.%nThe agent is %s; "
                                    + "start with --no-plugin for plain Cassandra.", node, address, state.pid(node), address,
                                    state.ports().fastccs(), grace.toSeconds(), handshake.problem(), state.agentJar())
                                    + diagnosis.pluginLogLines(node) + diagnosis.logTails(node) + diagnosis.othersStillRunning(state, -1));
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
                        + diagnosis.logTails(node) + diagnosis.othersStillRunning(state, -1));
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
            List<Integer> running = processes.running(state);
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

    private static double secondsSince(Instant start) {
        return Duration.between(start, Instant.now()).toMillis() / 1000.0;
    }

    static void pause() {
        try {
            Thread.sleep(POLL_INTERVAL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while waiting for the cluster", e);
        }
    }
}
