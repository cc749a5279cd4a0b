package io.fastccs.tools.demo;

import io.fastccs.check.CheckResult;
import io.fastccs.check.History;
import io.fastccs.check.Op;
import io.fastccs.check.TccChecker;
import io.fastccs.check.Txn;
import io.fastccs.client.CausalSession;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.FastCcsException;
import io.fastccs.client.ReadResult;
import io.fastccs.client.SessionInDoubtException;
import io.fastccs.client.WriteOutcome;
import io.fastccs.client.WriteTimeoutException;
import io.fastccs.tools.cluster.LocalCluster;
import io.fastccs.tools.cluster.StartOptions;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bin/fastccs demo}: starts a local 3-node Cassandra cluster with FastCCS, runs the thesis's default workload
 * (Table 4.1: 5 keys per read and per write, 128-byte values, 5% writes, gaussian keys) for a short fixed time with a
 * line per second, checks the recorded history for TCC anomalies, and stops the cluster. The side-by-side comparison
 * with plain Cassandra arrives with the stress tool.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Starts a local 3-node Cassandra 5.0 cluster with FastCCS, runs the Table 4.1 workload for a short",
                "time (a line per second), checks the history for TCC anomalies, prints a summary, stops the cluster."})
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--nodes", description = "nodes (default: ${DEFAULT-VALUE})")
    int nodes = 3;
    @Option(names = "--duration", description = "seconds of workload (default: ${DEFAULT-VALUE})")
    int seconds = 30;
    @Option(names = "--threads", description = "client sessions (default: ${DEFAULT-VALUE})")
    int threads = 16;
    @Option(names = "--keys", description = "key population, gaussian(1..KEYS) (default: ${DEFAULT-VALUE})")
    int keys = 10_000;
    @Option(names = "--dir", description = "cluster directory (default: <repo>/.cluster-demo)")
    Path dir;
    @Option(names = "--keep", description = "leave the cluster running afterwards")
    boolean keep;

    private final AtomicLong nextValue = new AtomicLong(1);
    private final ConcurrentLinkedQueue<Txn> history = new ConcurrentLinkedQueue<>();
    private final AtomicLong nextTxn = new AtomicLong(1);
    private final AtomicLong nextSession = new AtomicLong(1);
    private final Recorder readLatency = new Recorder(3), writeLatency = new Recorder(3);
    private final AtomicLong reads = new AtomicLong(), writes = new AtomicLong(), secondRounds = new AtomicLong(),
            errors = new AtomicLong(), unknown = new AtomicLong();

    @Override
    public Integer call() throws Exception {
        Path clusterDir = dir != null ? dir : LocalCluster.repoRoot().orElse(Path.of(".")).resolve(".cluster-demo");
        LocalCluster cluster = LocalCluster.at(clusterDir, line -> System.out.println("  " + line));
        System.out.printf("Starting a local %d-node Cassandra 5.0.9 cluster with FastCCS in %s ...%n", nodes, clusterDir);
        long t0 = System.nanoTime();
        cluster.start(StartOptions.nodes(nodes));
        System.out.printf("cluster serving after %.1f s%n%n", (System.nanoTime() - t0) / 1e9);
        int exit;
        try {
            exit = runWorkload(cluster);
        } finally {
            if (keep) System.out.println("cluster left running: bin/fastccs cluster --dir " + clusterDir + " stop");
            else {
                System.out.println("stopping the cluster ...");
                cluster.stop();
                cluster.remove();
            }
        }
        return exit;
    }

    private int runWorkload(LocalCluster cluster) throws Exception {
        List<InetSocketAddress> contacts = new ArrayList<>();
        for (int k = 1; k <= nodes; k++) contacts.add(new InetSocketAddress("127.0.0." + k, cluster.ports().fastccs()));
        try (FastCcsClient client = FastCcsClient.builder().addContactPoints(contacts).build()) {
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = 31L * t + 17;
                Thread w = new Thread(() -> work(client, seed, stop), "demo-" + t);
                w.setDaemon(true);
                w.start();
                workers.add(w);
            }
            System.out.printf("FastCCS, %d sessions, 5 keys/read, 5 keys/write, 128 B values, 5%% writes, gaussian(1..%d), %d s%n",
                    threads, keys, seconds);
            System.out.printf("%6s %9s %9s %8s %8s %8s %8s %8s %7s%n", "time", "txn/s", "reads/s", "mean ms", "med ms",
                    ".95 ms", ".99 ms", "max ms", "errors");
            Histogram allReads = new Histogram(3), allWrites = new Histogram(3);
            long start = System.nanoTime(), lastOps = 0, lastErrors = 0;
            for (int s = 1; s <= seconds; s++) {
                Thread.sleep(Math.max(0, start + s * 1_000_000_000L - System.nanoTime()) / 1_000_000);
                Histogram r = readLatency.getIntervalHistogram(), w = writeLatency.getIntervalHistogram();
                allReads.add(r);
                allWrites.add(w);
                Histogram both = r.copy();
                both.add(w);
                long ops = reads.get() + writes.get();
                System.out.printf(Locale.ROOT, "%5ds %9d %9d %8.2f %8.2f %8.2f %8.2f %8.2f %7d%n", s, ops - lastOps, r.getTotalCount(),
                        both.getMean() / 1000, both.getValueAtPercentile(50) / 1000.0, both.getValueAtPercentile(95) / 1000.0,
                        both.getValueAtPercentile(99) / 1000.0, both.getMaxValue() / 1000.0, errors.get() - lastErrors);
                lastOps = ops;
                lastErrors = errors.get();
            }
            stop.set(true);
            for (Thread w : workers) w.join(10_000);
            double elapsed = (System.nanoTime() - start) / 1e9;
            CheckResult check = checkHistory(client);
            System.out.println();
            System.out.printf(Locale.ROOT, "Op rate                   : %,.0f txn/s (%,d reads, %,d writes in %.1f s)%n",
                    (reads.get() + writes.get()) / elapsed, reads.get(), writes.get(), elapsed);
            System.out.printf(Locale.ROOT, "Read latency  mean/p50/p95/p99/max : %.2f / %.2f / %.2f / %.2f / %.2f ms%n",
                    allReads.getMean() / 1000, allReads.getValueAtPercentile(50) / 1000.0, allReads.getValueAtPercentile(95) / 1000.0,
                    allReads.getValueAtPercentile(99) / 1000.0, allReads.getMaxValue() / 1000.0);
            System.out.printf(Locale.ROOT, "Write latency mean/p50/p95/p99/max : %.2f / %.2f / %.2f / %.2f / %.2f ms%n",
                    allWrites.getMean() / 1000, allWrites.getValueAtPercentile(50) / 1000.0, allWrites.getValueAtPercentile(95) / 1000.0,
                    allWrites.getValueAtPercentile(99) / 1000.0, allWrites.getMaxValue() / 1000.0);
            System.out.printf(Locale.ROOT, "Second-round reads        : %.3f%% (%d of %d)%n",
                    100.0 * secondRounds.get() / Math.max(1, reads.get()), secondRounds.get(), reads.get());
            System.out.printf("Errors                    : %d (writes with unknown outcome: %d)%n", errors.get(), unknown.get());
            System.out.printf("History check (TCC)       : %s%n", check.summary());
            check.anomalies().stream().limit(5).forEach(a -> System.out.println("  " + a));
            return check.ok() ? 0 : 1;
        }
    }

    /** A closed-loop session; every written value is unique (its id leads the value), so reads name their writer. */
    private void work(FastCcsClient client, long seed, AtomicBoolean stop) {
        SplittableRandom random = new SplittableRandom(seed);
        CausalSession session = client.session();
        long sessionId = nextSession.getAndIncrement();
        double mean = (1 + keys) / 2.0, stdev = (keys - 1) / 6.0;
        while (!stop.get()) {
            TreeSet<Long> ks = new TreeSet<>();
            while (ks.size() < 5) {
                double g = Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
                ks.add(Math.max(1, Math.min(keys, Math.round(mean + g * stdev))));
            }
            long started = System.nanoTime();
            try {
                if (random.nextDouble() < 0.05) {
                    Map<String, String> w = new LinkedHashMap<>();
                    List<Op> ops = new ArrayList<>();
                    for (long k : ks) {
                        long v = nextValue.getAndIncrement();
                        w.put("k" + k, v + ":" + "x".repeat(120));
                        ops.add(Op.write(k, v));
                    }
                    Txn txn = new Txn(nextTxn.getAndIncrement(), sessionId, true, ops);
                    try {
                        session.write(w);
                        history.add(txn);
                        writes.incrementAndGet();
                        writeLatency.recordValue((System.nanoTime() - started) / 1000);
                    } catch (WriteTimeoutException e) {
                        errors.incrementAndGet();
                        if (e.outcome() == WriteOutcome.COMMITTED_UNCONFIRMED) history.add(txn);
                        else if (e.outcome() == WriteOutcome.ABORTED) history.add(new Txn(txn.id(), sessionId, false, ops));
                        else unknown.incrementAndGet(); // left out of the history: neither outcome can be claimed
                        if (e.outcome() != WriteOutcome.ABORTED) {
                            session.continueWithoutUnconfirmedWrite();
                            sessionId = nextSession.getAndIncrement(); // its guarantees now start afresh
                        }
                    }
                } else {
                    List<String> names = new ArrayList<>();
                    for (long k : ks) names.add("k" + k);
                    ReadResult r = session.read(names);
                    List<Op> ops = new ArrayList<>();
                    for (long k : ks) ops.add(Op.read(k, valueId(r.getString("k" + k))));
                    history.add(new Txn(nextTxn.getAndIncrement(), sessionId, true, ops));
                    reads.incrementAndGet();
                    if (r.rounds() > 1) secondRounds.incrementAndGet();
                    readLatency.recordValue((System.nanoTime() - started) / 1000);
                }
            } catch (SessionInDoubtException e) {
                session.continueWithoutUnconfirmedWrite();
                sessionId = nextSession.getAndIncrement();
            } catch (FastCcsException e) {
                errors.incrementAndGet();
            } catch (IllegalStateException e) {
                if (!stop.get()) throw e;
            }
        }
    }

    private static long valueId(String value) {
        return value == null ? 0 : Long.parseLong(value.substring(0, value.indexOf(':')));
    }

    /** Final reads of every written key from a fresh session, then the checker over everything. */
    private CheckResult checkHistory(FastCcsClient client) {
        Set<Long> written = new TreeSet<>();
        for (Txn t : history) for (Op o : t.ops()) if (o.kind() == Op.Kind.WRITE) written.add(o.key());
        CausalSession last = client.session();
        long finalSession = 0;
        History.Builder h = History.builder().finalSession(finalSession);
        // Session order is the order a session's transactions were added; each worker added its own in order.
        for (Txn t : history) h.add(t);
        List<Long> all = new ArrayList<>(written);
        for (int i = 0; i < all.size(); i += 64) {
            List<Long> part = all.subList(i, Math.min(all.size(), i + 64));
            List<String> names = new ArrayList<>();
            for (long k : part) names.add("k" + k);
            ReadResult r = last.read(names);
            List<Op> ops = new ArrayList<>();
            for (long k : part) ops.add(Op.read(k, valueId(r.getString("k" + k))));
            h.add(new Txn(nextTxn.getAndIncrement(), finalSession, true, ops));
        }
        return TccChecker.check(h.build());
    }

    public static void main(String[] args) {
        CommandLine cl = new CommandLine(new DemoCommand());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            System.err.println("demo: " + ex.getMessage());
            return 2;
        });
        System.exit(cl.execute(args));
    }
}
