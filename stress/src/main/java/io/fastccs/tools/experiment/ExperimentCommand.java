package io.fastccs.tools.experiment;

import io.fastccs.tools.progress.Progress;

import io.fastccs.tools.cluster.LocalCluster;
import io.fastccs.tools.cluster.NodeStatus;
import io.fastccs.tools.cluster.Ports;
import io.fastccs.tools.cluster.StartOptions;
import io.fastccs.tools.stress.StressCommand;
import io.fastccs.tools.stress.StressOptions;
import io.fastccs.tools.stress.StressResult;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code bin/fastccs experiment NAME}: the thesis's chapter 4 figures on a local cluster. Every point runs each mode
 * on the same cluster, keys and threads, one after the other (the order alternates between repetitions so drift does
 * not favour one mode), and the CSV keeps every run so the ratio FastCCS / cql (plain Cassandra) can be taken per point.
 * Older CSV files name plain Cassandra {@code eventual} (that mode meant CQL then); bin/fastccs plot reads a file with
 * no {@code cql}, {@code eiger} or {@code wren} row as such a file and maps {@code eventual} to {@code cql}.
 */
@Command(name = "experiment", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs one of the thesis's figures on a local cluster, every mode side by side per point (FastCCS, "
                + "Eiger, Wren and eventual on the same nodes and port, the cluster running all four, and plain Cassandra "
                + "through CQL; batch where it applies), and "
                + "writes results/<name>.csv (one row per run; latency-cdf.csv for 'latency'). Plot with "
                + "bin/fastccs plot.",
                "Names: latency (fig. 4.1), keys-per-read (4.2), keys-per-write (4.3), value-size (4.4), "
                + "write-fraction (4.5), partitions (4.7), threads (saturation: throughput against client "
                + "threads), write-batch (write-only transactions against logged batches), skew (hot keys: Zipf "
                + "parameter 0.6, 1.0, 1.4 over 1,000 keys by write fraction 0.05, 0.2, 0.5, points ZIPF/WRITE_FRACTION; "
                + "every run also reports how stale its reads were), hot-counter (one counter at 64 threads: FastCCS's add, a "
                + "blind put, read-modify-write with FastCCS and eventual, Cassandra's counter column, and FastCCS's add over "
                + "1,000 counters; points OP/MODE[/KEYS], --threads other than 16 replaces the 64), claret (Claret's raw mix of "
                + "4 set adds or 4 set sizes per transaction over 10,000 keys, points ZIPF/ADDS, Zipf 0.6, 1.0, 1.4 by adds 0.2, "
                + "0.5; FastCCS with typed sets, the other modes with sets as plain values; lost adds per run), retwis (a Twitter "
                + "clone on sets in every mode, lost timeline entries and follows), all (every one of them on one cluster). "
                + "Figures 4.6 and 4.8 (up to 1024 partitions) come from the simulator: "
                + "bin/fastccs experiment sim-rounds and sim-skew. 'replication' (FastCCS at replication factor 3 "
                + "against 1 and against plain Cassandra at factor 3) runs two clusters of its own, with its own "
                + "options: bin/fastccs experiment replication --help."})
public final class ExperimentCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "NAME", description = "latency, keys-per-read, keys-per-write, value-size, write-fraction, partitions, threads, write-batch, skew or all (replication: see above)")
    String name;
    @Option(names = "--dir", paramLabel = "DIR", description = "the cluster directory; a cluster already running there is used as it is (default: <repo>/.cluster-experiments)")
    Path dir;
    @Option(names = "--nodes", description = "nodes when the command starts the cluster (default: ${DEFAULT-VALUE})")
    int nodes = 3;
    @Option(names = "--subnet", description = "loopback subnet when the command creates the cluster, nodes on 127.0.S.k (default: 0)")
    Integer subnet;
    @Option(names = "--node", split = ",", paramLabel = "HOST",
            description = "run against these nodes of a cluster started elsewhere (e.g. by ansible/deploy.yml) instead of a local one; CQL 9042 and FastCCS 9142")
    List<String> remoteNodes;
    @Option(names = "--keep", description = "leave a cluster this command started running")
    boolean keep;
    @Mixin
    RunOptions run = new RunOptions();
    @Option(names = "--out", paramLabel = "DIR", description = "where the CSV files go (default: ${DEFAULT-VALUE})")
    Path out = Path.of("results");
    @Option(names = "--points", split = ",", paramLabel = "V", description = "the values of the varied parameter instead of the defaults")
    List<String> points;
    @Option(names = "--prime", paramLabel = "SECONDS", description = "unmeasured mixed load per mode before the first "
            + "measured run, so that no mode is measured while the nodes still compile its hot paths (default: "
            + "${DEFAULT-VALUE}; 0: none)")
    int primeSeconds = 30;
    @Option(names = "--cassandra-setting", paramLabel = "NAME=VALUE",
            description = "a cassandra.yaml setting for the nodes of a cluster this command starts (as cluster start "
                    + "--cassandra-setting; e.g. commitlog_sync=periodic and commitlog_sync_period=10000ms); repeatable")
    Map<String, String> cassandraSettings = new LinkedHashMap<>();
    @Option(names = "--modes", split = ",", paramLabel = "MODE",
            description = "only these of the experiment's modes (default: all of them: fastccs, eiger, wren, eventual, cql, "
                    + "and batch where it applies); a cluster not started by this command must run the protocols asked "
                    + "for (cluster start --protocol " + ALL_PROTOCOLS + ")")
    List<String> modes;

    private long[] nodePids = new long[0];
    /** The points of hot-counter (OP/MODE[/KEYS]) when that is the experiment run; null otherwise. */
    private List<String> hotCounterPoints;
    /** The points (ZIPF/ADDS) and modes of claret when that is the experiment run; null otherwise. */
    private List<String> claretPoints;
    private List<StressOptions.Mode> claretModes;
    /** The modes of retwis when that is the experiment run; null otherwise. */
    private List<StressOptions.Mode> retwisModes;
    /** The local nodes' JMX ports, for their traffic counters (none for nodes elsewhere). */
    private List<Integer> jmxPorts = List.of();
    private int failedRuns;

    /** One figure: which parameter it varies, over which values, in which modes. */
    record Experiment(String name, String figure, String parameter, List<String> values, List<StressOptions.Mode> modes,
                      String command) {
    }

    /** The thesis's four lines (FastCCS, Eiger, Wren and eventual on the same host) and plain Cassandra through CQL. */
    private static final List<StressOptions.Mode> COMPARED = List.of(StressOptions.Mode.FASTCCS, StressOptions.Mode.EIGER,
            StressOptions.Mode.WREN, StressOptions.Mode.EVENTUAL, StressOptions.Mode.CQL);
    private static final List<StressOptions.Mode> ALL_MODES = List.of(StressOptions.Mode.FASTCCS, StressOptions.Mode.EIGER,
            StressOptions.Mode.WREN, StressOptions.Mode.EVENTUAL, StressOptions.Mode.CQL, StressOptions.Mode.BATCH);
    /** The node setting under which a cluster this command starts runs every compared protocol. */
    static final String ALL_PROTOCOLS = "fastccs,eiger,wren,eventual";

    static final Map<String, Experiment> EXPERIMENTS = new LinkedHashMap<>();

    static {
        add(new Experiment("latency", "4.1", "workload", List.of("default"), ALL_MODES, "mixed"));
        add(new Experiment("keys-per-read", "4.2", "keys-per-read", List.of("1", "2", "5", "10", "20"), COMPARED, "mixed"));
        add(new Experiment("keys-per-write", "4.3", "keys-per-write", List.of("1", "2", "5", "10", "20"), COMPARED, "mixed"));
        add(new Experiment("value-size", "4.4", "value-size", List.of("32", "128", "512", "2048", "8192"), COMPARED, "mixed"));
        add(new Experiment("write-fraction", "4.5", "write-fraction", List.of("0.01", "0.05", "0.1", "0.2", "0.5"), COMPARED, "mixed"));
        add(new Experiment("partitions", "4.7", "partitions", List.of("1", "2", "3"), COMPARED, "mixed"));
        add(new Experiment("threads", "-", "threads", List.of("4", "8", "16", "32", "64"), COMPARED, "mixed"));
        add(new Experiment("write-batch", "-", "workload", List.of("write-only"), ALL_MODES, "write"));
        // Hot keys: each point is a Zipf parameter over SKEW_KEYS keys and a write fraction.
        add(new Experiment("skew", "-", "zipf/write-fraction", skewPoints(), COMPARED, "mixed"));
    }

    /** The skew experiment's population: a thousand keys. */
    static final int SKEW_KEYS = 1000;

    private static List<String> skewPoints() {
        List<String> points = new ArrayList<>();
        for (String zipf : List.of("0.6", "1.0", "1.4"))
            for (String writeFraction : List.of("0.05", "0.2", "0.5")) points.add(zipf + "/" + writeFraction);
        return points;
    }

    private static void add(Experiment e) {
        EXPERIMENTS.put(e.name(), e);
    }

    static final String CSV_HEADER = "experiment,figure,parameter,value,mode,rep,op_rate,reads,writes,errors,seconds,"
            + "mean_ms,read_p50_ms,read_p95_ms,read_p99_ms,write_p50_ms,write_p95_ms,write_p99_ms,second_round_pct,rounds_per_read,"
            + "node_cpu_us_per_op,client_cpu_us_per_op,load_avg_1m,frames_per_op,peer_frames_per_op,bytes_per_op,"
            + "stale_read_pct,staleness_mean_ms,staleness_p99_ms,"
            + "node_io_us_per_op,node_serve_us_per_op,node_storage_us_per_op,node_jvm_us_per_op,node_other_us_per_op,"
            + "mutations_per_write";

    @Override
    public Integer call() throws Exception {
        List<Experiment> chosen = new ArrayList<>();
        hotCounterPoints = null;
        if (name.equals(HotCounterExperiment.NAME)) {
            hotCounterPoints = new ArrayList<>(points != null ? points : HotCounterExperiment.POINTS);
            if (modes != null) {
                List<String> only = modes.stream().map(m -> StressOptions.Mode.parse(m).word()).toList();
                hotCounterPoints.removeIf(p -> p.split("/").length < 2 || !only.contains(p.split("/")[1]));
                if (hotCounterPoints.isEmpty()) throw new IllegalArgumentException("--modes " + String.join(",", modes) + ": none of them is a mode of " + name);
            }
            for (String p : hotCounterPoints) // every point parses before a cluster starts
                io.fastccs.tools.stress.CounterStress.parse(HotCounterExperiment.arguments(p, run.seconds, run.warmup, 1,
                        Ports.DEFAULT.cql(), Ports.DEFAULT.fastccs(), List.of(Ports.DEFAULT.address(1))));
        } else if (name.equals(ClaretExperiment.NAME)) {
            claretPoints = new ArrayList<>(points != null ? points : ClaretExperiment.POINTS);
            claretModes = modes == null ? ClaretExperiment.MODES : modes.stream().map(StressOptions.Mode::parse).toList();
            for (String p : claretPoints) for (StressOptions.Mode m : claretModes) // every run parses before a cluster starts
                io.fastccs.tools.stress.ClaretStress.parse(ClaretExperiment.arguments(p, m, run.seconds, run.warmup, run.threads,
                        Ports.DEFAULT.cql(), Ports.DEFAULT.fastccs(), List.of(Ports.DEFAULT.address(1))));
        } else if (name.equals(RetwisExperiment.NAME)) {
            if (points != null) throw new IllegalArgumentException("retwis has no points (its one workload runs in every mode)");
            retwisModes = modes == null ? RetwisExperiment.MODES : modes.stream().map(StressOptions.Mode::parse).toList();
            for (StressOptions.Mode m : retwisModes) // every run parses before a cluster starts
                io.fastccs.tools.stress.RetwisStress.parse(RetwisExperiment.arguments(m, run.seconds, run.warmup, run.threads,
                        Ports.DEFAULT.cql(), Ports.DEFAULT.fastccs(), List.of(Ports.DEFAULT.address(1))));
        } else if (name.equals("all")) chosen.addAll(EXPERIMENTS.values());
        else if (EXPERIMENTS.containsKey(name)) chosen.add(EXPERIMENTS.get(name));
        else throw new IllegalArgumentException("unknown experiment '" + name + "'; one of " + String.join(", ", EXPERIMENTS.keySet())
                + ", all, " + HotCounterExperiment.NAME + ", " + ClaretExperiment.NAME + ", " + RetwisExperiment.NAME + ", " + ReplicationExperiment.NAME);
        boolean typed = hotCounterPoints != null || claretPoints != null || retwisModes != null;
        if (points != null && chosen.size() != 1 && !typed) throw new IllegalArgumentException("--points goes with one experiment, not all");
        if (modes != null && !typed) {
            List<StressOptions.Mode> only = modes.stream().map(StressOptions.Mode::parse).toList();
            chosen.replaceAll(e -> new Experiment(e.name(), e.figure(), e.parameter(), e.values(),
                    e.modes().stream().filter(only::contains).toList(), e.command()));
            chosen.removeIf(e -> e.modes().isEmpty());
            if (chosen.isEmpty()) throw new IllegalArgumentException("--modes " + String.join(",", modes) + ": none of them is a mode of " + name);
        }

        // Every run's options parse before anything starts: a mistyped point must not cost a cluster start and a priming.
        for (Experiment e : chosen)
            for (String value : points != null ? points : e.values())
                for (StressOptions.Mode mode : e.modes())
                    StressOptions.parse(arguments(e, value, mode, Ports.DEFAULT, List.of(Ports.DEFAULT.address(1))));

        if (remoteNodes != null && !remoteNodes.isEmpty()) {
            System.out.println("Using the cluster of " + remoteNodes + " (node CPU is not metered there)");
            Files.createDirectories(out);
            for (Experiment e : chosen) run(e, Ports.DEFAULT, remoteNodes);
            if (hotCounterPoints != null) failedRuns += HotCounterExperiment.run(hotCounterPoints, run, run.threads != 16, out,
                    new long[0], Ports.DEFAULT.cql(), Ports.DEFAULT.fastccs(), remoteNodes);
            if (claretPoints != null) failedRuns += ClaretExperiment.run(claretPoints, claretModes, run, out, new long[0],
                    Ports.DEFAULT.cql(), Ports.DEFAULT.fastccs(), remoteNodes);
            if (retwisModes != null) failedRuns += RetwisExperiment.run(retwisModes, run, out, new long[0], Ports.DEFAULT.cql(),
                    Ports.DEFAULT.fastccs(), remoteNodes);
            return failures();
        }
        Path clusterDir = dir != null ? dir : LocalCluster.repoRoot().orElse(Path.of(".")).resolve(".cluster-experiments");
        LocalCluster cluster = LocalCluster.at(clusterDir, line -> System.out.println("  " + line));
        boolean started = false;
        if (!(cluster.exists() && cluster.status().stream().allMatch(NodeStatus::serving))) {
            System.out.printf("Starting a local %d-node cluster with FastCCS in %s ...%n", nodes, clusterDir);
            // Every protocol on the same nodes, so that every mode runs at every point without a restart between them.
            Map<String, String> settings = new LinkedHashMap<>(Map.of(LocalCluster.PROTOCOL, ALL_PROTOCOLS, LocalCluster.REPLICATION_FACTOR, "1"));
            cassandraSettings.forEach((k, v) -> settings.put(LocalCluster.CASSANDRA_SETTING_PREFIX + k, v));
            cluster.start(StartOptions.nodes(nodes).onSubnet(subnet != null ? subnet : StartOptions.SAME_SUBNET).withNodeSettings(settings));
            started = true;
        } else {
            System.out.printf("Using the cluster running in %s (%d nodes on %s..)%n", clusterDir, cluster.nodeCount(), cluster.ports().address(1));
            if (!cassandraSettings.isEmpty())
                System.out.println("  --cassandra-setting is left out: the cluster already runs with its own (stop it, or start it with them)");
        }
        // What the figures were measured on, in the log beside them (the commit log's sync mode changes them).
        System.out.println("  node settings: " + cluster.nodeSettings() + ", commitlog_sync: " + cluster.nodeSettings()
                .getOrDefault(LocalCluster.CASSANDRA_SETTING_PREFIX + "commitlog_sync", LocalCluster.DEFAULT_COMMITLOG_SYNC));
        try {
            Files.createDirectories(out);
            nodePids = cluster.status().stream().mapToLong(NodeStatus::pid).filter(pid -> pid > 0).toArray();
            jmxPorts = java.util.stream.IntStream.rangeClosed(1, cluster.nodeCount()).map(cluster.ports()::jmx).boxed().toList();
            List<String> hosts = new ArrayList<>();
            for (int k = 1; k <= cluster.nodeCount(); k++) hosts.add(cluster.ports().address(k));
            prime(chosen, cluster.ports(), hosts);
            for (Experiment e : chosen) run(e, cluster.ports(), hosts);
            // No priming here: its runs warm up on their own (-warmup), and the order alternates between repetitions.
            if (hotCounterPoints != null) failedRuns += HotCounterExperiment.run(hotCounterPoints, run, run.threads != 16, out,
                    nodePids, cluster.ports().cql(), cluster.ports().fastccs(), hosts);
            if (claretPoints != null) failedRuns += ClaretExperiment.run(claretPoints, claretModes, run, out, nodePids,
                    cluster.ports().cql(), cluster.ports().fastccs(), hosts);
            if (retwisModes != null) failedRuns += RetwisExperiment.run(retwisModes, run, out, nodePids, cluster.ports().cql(),
                    cluster.ports().fastccs(), hosts);
        } finally {
            if (started && !keep) {
                System.out.println("stopping the cluster ...");
                cluster.stop();
                cluster.remove();
            } else if (started) {
                System.out.println("cluster left running: bin/fastccs cluster stop --dir " + clusterDir);
            }
        }
        return failures();
    }

    /** Every mode of the chosen experiments once, unmeasured and unrecorded; a line per mode says how fast it ran. */
    private void prime(List<Experiment> chosen, Ports ports, List<String> hosts) {
        if (primeSeconds <= 0) return;
        List<StressOptions.Mode> modes = new ArrayList<>();
        for (Experiment e : chosen) for (StressOptions.Mode m : e.modes()) if (!modes.contains(m)) modes.add(m);
        System.out.printf("%n=== priming: %d s of mixed load per mode, not measured (the nodes' JIT compiles meanwhile)%n", primeSeconds);
        for (StressOptions.Mode mode : modes) {
            List<String> args = new ArrayList<>(List.of("mixed", "duration=" + primeSeconds + "s", "-rate", "threads=" + run.threads,
                    "-pop", "dist=gaussian(1.." + run.keys + ")", "-mode", mode.word(),
                    "-port", "native=" + ports.cql(), "fastccs=" + ports.fastccs(), "-node", String.join(",", hosts)));
            StressOptions o = StressOptions.parse(args.toArray(String[]::new));
            o.quiet = true;
            try {
                StressResult r = StressCommand.run(o, System.out);
                System.out.printf(Locale.ROOT, "  primed %-9s %,10.0f op/s%n", mode.word(), r.opRate());
            } catch (Exception failure) {
                System.out.println("  priming " + mode.word() + " failed (the measured runs follow anyway): " + failure);
            }
        }
    }

    private int failures() {
        if (failedRuns > 0) System.out.println(failedRuns + " run(s) failed and are left out of the CSV files");
        return failedRuns > 0 ? 1 : 0;
    }

    private void run(Experiment e, Ports ports, List<String> hosts) throws Exception {
        List<String> values = points != null ? points : e.values();
        Path csvFile = out.resolve(e.name() + ".csv");
        // Rows go to a file beside the CSV, which replaces it only once the experiment ends with at least one run: an
        // experiment cut short or whose runs all fail leaves the earlier results in place (writing the CSV directly once
        // lost a whole sweep that way).
        Path partial = out.resolve(e.name() + ".csv.partial");
        Instant began = Instant.now();
        System.out.printf("%n=== %s (figure %s): %s over %s, modes %s, %d s + %d s warm-up per run, %s threads, %d repetition%s%n",
                e.name(), e.figure(), e.parameter(), values, e.modes(), run.seconds, run.warmup,
                e.parameter().equals("threads") ? "varied" : Integer.toString(run.threads), run.reps, run.reps == 1 ? "" : "s");
        List<Row> rows = new ArrayList<>();
        Map<String, Histogram> cdf = new LinkedHashMap<>();
        int runsTotal = values.size() * run.reps * e.modes().size(), runsDone = 0;
        System.out.println("  rows go to " + partial + " until the experiment ends");
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(partial))) {
            csv.println(CSV_HEADER);
            for (String value : values) {
                for (int rep = 1; rep <= run.reps; rep++) {
                    for (StressOptions.Mode mode : RunTable.orderOf(e.modes(), rep)) {
                        StressOptions o = StressOptions.parse(arguments(e, value, mode, ports, hosts));
                        o.quiet = true;
                        runsDone++;
                        System.out.println(runHeader(runsDone, runsTotal, began, e.parameter(), value, mode.word(), rep, o));
                        MeteredRun m = MeteredRun.of(o, nodePids, jmxPorts);
                        if (m == null) {
                            failedRuns++;
                            continue;
                        }
                        StressResult r = m.result();
                        Row row = new Row(e, value, mode, rep, m);
                        rows.add(row);
                        csv.println(row.csv());
                        csv.flush();
                        System.out.println(runSummary(m));
                        if (e.name().equals("latency")) {
                            cdf.computeIfAbsent(mode.word() + ",read", k -> new Histogram(3)).add(r.readHistogram());
                            cdf.computeIfAbsent(mode.word() + ",write", k -> new Histogram(3)).add(r.writeHistogram());
                        }
                    }
                }
            }
        }
        if (rows.isEmpty()) {
            Files.delete(partial);
            System.out.printf("no run of %s succeeded; %s is left as it was%n", e.name(), csvFile);
            return;
        }
        Files.move(partial, csvFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        if (!cdf.isEmpty()) writeCdf(out.resolve("latency-cdf.csv"), cdf);
        printRatios(e, values, rows, System.out);
        System.out.printf("wrote %s in %.0f s%n", csvFile, Duration.between(began, Instant.now()).toMillis() / 1e3);
    }

    /** The line before each run: where the experiment stands, the point, the mode and what the run will do. */
    static String runHeader(int runsDone, int runsTotal, Instant began, String parameter, String value, String mode, int rep, StressOptions o) {
        double elapsed = Duration.between(began, Instant.now()).toMillis() / 1e3;
        String left = runsDone > 1 ? ", about " + Progress.duration(elapsed / (runsDone - 1) * (runsTotal - runsDone + 1)) + " left" : "";
        return String.format("--- run %d of %d (%s elapsed%s) %s=%s mode=%s rep %d: %s", runsDone, runsTotal,
                Progress.duration(elapsed), left, parameter, value, mode, rep, o.describe());
    }

    /** The line after each run: its throughput, latencies, second rounds, errors, CPU and (if known) frames. */
    static String runSummary(MeteredRun m) {
        StressResult r = m.result();
        String frames = Double.isNaN(m.framesPerOp()) ? "" : String.format(Locale.ROOT, "  frames per op %.2f (%.2f between partitions), %.0f bytes",
                m.framesPerOp(), m.peerFramesPerOp(), m.bytesPerOp());
        if (!Double.isNaN(m.mutationsPerWrite())) frames += String.format(Locale.ROOT, "  mutations per write %.2f %s",
                m.mutationsPerWrite(), byKind(m.mutationsPerWriteByKind()));
        return String.format(Locale.ROOT, "    %,.0f op/s  read p50 %.2f p99 %.2f ms  write p50 %.2f p99 %.2f ms  second round %.3f%%  stale %.3f%% (p99 %.1f ms)  errors %d  CPU per op: nodes %.0f us%s, client %.0f us%s  (load %.1f)",
                r.opRate(), r.read().median(), r.read().p99(), r.write().median(), r.write().p99(),
                100 * r.secondRoundShare(), 100 * r.staleReads().staleShare(), r.staleReads().p99Ms(), r.errors(),
                m.nodeCpuMicrosPerOp(), byWork(m), m.clientCpuMicrosPerOp(), frames, m.loadAverage());
    }

    /** " (io 38, serve 19, storage 11, jvm 5, other 3)": the nodes' CPU per op by kind of work; empty if unknown. */
    private static String byWork(MeteredRun m) {
        if (m.nodeCpuByWorkPerOp().values().stream().anyMatch(v -> Double.isNaN(v))) return "";
        StringBuilder s = new StringBuilder(" (");
        for (Map.Entry<CpuMeter.Work, Double> w : m.nodeCpuByWorkPerOp().entrySet())
            s.append(s.length() > 2 ? ", " : "").append(w.getKey().word()).append(' ').append(String.format(Locale.ROOT, "%.0f", w.getValue()));
        return s.append(')').toString();
    }

    /** "(prepare 2.61, version 5.00, ...)": the mutations per write by kind; empty if unknown. */
    private static String byKind(Map<String, Double> perKind) {
        if (perKind.isEmpty()) return "";
        StringBuilder s = new StringBuilder("(");
        perKind.forEach((kind, n) -> s.append(s.length() > 1 ? ", " : "").append(kind).append(' ').append(String.format(Locale.ROOT, "%.2f", n)));
        return s.append(')').toString();
    }

    /** One row of CSV_HEADER. */
    static String csvRow(String experiment, String figure, String parameter, String value, String mode, int rep, MeteredRun m) {
        StressResult r = m.result();
        Map<CpuMeter.Work, Double> w = m.nodeCpuByWorkPerOp();
        return String.format(Locale.ROOT, "%s,%s,%s,%s,%s,%d,%.1f,%d,%d,%d,%.2f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%.5f,%.1f,%.1f,%.2f,%s,%s,%s,%.4f,%.2f,%.2f,%s,%s,%s,%s,%s,%s",
                experiment, figure, parameter, value, mode, rep,
                r.opRate(), r.reads(), r.writes(), r.errors(), r.seconds(), r.all().mean(), r.read().median(), r.read().p95(),
                r.read().p99(), r.write().median(), r.write().p95(), r.write().p99(), 100 * r.secondRoundShare(), r.roundsPerRead(),
                m.nodeCpuMicrosPerOp(), m.clientCpuMicrosPerOp(), m.loadAverage(),
                known("%.3f", m.framesPerOp(), ""), known("%.3f", m.peerFramesPerOp(), ""), known("%.1f", m.bytesPerOp(), ""),
                100 * r.staleReads().staleShare(), r.staleReads().meanMs(), r.staleReads().p99Ms(),
                known("%.1f", w.get(CpuMeter.Work.IO), ""), known("%.1f", w.get(CpuMeter.Work.SERVE), ""),
                known("%.1f", w.get(CpuMeter.Work.STORAGE), ""), known("%.1f", w.get(CpuMeter.Work.JVM), ""),
                known("%.1f", w.get(CpuMeter.Work.OTHER), ""), known("%.2f", m.mutationsPerWrite(), ""));
    }

    /** {@code value} formatted, or {@code unknown} for NaN (empty in the CSV, a dash in the tables). */
    private static String known(String format, double value, String unknown) {
        return Double.isNaN(value) ? unknown : String.format(Locale.ROOT, format, value);
    }

    String[] arguments(Experiment e, String value, StressOptions.Mode mode, Ports ports, List<String> hosts) {
        String threadCount = e.parameter().equals("threads") ? value : Integer.toString(run.threads);
        String population = "gaussian(1.." + run.keys + ")";
        if (e.name().equals("skew")) population = "zipf(1.." + SKEW_KEYS + "," + skewPart(value, 0) + ")";
        List<String> args = new ArrayList<>(List.of(e.command(), "duration=" + run.seconds + "s", "-rate", "threads=" + threadCount,
                "-pop", "dist=" + population, "-warmup", "duration=" + run.warmup + "s",
                "-mode", mode.word(), "-port", "native=" + ports.cql(), "fastccs=" + ports.fastccs()));
        args.addAll(List.of("-node", String.join(",", hosts)));
        switch (e.parameter()) {
            case "keys-per-read", "keys-per-write", "value-size", "write-fraction", "partitions" ->
                    args.addAll(List.of("-txn", e.parameter() + "=" + value));
            case "zipf/write-fraction" -> args.addAll(List.of("-txn", "write-fraction=" + skewPart(value, 1)));
            default -> { }
        }
        return args.toArray(String[]::new);
    }

    /** Part {@code index} of a skew point {@code ZIPF/WRITE_FRACTION}, checked to be a number. */
    static String skewPart(String point, int index) {
        String[] parts = point.split("/");
        try {
            if (parts.length == 2) {
                Double.parseDouble(parts[index]);
                return parts[index];
            }
        } catch (NumberFormatException notANumber) {
            // said below
        }
        throw new IllegalArgumentException("a skew point is ZIPF/WRITE_FRACTION (e.g. 1.0/0.2), got '" + point + "'");
    }

    /** Percentile, latency pairs of each mode's reads and writes over all repetitions: the CDF of figure 4.1. */
    private static void writeCdf(Path file, Map<String, Histogram> cdf) throws IOException {
        double[] percentiles = percentiles();
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
            w.println("mode,op,percentile,latency_ms");
            for (var entry : cdf.entrySet()) {
                if (entry.getValue().getTotalCount() == 0) continue;
                for (double p : percentiles)
                    w.printf(Locale.ROOT, "%s,%.3f,%.3f%n", entry.getKey(), p, entry.getValue().getValueAtPercentile(p) / 1000.0);
            }
        }
        System.out.println("wrote " + file);
    }

    static double[] percentiles() {
        List<Double> ps = new ArrayList<>();
        for (int p = 1; p < 90; p++) ps.add((double) p);
        for (double p = 90; p < 99; p += 0.5) ps.add(p);
        for (double p : new double[] {99, 99.5, 99.9, 99.95, 99.99, 100}) ps.add(p);
        return ps.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * Per value: each mode's mean throughput and p99s, and FastCCS's throughput over each mode's (how far ahead of it
     * FastCCS is; over same-host eventual it is the cost of TCC).
     */
    static void printRatios(Experiment e, List<String> values, List<Row> rows, PrintStream out) {
        out.printf("%n%s (figure %s): mean over repetitions%n", e.name(), e.figure());
        out.printf("%-19s %-9s %12s %12s %12s %12s %12s %14s %10s %10s %9s %13s%n", e.parameter(), "mode", "op/s", "read p99 ms", "write p99 ms",
                "2nd round %", "fastccs / it", "node CPU us/op", "frames/op", "bytes/op", "stale %", "stale p99 ms");
        for (String value : values) {
            double fastccs = mean(rows, value, StressOptions.Mode.FASTCCS, Row::opRate);
            for (StressOptions.Mode mode : e.modes()) {
                double rate = mean(rows, value, mode, Row::opRate);
                out.printf(Locale.ROOT, "%-19s %-9s %,12.0f %12.2f %12.2f %12.3f %12s %14.0f %10s %10s %9.3f %13.1f%n", value, mode.word(), rate,
                        mean(rows, value, mode, r -> r.result().read().p99()), mean(rows, value, mode, r -> r.result().write().p99()),
                        100 * mean(rows, value, mode, r -> r.result().secondRoundShare()),
                        mode != StressOptions.Mode.FASTCCS && fastccs > 0 && rate > 0 ? String.format(Locale.ROOT, "%.2f", fastccs / rate) : "-",
                        mean(rows, value, mode, Row::nodeCpuMicrosPerOp),
                        known("%.2f", mean(rows, value, mode, r -> r.metered().framesPerOp()), "-"),
                        known("%.0f", mean(rows, value, mode, r -> r.metered().bytesPerOp()), "-"),
                        100 * mean(rows, value, mode, r -> r.result().staleReads().staleShare()),
                        mean(rows, value, mode, r -> r.result().staleReads().p99Ms()));
            }
        }
    }

    private static double mean(List<Row> rows, String value, StressOptions.Mode mode, java.util.function.ToDoubleFunction<Row> f) {
        return rows.stream().filter(r -> r.value().equals(value) && r.mode() == mode).mapToDouble(f).average().orElse(Double.NaN);
    }

    record Row(Experiment experiment, String value, StressOptions.Mode mode, int rep, MeteredRun metered) {
        StressResult result() {
            return metered.result();
        }

        double opRate() {
            return result().opRate();
        }

        double nodeCpuMicrosPerOp() {
            return metered.nodeCpuMicrosPerOp();
        }

        String csv() {
            return csvRow(experiment.name(), experiment.figure(), experiment.parameter(), value, mode.word(), rep, metered);
        }
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals(ReplicationExperiment.NAME)) {
            // Two clusters and arms instead of one cluster and modes: a command of its own, named here like the others.
            ReplicationExperiment.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        io.fastccs.tools.cluster.ToolLogging.quiet();
        CommandLine cl = new CommandLine(new ExperimentCommand());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            System.err.println("experiment: " + ex.getMessage());
            return ex instanceof IllegalArgumentException ? 2 : 3;
        });
        System.exit(cl.execute(args));
    }
}
