package io.fastccs.tools.nemesis;

import io.fastccs.testkit.ClusterView;
import io.fastccs.testkit.CheckedWorkload;

import io.fastccs.tools.cluster.LocalCluster;
import io.fastccs.tools.cluster.Ports;
import io.fastccs.tools.cluster.StartOptions;
import io.fastccs.tools.cluster.ToolClock;
import io.fastccs.tools.cluster.ToolProperty;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code bin/fastccs nemesis}: fault injection on a local cluster of its own, seed after seed, every history checked;
 * or ({@code --waiting-bound}) the bounded-waiting experiment. Exit codes: 0 all seeds clean; 1 an anomaly, a lost
 * acknowledged write or an unsettled outcome; 2 usage; 3 the run failed.
 */
@Command(name = "nemesis", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Starts a local cluster (its own directory and loopback subnet), runs concurrent causal sessions "
                + "with a recorded history while a schedule drawn from each seed SIGKILLs and restarts a node, "
                + "SIGSTOPs one for a few seconds, kills clients in the middle of a write (request sent to some "
                + "participants only) and restarts every node at once, steps a node's clock forwards or back by up "
                + "to 3 s, and (--rf 3) cuts a group's leader off from its followers on the consensus port (a "
                + "test-only switch in the nodes' transport, set over JMX); then heals, settles every unknown outcome, reads every key and checks the "
                + "history (TCC, atomic visibility, no lost acknowledged write, no value never committed, "
                + "convergence).",
                "One CSV row per seed. --waiting-bound runs the bounded-waiting experiment instead; "
                + "--availability the availability experiment (each node in turn killed and kept down, the "
                + "failover window measured)."})
public final class NemesisCommand implements Callable<Integer> {
    @Option(names = "--seed", description = "the seed (with --seeds N: the first of N consecutive seeds); default random")
    Long seed;
    @Option(names = "--seeds", description = "how many seeds, or a comma-separated list of seeds (default: ${DEFAULT-VALUE})")
    String seeds = "1";
    @Option(names = "--duration", description = "faults per seed, e.g. 3m or 180s (default: ${DEFAULT-VALUE})")
    String duration = "3m";
    @Option(names = "--nodes", description = "cluster size (default: ${DEFAULT-VALUE})")
    int nodes = 3;
    @Option(names = "--rf", description = "replicas per partition: 3 makes each partition a Raft group, so a killed or "
            + "paused node's partitions fail over to another member, and adds faults on groups' leaders (cut off on "
            + "the Raft port); see --with-wipe for a wiped disk (default: ${DEFAULT-VALUE})")
    int rf = 1;
    @Option(names = "--subnet", description = "nodes on 127.0.SUBNET.k (default: ${DEFAULT-VALUE})")
    int subnet = 60;
    @Option(names = "--dir", description = "the cluster's directory, deleted at the end (default: .nemesis in the repository)")
    Path dir;
    @Option(names = "--threads", description = "client sessions, one thread each (default: ${DEFAULT-VALUE})")
    int threads = 8;
    @Option(names = "--keys", description = "keys per seed (default: ${DEFAULT-VALUE})")
    int keys = 200;
    @Option(names = "--out", description = "CSV, one row per seed (default: ${DEFAULT-VALUE})")
    Path out = Path.of("results/nemesis.csv");
    @Option(names = "--history-dir", description = "keep each seed's history (Plume text) in DIR/nemesis-SEED.txt")
    Path historyDir;
    @Option(names = "--keep", description = "leave the cluster running at the end")
    boolean keep;
    @Option(names = "--waiting-bound", description = "run the bounded-waiting experiment instead")
    boolean waitingBound;
    @Option(names = "--with-waiting-bound", description = "run the bounded-waiting experiment first, on the same cluster, then the seeds")
    boolean withWaitingBound;
    @Option(names = "--trials", description = "bounded waiting: trials per variant (default: ${DEFAULT-VALUE})")
    int trials = 20;
    @Option(names = "--kill-trials", description = "bounded waiting: trials with the coordinator SIGKILLed (default: ${DEFAULT-VALUE})")
    int killTrials = 3;
    @Option(names = "--waiting-out", description = "bounded waiting CSV (default: ${DEFAULT-VALUE})")
    Path waitingOut = Path.of("results/waiting-bound.csv");
    @Option(names = "--with-wipe", description = "with --rf 3: the schedule also wipes a node's disk and starts it as a "
            + "replacement of itself (WIPE_REPLACE; opt-in while Cassandra's replacement bootstrap is unreliable under load)")
    boolean withWipe;
    @Option(names = "--availability", description = "run the availability experiment instead: each node in turn SIGKILLed "
            + "and kept down (--down), the failover window and the transactions that succeed outside it measured, the "
            + "history checked (use with --rf 3)")
    boolean availability;
    @Option(names = "--whole", description = "availability: before each kill, wait until every partition is led by "
            + "its own node again (one node down at a time, never a kill while the last restarted node catches up)")
    boolean whole;
    @Option(names = "--kills", description = "availability: how many kills, the nodes in turn (default: ${DEFAULT-VALUE})")
    int kills = 6;
    @Option(names = "--down", description = "availability: how long each killed node stays down (default: ${DEFAULT-VALUE})")
    String down = "60s";
    @Option(names = "--availability-out", description = "availability CSV, one row per kill (default: ${DEFAULT-VALUE})")
    Path availabilityOut = Path.of("results/availability.csv");

    public static void main(String[] args) {
        io.fastccs.tools.cluster.ToolLogging.quiet();
        // Nodes restart again and again here, often all at once on a busy machine: give the ring time to converge.
        ToolProperty.PLUGIN_GRACE_SECONDS.setIfAbsent("240");
        System.exit(new CommandLine(new NemesisCommand()).execute(args));
    }

    static void log(String line) {
        System.out.println("[" + Instant.now().toString().substring(11, 19) + "] " + line);
        System.out.flush();
    }

    static Duration parseDuration(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("ms")) return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
        if (t.endsWith("s")) return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
        if (t.endsWith("m")) return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
        if (t.endsWith("h")) return Duration.ofHours(Long.parseLong(t.substring(0, t.length() - 1)));
        return Duration.ofSeconds(Long.parseLong(t));
    }

    List<Long> seedList() {
        if (seeds.contains(",")) return Arrays.stream(seeds.split(",")).map(String::trim).map(Long::parseLong).toList();
        int count = Integer.parseInt(seeds.trim());
        long first = seed != null ? seed : ThreadLocalRandom.current().nextLong(1, 1L << 40);
        List<Long> list = new ArrayList<>();
        for (int i = 0; i < count; i++) list.add(first + i);
        return list;
    }

    @Override
    public Integer call() throws Exception {
        Duration perSeed;
        List<Long> seedList;
        try {
            perSeed = parseDuration(duration);
            seedList = seedList();
            if (nodes < 2) throw new IllegalArgumentException("the nemesis needs at least 2 nodes");
        } catch (IllegalArgumentException e) {
            System.err.println("fastccs nemesis: " + e.getMessage());
            return 2;
        }
        Path clusterDir = dir != null ? dir : LocalCluster.repoRoot().map(r -> r.resolve(".nemesis")).orElse(Path.of(".nemesis"));
        LocalCluster cluster = LocalCluster.at(clusterDir, line -> log("[cluster] " + line));
        if (cluster.exists()) {
            log("removing the previous nemesis cluster in " + clusterDir);
            cluster.remove();
        }
        Thread hook = new Thread(() -> {
            if (!keep && cluster.exists()) {
                try {
                    cluster.remove();
                } catch (RuntimeException e) {
                    System.err.println("could not remove " + clusterDir + ": " + e);
                }
            }
        }, "nemesis-cluster-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            log("starting " + nodes + " nodes on 127.0." + subnet + ".1.." + nodes + " in " + clusterDir
                    + (rf > 1 ? ", replication factor " + rf : ""));
            cluster.start(StartOptions.nodes(nodes).onSubnet(subnet).withTimeout(Duration.ofMinutes(10))
                    .withNodeSettings(java.util.Map.of("replication_factor", Integer.toString(rf),
                            NodeClockOffsets.SETTING, "0ms", // opens the test-only clock control (CLOCK_OFFSET)
                            RaftCutOffs.SETTING, "none", // opens the test-only consensus cut-off (LEADER_CUT_OFF)
                            // A tenth of the default, so that the kills' restarts replay through the flushed-entries
                            // marker many times a run, not once in a while.
                            "raft_flush_interval", "2000")));
            if (withWipe) ToolProperty.NEMESIS_WIPE.set("true");
            ClusterView view = ClusterView.discover(Ports.forSubnet(subnet), nodes);
            int code;
            if (waitingBound) code = waitingBound(cluster, view);
            else if (availability) code = availability(cluster, view, seedList.get(0));
            else code = Math.max(withWaitingBound ? waitingBound(cluster, view) : 0, nemesis(cluster, view, seedList, perSeed));
            if (code != 0 && !keep) {
                // The nodes' logs are what explains a failed check: keep them (the nodes are stopped, not removed).
                keep = true;
                cluster.stop();
                log("the cluster's directory is kept for its node logs: " + clusterDir);
            }
            return code;
        } catch (Exception | Error e) {
            System.err.println("fastccs nemesis: the run failed: " + e);
            e.printStackTrace();
            return 3;
        } finally {
            if (!keep) {
                try {
                    cluster.remove();
                } catch (RuntimeException e) {
                    System.err.println("could not remove " + clusterDir + ": " + e);
                }
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down
            }
        }
    }

    static final String CSV_HEADER = "seed,duration_s,transactions,reads_ok,writes,writes_acknowledged,kill_restart,pause_resume,"
            + "dead_client,restart_all,leader_cut_off,clock_offset,unknown_outcomes,unknown_committed,unknown_aborted,dead_client_writes,"
            + "dead_client_committed,dead_client_aborted,unsettled,anomalies,lost_acknowledged,violations,sessions,keys_written,"
            + "reads,replication_factor,wipe_replace";

    static String csvRow(NemesisRun.Result r, int replicationFactor) {
        CheckedWorkload.Result w = r.workload();
        Map<NemesisRun.Fault, Integer> f = r.faults();
        return String.join(",", List.of(Long.toString(r.seed()), String.format(Locale.ROOT, "%.0f", r.ran().toMillis() / 1000.0),
                Long.toString(w.transactions()), Long.toString(w.readsOk()), Long.toString(w.writesAttempted()),
                Long.toString(w.writesAcknowledged()), Integer.toString(f.get(NemesisRun.Fault.KILL_RESTART)),
                Integer.toString(f.get(NemesisRun.Fault.PAUSE_RESUME)), Integer.toString(f.get(NemesisRun.Fault.DEAD_CLIENT)),
                Integer.toString(f.get(NemesisRun.Fault.RESTART_ALL)), Integer.toString(f.get(NemesisRun.Fault.LEADER_CUT_OFF)),
                Integer.toString(f.get(NemesisRun.Fault.CLOCK_OFFSET)), Long.toString(w.unknown()),
                Long.toString(w.unknownCommitted()), Long.toString(w.unknownAborted()),
                Long.toString(w.deadClientCommitted() + w.deadClientAborted() + w.deadClientUnsettled()),
                Long.toString(w.deadClientCommitted()), Long.toString(w.deadClientAborted()),
                Long.toString(w.unknownUnsettled() + w.deadClientUnsettled()), Integer.toString(w.check().totalAnomalies()),
                Long.toString(w.lostAcknowledged()), Integer.toString(w.violations().size()),
                Long.toString(w.historySessions()), Long.toString(w.keysWritten()), Long.toString(w.readsAttempted()),
                Integer.toString(replicationFactor), Integer.toString(f.get(NemesisRun.Fault.WIPE_REPLACE))));
    }

    /** Prints a seed's figures, as the tool and the tests show them. */
    public static void print(NemesisRun.Result r) {
        CheckedWorkload.Result w = r.workload();
        log(String.format("seed %d: %s in %.0f s", r.seed(), r.ok() ? "OK" : "FAILED", r.ran().toMillis() / 1000.0));
        log(String.format("  transactions %d (reads ok %d of %d; writes %d: %d acknowledged, %d known aborted)", w.transactions(),
                w.readsOk(), w.readsAttempted(), w.writesAttempted(), w.writesAcknowledged(), w.writesAbortedKnown()));
        log("  faults injected " + r.faults());
        log(String.format("  outcome unknown to the client: %d, settled %d committed / %d aborted (%d unsettled)", w.unknown(),
                w.unknownCommitted(), w.unknownAborted(), w.unknownUnsettled()));
        log(String.format("  dead clients' writes: %d, settled %d committed / %d aborted (%d unsettled)",
                w.deadClientCommitted() + w.deadClientAborted() + w.deadClientUnsettled(), w.deadClientCommitted(),
                w.deadClientAborted(), w.deadClientUnsettled()));
        log("  history: " + w.historySessions() + " sessions, " + w.keysWritten() + " keys written; checker: " + w.check().summary());
        log("  anomalies " + w.check().totalAnomalies() + " " + w.check().counts() + "; lost acknowledged writes "
                + w.lostAcknowledged() + "; other violations " + w.violations().size());
        w.violations().stream().limit(10).forEach(v -> log("    " + v));
        w.check().anomalies().stream().limit(10).forEach(a -> log("    " + a));
        if (!w.errors().isEmpty()) log("  client errors " + w.errors());
    }

    private int nemesis(LocalCluster cluster, ClusterView view, List<Long> seedList, Duration perSeed) throws Exception {
        log("seeds " + seedList + ", " + perSeed.toSeconds() + " s of faults each, " + threads + " sessions, " + keys + " keys");
        if (out.getParent() != null) Files.createDirectories(out.getParent());
        Files.writeString(out, CSV_HEADER + "\n");
        if (historyDir != null) Files.createDirectories(historyDir);
        NemesisRun run = new NemesisRun(cluster, view, NemesisCommand::log);
        Map<NemesisRun.Fault, Integer> faults = new EnumMap<>(NemesisRun.Fault.class);
        long txns = 0, anomalies = 0, lost = 0, unknown = 0, unknownCommitted = 0, unknownAborted = 0, dead = 0, deadAborted = 0,
                deadCommitted = 0, violations = 0;
        int failed = 0;
        for (long s : seedList) {
            log("=== seed " + s + " (bin/fastccs nemesis --seed " + s + " --duration " + duration + ")");
            NemesisRun.Config config = NemesisRun.Config.defaults(s, perSeed).withThreads(threads).withKeys(keys)
                    .withHistory(historyDir == null ? null : historyDir.resolve("nemesis-" + s + ".txt"));
            NemesisRun.Result r = run.run(config);
            print(r);
            Files.writeString(out, csvRow(r, rf) + "\n", StandardOpenOption.APPEND);
            CheckedWorkload.Result w = r.workload();
            r.faults().forEach((k, v) -> faults.merge(k, v, Integer::sum));
            txns += w.transactions();
            anomalies += w.check().totalAnomalies();
            lost += w.lostAcknowledged();
            unknown += w.unknown();
            unknownCommitted += w.unknownCommitted();
            unknownAborted += w.unknownAborted();
            dead += w.deadClientCommitted() + w.deadClientAborted() + w.deadClientUnsettled();
            deadCommitted += w.deadClientCommitted();
            deadAborted += w.deadClientAborted();
            violations += w.violations().size();
            if (!r.ok()) failed++;
        }
        log(String.format("TOTAL %d seeds (%d failed): %d transactions; faults %s; unknown outcomes %d (%d committed, %d aborted); "
                        + "dead clients' writes %d (%d committed, %d aborted); anomalies %d; lost acknowledged writes %d; "
                        + "other violations %d; rows in %s", seedList.size(), failed, txns, faults, unknown, unknownCommitted,
                unknownAborted, dead, deadCommitted, deadAborted, anomalies, lost, violations, out));
        return failed == 0 ? 0 : 1;
    }

    private int availability(LocalCluster cluster, ClusterView view, long seed) throws Exception {
        Duration downFor = parseDuration(down);
        if (historyDir != null) Files.createDirectories(historyDir); // before the run, not when its history is written
        log(String.format("availability: seed %d, %d kills of %d s each (nodes in turn), %d sessions, %d keys, replication factor %d",
                seed, kills, downFor.toSeconds(), threads, keys, rf));
        AvailabilityRun.Config config = new AvailabilityRun.Config(seed, kills, downFor, Duration.ofSeconds(10), threads, keys,
                4, 0.25, Duration.ofMinutes(8), historyDir == null ? null : historyDir.resolve("availability-" + seed + ".txt"),
                whole);
        AvailabilityRun.Result r = new AvailabilityRun(cluster, view, NemesisCommand::log).run(config);
        if (availabilityOut.getParent() != null) Files.createDirectories(availabilityOut.getParent());
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(availabilityOut))) {
            csv.println(AvailabilityRun.Kill.csvHeader() + ",nodes,replication_factor");
            for (AvailabilityRun.Kill k : r.kills()) csv.println(k.csv() + "," + nodes + "," + rf);
        }
        long[] failovers = r.kills().stream().mapToLong(AvailabilityRun.Kill::failoverMillis).filter(ms -> ms >= 0).sorted().toArray();
        long noFailover = r.kills().stream().filter(k -> k.failoverMillis() < 0).count();
        long downOk = r.kills().stream().mapToLong(AvailabilityRun.Kill::downOk).sum();
        long downAll = r.kills().stream().mapToLong(AvailabilityRun.Kill::downAll).sum();
        if (failovers.length > 0)
            log(String.format("failover window (kill to the first acknowledged write on every partition the killed node led), %d kills: "
                            + "min %d ms, median %d ms, p99 %d ms, max %d ms%s", failovers.length, failovers[0],
                    failovers[failovers.length / 2], failovers[Math.min(failovers.length - 1, (int) Math.ceil(failovers.length * 0.99) - 1)],
                    failovers[failovers.length - 1], noFailover == 0 ? "" : "; " + noFailover + " kills without a failover before the restart"));
        else log("no failover: no write on a killed node's partitions succeeded before its restart");
        log(String.format("outside the failover windows: %d of %d transactions succeeded (%.3f%%); with a node down, after the "
                        + "failover: %d of %d (%.3f%%)", r.outsideOk(), r.outsideAll(),
                r.outsideAll() == 0 ? 0 : 100.0 * r.outsideOk() / r.outsideAll(), downOk, downAll,
                downAll == 0 ? 0 : 100.0 * downOk / downAll));
        CheckedWorkload.Result w = r.workload();
        log("history: " + w.historySessions() + " sessions, " + w.keysWritten() + " keys written; checker: " + w.check().summary()
                + "; lost acknowledged writes " + w.lostAcknowledged() + "; other violations " + w.violations().size());
        w.check().anomalies().stream().limit(10).forEach(a -> log("    " + a));
        w.violations().stream().limit(10).forEach(v -> log("    " + v));
        if (!w.errors().isEmpty()) log("client errors " + w.errors());
        log("rows in " + availabilityOut);
        return r.ok() ? 0 : 1;
    }

    private int waitingBound(LocalCluster cluster, ClusterView view) throws Exception {
        WaitingBound wb = new WaitingBound(cluster, view, NemesisCommand::log);
        if (waitingOut.getParent() != null) Files.createDirectories(waitingOut.getParent());
        String tag = Long.toString(ToolClock.currentTimeMillis(), 36);
        List<WaitingBound.Trial> all = new ArrayList<>();
        int bad = 0;
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(waitingOut))) {
            csv.println(WaitingBound.Trial.csvHeader());
            int trial = 0;
            for (WaitingBound.Variant v : WaitingBound.Variant.values()) {
                int count = v == WaitingBound.Variant.COORDINATOR_KILLED ? killTrials
                        : v == WaitingBound.Variant.COORDINATOR_PAUSED ? Math.max(1, trials / 4) : trials;
                for (int i = 0; i < count; i++) {
                    WaitingBound.Trial t = wb.trial(trial++, v, tag);
                    for (int redo = 0; redo < 3 && !t.behindStuck() && t.goodCommitted(); redo++) {
                        csv.println(t.csv()); // kept, marked: the later write overtook the stuck one
                        t = wb.trial(trial++, v, tag);
                    }
                    if (t.behindStuck()) all.add(t);
                    csv.println(t.csv());
                    csv.flush();
                    if (!t.goodCommitted() || t.stuckVisible() || t.stuckOutcome() != io.fastccs.core.messages.Outcome.ABORTED) bad++;
                }
            }
        }
        log("design bound: transaction_timeout 2000 ms + check_interval 200 ms + a round trip after the stuck write was "
                + "prepared (about 2.2 s); worst case 2 x transaction_timeout = 4000 ms; a paused or dead coordinator adds its downtime");
        for (WaitingBound.Variant v : WaitingBound.Variant.values()) {
            long[] ms = all.stream().filter(t -> t.variant() == v).mapToLong(WaitingBound.Trial::sincePrepareMillis).sorted().toArray();
            long[] good = all.stream().filter(t -> t.variant() == v).mapToLong(WaitingBound.Trial::goodWriteMillis).sorted().toArray();
            if (ms.length == 0) continue;
            log(String.format("%-22s %2d trials behind a stuck write: the later write answered %d / %d / %d ms (min/median/max) after the stuck "
                            + "request (its own latency %d / %d / %d ms)", v, ms.length, ms[0], ms[ms.length / 2], ms[ms.length - 1],
                    good[0], good[good.length / 2], good[good.length - 1]));
        }
        log(bad == 0 ? "every later write committed and every stuck write was aborted and never visible"
                : bad + " trials broke the promise (see " + waitingOut + ")");
        return bad == 0 ? 0 : 1;
    }

    static Path historyPath(Path dir, long seed) throws IOException {
        return dir.resolve("nemesis-" + seed + ".txt");
    }
}
