package io.fastccs.sim;

import io.fastccs.core.spi.ProtocolSession;
import io.fastccs.core.spi.Protocols;
import io.fastccs.core.spi.PartitionServer;
import io.fastccs.core.spi.ProtocolFactory;
import io.fastccs.check.History;
import io.fastccs.protocol.partition.Partition;
import io.fastccs.core.api.Topology;
import io.fastccs.core.impl.HashTopology;
import io.fastccs.core.messages.Outcome;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * A deterministic simulation of a FastCCS cluster (or one of the protocols it is compared with, {@link SimConfig#protocol()}):
 * N real {@link Partition}s and M closed-loop client sessions
 * running the real client state machines, over a simulated network, all on one thread in simulated time. One seed
 * decides everything (workload, delays, faults), so a run replays exactly.
 *
 * <p>This class only wires the parts, each with one job: simulated time ({@link EventQueue}), the network
 * ({@link SimNetwork}), the partitions as processes ({@link SimPartitions}), faults ({@link FaultSchedule}), the
 * clients ({@link ClientWorkload}), settling lost outcomes ({@link OutcomeQueries}), the endgame ({@link Endgame}:
 * quiesce, settle, read every key) and the checks outside the system ({@link SimVerifier}). The recorded history
 * then goes to the TCC checker.
 */
public final class Simulation {
    /** The session id of the convergence reads. */
    public static final long FINAL_SESSION = 0;

    private static final long MAX_SIM_MICROS = 3_600_000_000L;

    private final SimConfig cfg;
    private final ProtocolFactory protocol;
    private final long seed;
    private final Topology topology;
    private final SimStats stats = new SimStats();
    private final EventQueue events = new EventQueue();
    private final HistoryLog history = new HistoryLog();
    private final SimKeys keys;
    private final SimPartitions partitions;
    private final FaultSchedule faults;
    private final ClientWorkload workload;
    private final Endgame endgame;
    /** Drawn after the others, so that runs without held-back reads or replica groups draw as they always did. */
    private final SplittableRandom heldBackRandom;
    private final SplittableRandom replicationRandom;
    private boolean stopped;

    public Simulation(SimConfig cfg, long seed) {
        this(cfg, seed, s -> { });
    }

    /** @param sessionHook applied to every new client session; tests use it to break the client on purpose */
    public Simulation(SimConfig cfg, long seed, Consumer<ProtocolSession> sessionHook) {
        this(cfg, seed, Protocols.factory(cfg.protocol()), sessionHook);
    }

    /**
     * A simulation of {@code protocol}'s partitions and sessions (a broken variant, in the tests that show it caught).
     */
    public Simulation(SimConfig cfg, long seed, ProtocolFactory protocol, Consumer<ProtocolSession> sessionHook) {
        if (protocol.protocol() != cfg.protocol())
            throw new IllegalArgumentException("a " + protocol.protocol().word() + " factory for a " + cfg.protocol().word() + " run");
        this.cfg = cfg;
        this.protocol = protocol;
        this.seed = seed;
        SplittableRandom root = new SplittableRandom(seed);
        SplittableRandom netRandom = root.split();
        SplittableRandom workloadRandom = root.split();
        SplittableRandom faultRandom = root.split();
        SplittableRandom coordinatorRandom = root.split();
        this.topology = new HashTopology(cfg.partitions());
        this.keys = new SimKeys(cfg.valueSize());
        // Network nodes: partitions 0..N-1, then the clients, then one node that settles outcomes and reads at the end.
        int nodeCount = cfg.partitions() + cfg.clients() + 1;
        int resolverNode = nodeCount - 1;
        SimNetwork network = new SimNetwork(cfg, netRandom, events, stats, nodeCount, this::faultsActive);
        this.partitions = new SimPartitions(cfg, protocol, topology, events, network, faultRandom, stats);
        this.faults = new FaultSchedule(cfg, faultRandom, events, partitions);
        OutcomeQueries outcomes = new OutcomeQueries(events, partitions, stats, resolverNode);
        this.endgame = new Endgame(cfg, events, partitions, faults, history, keys, stats, resolverNode, () -> stopped = true);
        this.workload = new ClientWorkload(cfg, topology, events, partitions, faults, outcomes, history, keys, stats,
                workloadRandom, coordinatorRandom, protocol, sessionHook, endgame::begin);
        endgame.workload(workload);
        this.heldBackRandom = root.split(); // after the others, so that their draws stay as they were
        this.replicationRandom = root.split();
    }

    /**
     * Makes every partition a group of three replicas under consensus: a step's writes and what it sends wait for a
     * majority, and a partition crash is a failover that loses the uncommitted entries. Call before {@link #run()}.
     *
     * <p>With partition crashes in the fault mix, leaders are also cut off from their followers at the same rate: a new
     * leader is elected, and the deposed one runs on, reached by clients with a stale leader, until it learns.
     */
    public Simulation replicate() {
        return replicate(new ReplicaGroup.Settings(replicationRandom, false, false));
    }

    /** {@link #replicate()} with a broken variant of the hosts, for the tests that show it caught. */
    Simulation replicate(ReplicaGroup.Settings settings) {
        partitions.replicate(settings, this::faultsActive);
        stats.replicated = true;
        return this;
    }

    SplittableRandom replicationRandom() {
        return replicationRandom;
    }

    /**
     * Holds back a share of round ones at their partition for up to {@code maxDelayMicros} and answers them at their
     * arrival snapshot, as a node does while it reads their keys from disk. Call before {@link #run()}.
     */
    public Simulation holdBackReads(double probability, long maxDelayMicros) {
        partitions.holdBackReads(new SimPartitions.HeldBackReads(probability, maxDelayMicros, heldBackRandom));
        return this;
    }

    private boolean faultsActive() {
        return faults.active();
    }

    /** Runs the whole simulation once and returns what it measured and found. */
    public SimResult run() {
        if (!events.untouched()) throw new IllegalStateException("a Simulation runs once");
        partitions.startAll();
        faults.start();
        workload.start();
        while (!stopped) {
            Runnable next = events.next();
            if (next == null) throw new IllegalStateException("simulation ran dry at " + events.now() + "us (seed " + seed + ")");
            if (events.now() > MAX_SIM_MICROS)
                throw new IllegalStateException("simulation exceeded an hour of simulated time (seed " + seed + "): " + diagnostics());
            next.run();
        }
        return finish();
    }

    /** Where a run that does not finish is stuck. */
    private String diagnostics() {
        StringBuilder sb = new StringBuilder(workload.describe());
        long undecided = 0;
        for (List<RecordedTxn> log : history.sessions())
            for (RecordedTxn r : log)
                if (r.write && r.outcome == Outcome.UNDECIDED) {
                    if (undecided++ < 5)
                        sb.append("\n  undecided write ").append(r.txnId).append(r.transaction == null ? " (never started)"
                                : " " + r.transaction.txnId() + (r.transaction.coordinator() >= 0 ? " coordinator "
                                + r.transaction.coordinator() + " participants " + r.transaction.participants() : "")
                                + " known outcome " + r.transaction.outcome());
                }
        sb.append(", writes without outcome ").append(undecided).append(", final reads ").append(endgame.finalValues().size());
        for (int p = 0; p < partitions.count(); p++) {
            PartitionServer server = partitions.partition(p);
            sb.append("\n  partition ").append(p).append(partitions.isDown(p) ? " DOWN" : server == null ? " null" : " " + server
                    + server.describeState());
        }
        return sb.toString();
    }

    private SimResult finish() {
        long clockAhead = 0;
        for (int p = 0; p < partitions.count(); p++)
            if (partitions.partition(p) != null) clockAhead += partitions.partition(p).clientClocksAhead();
        History h = SimVerifier.verify(history, endgame.finalValues(), protocol.arbitration(), clockAhead, stats.invariantViolations);
        for (int p = 0; p < partitions.count(); p++) stats.versionsStored += partitions.store(p).versionCount();
        for (int p = 0; p < partitions.count(); p++) {
            ReplicaGroup g = partitions.group(p);
            if (g == null) continue;
            stats.groupLogEntries += g.entries();
            stats.uncommittedEntriesLost += g.lostEntries();
        }
        stats.workloadMicros = workload.endedAt();
        stats.totalMicros = events.now();
        return new SimResult(cfg, seed, h, stats);
    }
}
