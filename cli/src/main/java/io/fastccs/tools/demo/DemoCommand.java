package io.fastccs.tools.demo;

import io.fastccs.tools.cluster.LocalCluster;
import io.fastccs.tools.cluster.Ports;
import io.fastccs.tools.cluster.StartOptions;
import io.fastccs.tools.cluster.ToolClock;
import io.fastccs.tools.stress.StressCommand;
import io.fastccs.tools.stress.StressOptions;
import io.fastccs.tools.stress.StressResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code bin/fastccs demo}: starts a local 3-node Cassandra cluster with FastCCS, runs the thesis's default workload
 * (Table 4.1: 5 keys per read and per write, 128-byte values, 5% writes, gaussian keys) for a short fixed time with a
 * line per second, once through FastCCS and once through plain Cassandra at consistency ONE (the stress tool's
 * {@code fastccs} and {@code cql} modes), checks both recorded histories for TCC anomalies, prints a side-by-side
 * table and stops the cluster. Exit code 1 when the FastCCS history has an anomaly.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Starts a local 3-node Cassandra 5.0 cluster with FastCCS, each partition replicated on three "
                + "nodes, runs the Table 4.1 workload for a short time (a line per second) through FastCCS and "
                + "through plain Cassandra at the same replication (a keyspace at replication factor 3, "
                + "consistency QUORUM, so that an acknowledged write is on a majority in both), checks both "
                + "histories for TCC anomalies, prints a side-by-side table, stops the cluster. --rf 1 runs the "
                + "thesis's shape (one node per partition, ONE)."})
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--nodes", description = "nodes (default: ${DEFAULT-VALUE})")
    int nodes = 3;
    @Option(names = "--duration", description = "measured seconds of workload per mode (default: ${DEFAULT-VALUE})")
    int seconds = 20;
    @Option(names = "--warmup", description = "warm-up seconds per mode, not measured (default: ${DEFAULT-VALUE})")
    int warmup = 5;
    @Option(names = "--threads", description = "client sessions (default: ${DEFAULT-VALUE})")
    int threads = 16;
    @Option(names = "--keys", description = "key population, gaussian(1..KEYS) (default: ${DEFAULT-VALUE})")
    int keys = 10_000;
    @Option(names = "--rf", paramLabel = "R", description = "replicas per partition, and plain Cassandra's keyspace "
            + "replication factor (default: 3 with 3 or more nodes, else 1)")
    Integer rf;
    @Option(names = "--dir", description = "cluster directory (default: <repo>/.cluster-demo)")
    Path dir;
    @Option(names = "--keep", description = "leave the cluster running afterwards")
    boolean keep;
    @Option(names = "--running", description = "use the local cluster already running (default ports) instead of starting one")
    boolean running;

    @Override
    public Integer call() throws Exception {
        int replicas = rf != null ? rf : LocalCluster.defaultReplicationFactor(nodes);
        if (replicas < 1 || replicas > nodes) throw new IllegalArgumentException("--rf must be between 1 and --nodes (" + nodes + "), not " + replicas);
        if (running) return runWorkloads(Ports.DEFAULT, replicas);
        Path clusterDir = dir != null ? dir : LocalCluster.repoRoot().orElse(Path.of(".")).resolve(".cluster-demo");
        LocalCluster cluster = LocalCluster.at(clusterDir, line -> System.out.println("  " + line));
        System.out.printf("Starting a local %d-node Cassandra 5.0.9 cluster with FastCCS in %s, %s ...%n", nodes, clusterDir,
                replicas == 1 ? "one node per partition (replication factor 1, as in the thesis)"
                        : "each partition replicated on " + replicas + " nodes (a Raft group; one node down stops nothing)");
        long t0 = ToolClock.nanoTime();
        cluster.start(StartOptions.nodes(nodes).withNodeSettings(Map.of(LocalCluster.REPLICATION_FACTOR, Integer.toString(replicas))));
        System.out.printf("cluster serving after %.1f s%n%n", (ToolClock.nanoTime() - t0) / 1e9);
        int exit;
        try {
            exit = runWorkloads(cluster.ports(), replicas);
        } finally {
            if (keep) System.out.println("cluster left running: bin/fastccs cluster stop --dir " + clusterDir);
            else {
                System.out.println("stopping the cluster ...");
                cluster.stop();
                cluster.remove();
            }
        }
        return exit;
    }

    /** The same workload through FastCCS and through plain Cassandra (the stress tool's cql mode), then a side-by-side table. */
    private int runWorkloads(Ports ports, int replicas) throws Exception {
        String consistency = replicas == 1 ? "ONE" : "QUORUM";
        List<StressResult> results = new ArrayList<>();
        for (String mode : List.of("fastccs", "cql")) {
            List<String> args = new ArrayList<>(List.of("mixed", "duration=" + seconds + "s"));
            if (mode.equals("cql")) args.add("cl=" + consistency);
            args.addAll(List.of("-rate", "threads=" + threads,
                    "-pop", "dist=gaussian(1.." + keys + ")", "-warmup", "duration=" + warmup + "s", "-mode", mode, "-check",
                    "-port", "native=" + ports.cql(), "fastccs=" + ports.fastccs()));
            StringBuilder hosts = new StringBuilder();
            for (int k = 1; k <= nodes; k++) hosts.append(k > 1 ? "," : "").append(ports.address(k));
            args.addAll(List.of("-node", hosts.toString()));
            if (mode.equals("cql")) args.addAll(List.of("-schema", "replication(factor=" + replicas + ")"));
            StressOptions o = StressOptions.parse(args.toArray(String[]::new));
            System.out.println("== " + (mode.equals("fastccs") ? "FastCCS, " + replicas + " replica" + (replicas == 1 ? "" : "s") + " per partition"
                    : "plain Cassandra, keyspace replication factor " + replicas + ", consistency " + consistency + " (cql)")
                    + ": " + o.describe());
            results.add(StressCommand.run(o, System.out));
            System.out.println();
        }
        StressResult f = results.get(0), e = results.get(1);
        System.out.printf("Side by side (same cluster, keys, threads; Table 4.1 workload; %d replica%s per key, writes acknowledged by %s):%n",
                replicas, replicas == 1 ? "" : "s", replicas == 1 ? "one node" : "a majority");
        System.out.printf("%-28s %14s %14s%n", "", "fastccs", "cql");
        row("throughput (txn/s)", "%,.0f", f.opRate(), e.opRate());
        row("latency mean (ms)", "%.2f", f.all().mean(), e.all().mean());
        row("latency median (ms)", "%.2f", f.all().median(), e.all().median());
        row("latency p95 (ms)", "%.2f", f.all().p95(), e.all().p95());
        row("latency p99 (ms)", "%.2f", f.all().p99(), e.all().p99());
        row("latency p99.9 (ms)", "%.2f", f.all().p999(), e.all().p999());
        row("latency max (ms)", "%.2f", f.all().max(), e.all().max());
        row("errors", "%.0f", f.errors(), e.errors());
        row("second-round reads (%)", "%.3f", 100 * f.secondRoundShare(), 100 * e.secondRoundShare());
        row("TCC anomalies in history", "%.0f", f.check().totalAnomalies(), e.check().totalAnomalies());
        System.out.printf(Locale.ROOT, "fastccs/cql throughput: %.2f; TCC check: fastccs %s, cql %s%n",
                f.opRate() / Math.max(1e-9, e.opRate()), f.check().ok() ? "OK" : "VIOLATED",
                e.check().ok() ? "OK (no anomaly caught this time)" : "VIOLATED, as expected without transactions " + e.check().counts());
        // A demo that committed nothing, or whose FastCCS history is not TCC, has failed (CI runs it).
        if (f.opRate() <= 0 || f.reads() + f.writes() == 0) {
            System.out.println("demo FAILED: FastCCS completed no transaction");
            return 1;
        }
        return f.check().ok() ? 0 : 1;
    }

    private static void row(String name, String format, double fastccs, double cql) {
        System.out.printf(Locale.ROOT, "%-28s %14s %14s%n", name, String.format(Locale.ROOT, format, fastccs),
                String.format(Locale.ROOT, format, cql));
    }

    public static void main(String[] args) {
        io.fastccs.tools.cluster.ToolLogging.quiet();
        CommandLine cl = new CommandLine(new DemoCommand());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            System.err.println("demo: " + ex.getMessage());
            return 2;
        });
        System.exit(cl.execute(args));
    }
}
