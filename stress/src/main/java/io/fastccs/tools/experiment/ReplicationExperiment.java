package io.fastccs.tools.experiment;

import io.fastccs.tools.cluster.LocalCluster;
import io.fastccs.tools.cluster.NodeStatus;
import io.fastccs.tools.cluster.Ports;
import io.fastccs.tools.cluster.StartOptions;
import io.fastccs.tools.cluster.ToolProperty;
import io.fastccs.tools.cluster.ToolThreads;
import io.fastccs.tools.stress.StressCommand;
import io.fastccs.tools.stress.StressOptions;
import io.fastccs.tools.stress.StressOptions.Consistency;
import io.fastccs.tools.stress.StressOptions.Mode;
import io.fastccs.tools.stress.StressResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.function.ToDoubleFunction;

/**
 * {@code bin/fastccs experiment replication}: what replicated partitions cost. Two local 3-node clusters run side by
 * side, one with replication factor 1 and one with 3 (each partition a Raft group of three nodes). Per workload and
 * repetition five arms run one after the other: FastCCS on each cluster; plain Cassandra on the RF=3 cluster with its
 * keyspace at factor 3 (the same durability) at consistency ONE and QUORUM; and plain Cassandra at factor 1 on the RF=1
 * cluster, so that what replication costs Cassandra itself on the same machine stands beside what it costs FastCCS.
 * The order of the arms is reversed on even repetitions so that drift does not favour one.
 *
 * <p>Before anything is measured every arm runs the mixed workload once, unrecorded ({@code --prime}): a fresh node
 * compiles its hot paths for minutes on a small machine, and the RF=3 nodes have more of them (Ratis, gRPC), so without
 * it the first arms measured the compiler (an RF=3 cluster's mixed throughput was seen to triple over its first five
 * minutes of load).
 */
@Command(name = "experiment replication", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"What replication costs: FastCCS at replication factor 3 against factor 1, and against plain "
                + "Cassandra at factor 3 with consistency ONE and QUORUM, on two local 3-node clusters started "
                + "side by side: RF=1 on 127.0.S.k in <repo>/.cluster-rf1, RF=3 on 127.0.S+1.k in "
                + "<repo>/.cluster-rf3 (clusters already running there are used as they are). Workloads: mixed "
                + "(Table 4.1, as 'latency' runs it), mixed-paced (the same in an open loop at half the slowest "
                + "arm's mixed throughput, for latencies at equal load) and write (write-only transactions, as 'write-batch' runs "
                + "it). Arms per workload and repetition, reversed on even repetitions: fastccs-rf1, fastccs-rf3, "
                + "cql-one-rf1 (plain Cassandra at factor 1: what replication costs Cassandra itself), "
                + "cql-one-rf3, cql-quorum-rf3 (called eventual-... before session 14). Every arm first runs the mixed workload unmeasured for "
                + "--prime seconds, so that no arm is measured while its nodes still compile their hot paths. "
                + "Writes results/replication.csv and prints the ratios; bin/fastccs plot draws it."})
public final class ReplicationExperiment implements Callable<Integer> {
    static final String NAME = "replication";
    static final int NODES = 3;

    @Option(names = "--subnet", description = "loopback subnet of the RF=1 cluster; the RF=3 cluster takes the next one (default: ${DEFAULT-VALUE})")
    int subnet = 56;
    @Option(names = "--prime", paramLabel = "SECONDS", description = "unmeasured mixed load per arm before the first "
            + "measured run, so that the nodes' JIT has compiled every arm's paths (default: ${DEFAULT-VALUE}; 0: none)")
    int primeSeconds = 60;
    @Option(names = "--keep", description = "leave the clusters this command started running")
    boolean keep;
    @Mixin
    RunOptions run = new RunOptions();
    @Option(names = "--out", paramLabel = "DIR", description = "where replication.csv goes (default: ${DEFAULT-VALUE})")
    Path out = Path.of("results");

    /** A workload: its name in the CSV's value column and the stress command that runs it with Table 4.1 otherwise. */
    record Workload(String name, String command, boolean paced) {
    }

    static final Workload MIXED = new Workload("mixed", "mixed", false);
    /**
     * The mixed workload in an open loop at the same offered load for every arm: half the mean throughput of the
     * slowest arm in the closed-loop mixed runs, so that no arm runs saturated. In a closed loop a p99 mostly says how
     * saturated the cores are, so the read-p99 comparison is made here, at equal load.
     */
    static final Workload MIXED_PACED = new Workload("mixed-paced", "mixed", true);
    static final Workload WRITE = new Workload("write", "write", false);
    static final List<Workload> WORKLOADS = List.of(MIXED, MIXED_PACED, WRITE);
    /** The offered load of {@link #MIXED_PACED}, set from the mixed runs; 0 until then. */
    double pacedRate;

    /**
     * One side of the comparison: a mode on the cluster of {@code clusterFactor}; for plain Cassandra a consistency
     * level and the factor of its keyspace.
     */
    record Arm(String name, Mode mode, int clusterFactor, Consistency consistency, int keyspaceFactor) {
    }

    static final Arm FASTCCS_RF1 = new Arm("fastccs-rf1", Mode.FASTCCS, 1, Consistency.ONE, 1);
    static final Arm FASTCCS_RF3 = new Arm("fastccs-rf3", Mode.FASTCCS, 3, Consistency.ONE, 1);
    // Plain Cassandra through CQL (replication.csv files written before session 14 call these arms eventual-one-rf1 and so on).
    static final Arm CQL_ONE_RF1 = new Arm("cql-one-rf1", Mode.CQL, 1, Consistency.ONE, 1);
    static final Arm CQL_ONE_RF3 = new Arm("cql-one-rf3", Mode.CQL, 3, Consistency.ONE, 3);
    static final Arm CQL_QUORUM_RF3 = new Arm("cql-quorum-rf3", Mode.CQL, 3, Consistency.QUORUM, 3);
    static final List<Arm> ARMS = List.of(FASTCCS_RF1, FASTCCS_RF3, CQL_ONE_RF1, CQL_ONE_RF3, CQL_QUORUM_RF3);

    /** A local cluster of one replication factor, and whether this command started it (and so stops it). */
    private static final class Target {
        final int factor;
        final int subnet;
        final LocalCluster cluster;
        volatile boolean startedHere;
        List<String> hosts = List.of();

        Target(Path dir, int factor, int subnet) {
            this.factor = factor;
            this.subnet = subnet;
            this.cluster = LocalCluster.at(dir, line -> System.out.println("  [rf" + factor + "] " + line));
        }
    }

    private int failedRuns;

    /** The arms in the order they run in repetition {@code rep} (from 1): reversed on even repetitions. */
    static List<Arm> order(int rep) {
        return RunTable.orderOf(ARMS, rep);
    }

    @Override
    public Integer call() throws Exception {
        if (subnet < 0 || subnet + 1 > 99) throw new IllegalArgumentException("--subnet must be 0 to 98 (the RF=3 cluster takes S+1), not " + subnet);
        // Six nodes start at once on a small machine, and a replicated plugin serves only once its groups have leaders:
        // minutes after CQL opens, not the 30 s a single cluster gets (as nemesis does).
        ToolProperty.PLUGIN_GRACE_SECONDS.setIfAbsent("240");
        Path root = LocalCluster.repoRoot().orElse(Path.of("."));
        Target rf1 = new Target(root.resolve(".cluster-rf1"), 1, subnet);
        Target rf3 = new Target(root.resolve(".cluster-rf3"), 3, subnet + 1);
        List<Target> targets = List.of(rf1, rf3);
        Thread cleanup = new Thread(() -> stopStartedHere(targets), "replication-experiment-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup); // an interrupted run must not leave six nodes behind
        try {
            bringUp(targets);
            Files.createDirectories(out);
            long[] nodePids = targets.stream().flatMapToLong(t -> t.cluster.status().stream().mapToLong(NodeStatus::pid).filter(pid -> pid > 0))
                    .toArray();
            run(rf1, rf3, nodePids);
        } finally {
            stopStartedHere(targets);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        if (failedRuns > 0) System.out.println(failedRuns + " run(s) failed and are left out of the CSV file");
        return failedRuns > 0 ? 1 : 0;
    }

    /** Starts both clusters at once (each start waits minutes for its nodes), or uses those already running. */
    private void bringUp(List<Target> targets) throws Exception {
        ExecutorService starters = ToolThreads.pool("replication-experiment-start", targets.size(), false);
        try {
            List<CompletableFuture<Void>> ups = new ArrayList<>();
            for (Target t : targets) ups.add(CompletableFuture.runAsync(() -> bringUp(t), starters));
            try {
                CompletableFuture.allOf(ups.toArray(CompletableFuture[]::new)).join(); // waits for both, even if one fails
            } catch (CompletionException e) {
                if (e.getCause() instanceof Exception cause) throw cause;
                throw e;
            }
        } finally {
            starters.shutdown();
        }
        for (Target t : targets) {
            t.hosts = new ArrayList<>();
            for (int k = 1; k <= t.cluster.nodeCount(); k++) t.hosts.add(t.cluster.ports().address(k));
        }
        checkReplicated(targets.get(1));
    }

    private void bringUp(Target t) {
        LocalCluster cluster = t.cluster;
        if (cluster.exists()) {
            int factor = Integer.parseInt(cluster.nodeSettings().getOrDefault("replication_factor", "1"));
            if (factor != t.factor)
                throw new IllegalStateException(cluster.dir() + " holds a cluster with replication factor " + factor + ", not "
                        + t.factor + ": remove it (bin/fastccs cluster remove --dir " + cluster.dir() + ")");
            if (cluster.status().stream().allMatch(NodeStatus::serving)) {
                System.out.printf("Using the RF=%d cluster running in %s (%d nodes on %s..)%n", t.factor, cluster.dir(),
                        cluster.nodeCount(), cluster.ports().address(1));
                return;
            }
        }
        System.out.printf("Starting a local %d-node cluster with FastCCS, replication factor %d, on 127.0.%d.k in %s ...%n",
                NODES, t.factor, t.subnet, cluster.dir());
        t.startedHere = true; // before start: a start that fails may leave some nodes running
        // Six nodes start at once on a small machine: more time than one cluster's default.
        cluster.start(StartOptions.nodes(NODES).onSubnet(t.subnet).withTimeout(Duration.ofMinutes(10))
                .withNodeSettings(Map.of("replication_factor", Integer.toString(t.factor))));
    }

    /** The node logs say what the plugin runs: each node of the RF=3 cluster must be a member of replica groups. */
    private static void checkReplicated(Target t) throws IOException {
        for (int k = 1; k <= t.cluster.nodeCount(); k++) {
            String said = null;
            for (String line : Files.readAllLines(t.cluster.systemLog(k), StandardCharsets.UTF_8))
                if (line.contains("is a member of groups")) said = line;
            if (said == null || !said.contains("(replication factor " + t.factor + ")"))
                throw new IllegalStateException("node " + k + " of " + t.cluster.dir() + " does not run replicated partitions: its log "
                        + (said == null ? "names no replica groups" : "says " + said.trim()));
            System.out.println("  [rf" + t.factor + "] node " + k + ": " + said.substring(said.indexOf("FastCCS node")).trim());
        }
    }

    private void stopStartedHere(List<Target> targets) {
        for (Target t : targets) {
            if (!t.startedHere) continue;
            if (keep) {
                System.out.println("cluster left running: bin/fastccs cluster remove --dir " + t.cluster.dir());
                continue;
            }
            try {
                System.out.println("stopping the RF=" + t.factor + " cluster ...");
                t.cluster.stop();
                t.cluster.remove();
            } catch (RuntimeException e) {
                System.err.println("could not remove " + t.cluster.dir() + ": " + e);
            }
            t.startedHere = false;
        }
    }

    private void run(Target rf1, Target rf3, long[] nodePids) throws Exception {
        Path csvFile = out.resolve(NAME + ".csv");
        Instant began = Instant.now();
        System.out.printf("%n=== %s: workloads %s, arms %s, %d s + %d s warm-up per run, %d threads, %d repetition%s%n", NAME,
                WORKLOADS.stream().map(Workload::name).toList(), ARMS.stream().map(Arm::name).toList(), run.seconds, run.warmup, run.threads,
                run.reps, run.reps == 1 ? "" : "s");
        prime(rf1, rf3);
        List<Row> rows = new ArrayList<>();
        int runsTotal = WORKLOADS.size() * run.reps * ARMS.size(), runsDone = 0;
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(csvFile))) {
            csv.println(ExperimentCommand.CSV_HEADER);
            for (Workload w : WORKLOADS) {
                if (w.paced()) {
                    pacedRate = pacedRate(rows);
                    if (!(pacedRate > 0)) {
                        System.out.println("no mixed run succeeded in every arm: " + w.name() + " left out");
                        runsDone += run.reps * ARMS.size();
                        continue;
                    }
                    System.out.printf(Locale.ROOT, "%s: every arm at %.0f transactions/s, open loop (half the slowest arm's mixed throughput)%n",
                            w.name(), pacedRate);
                }
                for (int rep = 1; rep <= run.reps; rep++) {
                    for (Arm arm : order(rep)) {
                        Target on = target(arm, rf1, rf3);
                        StressOptions o = StressOptions.parse(arguments(w, arm, on.cluster.ports(), on.hosts));
                        o.quiet = true;
                        runsDone++;
                        System.out.println(ExperimentCommand.runHeader(runsDone, runsTotal, began, "workload", w.name(), arm.name(), rep, o));
                        // Both clusters' nodes: the idle one shares the cores. Frames are not metered here: the two clusters'
                        // ports would need telling apart, and the comparison is about replication, not messages.
                        MeteredRun m = MeteredRun.of(o, nodePids, List.of());
                        if (m == null) {
                            failedRuns++;
                            continue;
                        }
                        StressResult r = m.result();
                        Row row = new Row(w.name(), arm, rep, r, m.nodeCpuMicrosPerOp(), m.clientCpuMicrosPerOp(), m.loadAverage());
                        rows.add(row);
                        csv.println(ExperimentCommand.csvRow(NAME, "-", "workload", w.name(), arm.name(), rep, m));
                        csv.flush();
                        System.out.println(ExperimentCommand.runSummary(m));
                    }
                }
            }
        }
        printRatios(rows, System.out);
        System.out.printf("wrote %s in %.0f s%n", csvFile, Duration.between(began, Instant.now()).toMillis() / 1e3);
    }

    /** Every arm's mixed workload once, unmeasured and unrecorded; a line per arm says how fast it ran. */
    private void prime(Target rf1, Target rf3) {
        if (primeSeconds <= 0) return;
        System.out.printf("%n=== priming: %d s of mixed load per arm, not measured (the nodes' JIT compiles meanwhile)%n", primeSeconds);
        for (Arm arm : ARMS) {
            Target on = target(arm, rf1, rf3);
            StressOptions o = StressOptions.parse(primingArguments(arm, on.cluster.ports(), on.hosts));
            o.quiet = true;
            System.out.printf("  priming %s for %d s ...%n", arm.name(), primeSeconds);
            try {
                StressResult r = StressCommand.run(o, System.out);
                System.out.printf(Locale.ROOT, "  primed %-20s %,10.0f op/s%n", arm.name(), r.opRate());
            } catch (Exception failure) {
                System.out.println("  priming " + arm.name() + " failed (the measured runs follow anyway): " + failure);
            }
        }
    }

    private static Target target(Arm arm, Target rf1, Target rf3) {
        return arm.clusterFactor() == 3 ? rf3 : rf1;
    }

    /** An arm's mixed workload for {@code --prime} seconds, without a warm-up of its own. */
    String[] primingArguments(Arm arm, Ports ports, List<String> hosts) {
        return arguments(MIXED, arm, ports, hosts, primeSeconds, 0);
    }

    /** Half the mean mixed throughput of the slowest arm; 0 if some arm has no mixed run. */
    static double pacedRate(List<Row> rows) {
        double slowest = Double.POSITIVE_INFINITY;
        for (Arm arm : ARMS) slowest = Math.min(slowest, mean(rows, MIXED, arm, r -> r.result().opRate()));
        return Double.isFinite(slowest) ? Math.floor(slowest / 2) : 0;
    }

    /** A measured run of workload {@code w} in {@code arm}. */
    String[] arguments(Workload w, Arm arm, Ports ports, List<String> hosts) {
        return arguments(w, arm, ports, hosts, run.seconds, run.warmup);
    }

    private String[] arguments(Workload w, Arm arm, Ports ports, List<String> hosts, int seconds, int warmupSeconds) {
        List<String> args = new ArrayList<>(List.of(w.command(), "duration=" + seconds + "s"));
        if (arm.mode().plainCassandra()) args.add("cl=" + arm.consistency());
        args.addAll(List.of("-rate", "threads=" + run.threads));
        if (w.paced()) {
            if (!(pacedRate > 0)) throw new IllegalStateException("the paced rate is set from the mixed runs first");
            args.add(String.format(Locale.ROOT, "fixed=%.0f/s", pacedRate));
        }
        args.addAll(List.of("-pop", "dist=gaussian(1.." + run.keys + ")", "-warmup", "duration=" + warmupSeconds + "s",
                "-mode", arm.mode().word(), "-port", "native=" + ports.cql(), "fastccs=" + ports.fastccs(),
                "-node", String.join(",", hosts)));
        if (arm.mode().plainCassandra()) args.addAll(List.of("-schema", "replication(factor=" + arm.keyspaceFactor() + ")"));
        return args.toArray(String[]::new);
    }

    record Row(String workload, Arm arm, int rep, StressResult result, double nodeCpuMicrosPerOp, double clientCpuMicrosPerOp,
               double loadAverage) {
    }

    /**
     * Per workload, each arm's means over repetitions; then the ratios the comparison is about: FastCCS at RF=3 over
     * RF=1 (throughput, and p99s as a factor of RF=1's), and over plain Cassandra at RF=3 (throughput); beside them
     * plain Cassandra's own RF=3 over RF=1 at ONE (throughput), what replication costs Cassandra on the same machine.
     */
    static void printRatios(List<Row> rows, PrintStream out) {
        out.printf("%n%s: mean over repetitions%n", NAME);
        out.printf("%-11s %-20s %10s %10s %10s %10s %10s %15s%n", "workload", "arm", "op/s", "read p50", "read p99", "write p50",
                "write p99", "node CPU us/op");
        for (Workload w : WORKLOADS) {
            for (Arm arm : ARMS) {
                out.printf(Locale.ROOT, "%-11s %-20s %10s %10s %10s %10s %10s %15s%n", w.name(), arm.name(),
                        number("%,.0f", mean(rows, w, arm, r -> r.result().opRate())),
                        number("%.2f", meanReads(rows, w, arm, r -> r.result().read().median())),
                        number("%.2f", meanReads(rows, w, arm, r -> r.result().read().p99())),
                        number("%.2f", meanWrites(rows, w, arm, r -> r.result().write().median())),
                        number("%.2f", meanWrites(rows, w, arm, r -> r.result().write().p99())),
                        number("%.0f", mean(rows, w, arm, Row::nodeCpuMicrosPerOp)));
            }
        }
        out.println("(latencies in ms; node CPU counts both clusters' nodes)");
        out.printf("%n%-11s %14s %18s %19s %22s %19s %24s%n", "workload", "rf3/rf1 op/s", "rf3/rf1 read p99", "rf3/rf1 write p99",
                "rf3/quorum-rf3 op/s", "rf3/one-rf3 op/s", "plain one-rf3/rf1 op/s");
        for (Workload w : WORKLOADS) {
            double rf3 = mean(rows, w, FASTCCS_RF3, r -> r.result().opRate());
            out.printf(Locale.ROOT, "%-11s %14s %18s %19s %22s %19s %24s%n", w.name(),
                    number("%.2f", rf3 / mean(rows, w, FASTCCS_RF1, r -> r.result().opRate())),
                    number("%.2fx", meanReads(rows, w, FASTCCS_RF3, r -> r.result().read().p99())
                            / meanReads(rows, w, FASTCCS_RF1, r -> r.result().read().p99())),
                    number("%.2fx", meanWrites(rows, w, FASTCCS_RF3, r -> r.result().write().p99())
                            / meanWrites(rows, w, FASTCCS_RF1, r -> r.result().write().p99())),
                    number("%.2f", rf3 / mean(rows, w, CQL_QUORUM_RF3, r -> r.result().opRate())),
                    number("%.2f", rf3 / mean(rows, w, CQL_ONE_RF3, r -> r.result().opRate())),
                    number("%.2f", mean(rows, w, CQL_ONE_RF3, r -> r.result().opRate())
                            / mean(rows, w, CQL_ONE_RF1, r -> r.result().opRate())));
        }
    }

    /** "-" for a figure nobody measured (an arm whose runs all failed, reads in a write-only workload). */
    private static String number(String format, double x) {
        return Double.isFinite(x) ? String.format(Locale.ROOT, format, x) : "-";
    }

    private static double mean(List<Row> rows, Workload w, Arm arm, ToDoubleFunction<Row> f) {
        return rows.stream().filter(r -> r.workload().equals(w.name()) && r.arm().equals(arm)).mapToDouble(f).average().orElse(Double.NaN);
    }

    /** Over the runs that read: a run without reads has no read latency, not a latency of 0. */
    private static double meanReads(List<Row> rows, Workload w, Arm arm, ToDoubleFunction<Row> f) {
        return mean(rows.stream().filter(r -> r.result().reads() > 0).toList(), w, arm, f);
    }

    private static double meanWrites(List<Row> rows, Workload w, Arm arm, ToDoubleFunction<Row> f) {
        return mean(rows.stream().filter(r -> r.result().writes() > 0).toList(), w, arm, f);
    }

    public static void main(String[] args) {
        io.fastccs.tools.cluster.ToolLogging.quiet();
        CommandLine cl = new CommandLine(new ReplicationExperiment());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            System.err.println("experiment replication: " + ex.getMessage());
            return ex instanceof IllegalArgumentException ? 2 : 3;
        });
        System.exit(cl.execute(args));
    }
}
