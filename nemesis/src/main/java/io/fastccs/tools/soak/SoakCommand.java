package io.fastccs.tools.soak;

import io.fastccs.client.CausalSession;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.FastCcsException;
import io.fastccs.client.WriteTimeoutException;
import io.fastccs.client.SessionInDoubtException;
import io.fastccs.tools.cluster.LocalCluster;
import io.fastccs.tools.cluster.ToolClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bin/fastccs soak}: a long write-heavy (or read-heavy) run on the local cluster that samples every node's
 * heap, stored version rows, collected versions and on-disk size, to show that GC keeps them bounded.
 */
@Command(name = "soak", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a closed-loop FastCCS workload against the local cluster (bin/fastccs cluster) and samples "
                + "each node over JMX: heap, version rows, versions collected, unsettled transactions, on-disk "
                + "size. Prints a line per sample and writes them as CSV."})
public final class SoakCommand implements Callable<Integer> {
    @Option(names = "--duration", description = "how long to run, e.g. 5m or 300s (default: ${DEFAULT-VALUE})")
    String duration = "5m";
    @Option(names = "--threads", description = "client sessions, one thread each (default: ${DEFAULT-VALUE})")
    int threads = 16;
    @Option(names = "--keys", description = "keys 1..COUNT, uniform (default: ${DEFAULT-VALUE})")
    int keys = 1000;
    @Option(names = "--keys-per-txn", description = "keys per transaction (default: ${DEFAULT-VALUE})")
    int keysPerTxn = 5;
    @Option(names = "--write-fraction", description = "share of transactions that write (default: ${DEFAULT-VALUE})")
    volatile double writeFraction = 0.9;
    @Option(names = "--phases", split = ",", paramLabel = "W",
            description = "write fractions of consecutive phases of equal length, e.g. 0.9,0.05 (write-heavy, then read-heavy); overrides --write-fraction")
    List<Double> phases;
    @Option(names = "--value-size", description = "bytes per value (default: ${DEFAULT-VALUE})")
    int valueSize = 128;
    @Option(names = "--sample-every", description = "seconds between samples (default: ${DEFAULT-VALUE})")
    int sampleSeconds = 30;
    @Option(names = "--dir", description = "the local cluster's directory (default: <repo>/.cluster)")
    Path dir;
    @Option(names = "--out", description = "CSV file (default: ${DEFAULT-VALUE})")
    Path out = Path.of("results/soak.csv");

    @Override
    public Integer call() throws Exception {
        LocalCluster cluster = LocalCluster.at(dir != null ? dir : LocalCluster.defaultDir());
        if (!cluster.exists()) throw new IllegalStateException("no local cluster at " + cluster.dir() + "; start one: bin/fastccs cluster start --nodes 3");
        int nodes = cluster.nodeCount();
        List<InetSocketAddress> contacts = new ArrayList<>();
        for (int k = 1; k <= nodes; k++) contacts.add(new InetSocketAddress(cluster.ports().address(k), cluster.ports().fastccs()));
        long runNanos = parseDuration(duration).toNanos();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong txns = new AtomicLong(), writes = new AtomicLong(), errors = new AtomicLong();
        if (out.getParent() != null) Files.createDirectories(out.getParent());
        try (FastCcsClient client = FastCcsClient.builder().addContactPoints(contacts).build();
             PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out))) {
            csv.println("elapsed_s,node,txn_per_s,heap_used_mib,version_rows,versions_per_key,versions_collected,writes_committed,unsettled,pending,versions_disk_kib,write_fraction");
            if (phases != null && !phases.isEmpty()) writeFraction = phases.get(0);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = t * 7919L + 1;
                Thread w = new Thread(() -> work(client, seed, stop, txns, writes, errors), "soak-" + t);
                w.setDaemon(true);
                w.start();
                workers.add(w);
            }
            long start = ToolClock.nanoTime();
            System.out.printf("soak: %d nodes, %d threads, %d keys, %d keys/txn, %s, %s%n", nodes, threads, keys,
                    keysPerTxn, phases == null ? String.format(Locale.ROOT, "%.0f%% writes", 100 * writeFraction)
                            : "phases of write fractions " + phases, duration);
            System.out.printf("%8s %4s %9s %9s %12s %8s %12s %10s %9s %10s%n", "elapsed", "node", "txn/s", "heap MiB",
                    "version rows", "per key", "collected", "committed", "unsettled", "disk KiB");
            try {
                sample(cluster, nodes, start, runNanos, txns, csv);
            } finally {
                stop.set(true); // workers first: the client closes when this block ends
                for (Thread w : workers) w.join(10_000);
            }
            System.out.printf("soak done: %d transactions (%d writes), %d errors; samples in %s%n", txns.get(), writes.get(),
                    errors.get(), out);
        }
        return 0;
    }

    private void sample(LocalCluster cluster, int nodes, long start, long runNanos, AtomicLong txns, PrintWriter csv)
            throws Exception {
        long lastTxns = 0, lastAt = start;
        {
            while (true) {
                long now = ToolClock.nanoTime();
                double rate = (txns.get() - lastTxns) / Math.max(1e-9, (now - lastAt) / 1e9);
                lastTxns = txns.get();
                lastAt = now;
                double elapsed = (now - start) / 1e9;
                if (phases != null && !phases.isEmpty()) {
                    int phase = (int) Math.min(phases.size() - 1, (now - start) * phases.size() / Math.max(1, runNanos));
                    if (phases.get(phase) != writeFraction) {
                        writeFraction = phases.get(phase);
                        System.out.printf(Locale.ROOT, "-- phase %d: %.0f%% writes%n", phase + 1, 100 * writeFraction);
                    }
                }
                for (int k = 1; k <= nodes; k++) {
                    NodeSample s = NodeSample.take(k, cluster.ports().jmx(k), cluster.dir().resolve("node" + k).resolve("data"));
                    double perKey = s.versionRows() / (double) Math.max(1, keys / (double) nodes);
                    System.out.printf(Locale.ROOT, "%7.0fs %4d %9.0f %9.0f %12d %8.2f %12d %10d %9d %10d%n", elapsed, k, rate,
                            s.heapUsedBytes() / 1048576.0, s.versionRows(), perKey, s.versionsCollected(), s.writesCommitted(),
                            s.unsettled(), s.versionsDiskBytes() / 1024);
                    csv.printf(Locale.ROOT, "%.0f,%d,%.0f,%.1f,%d,%.3f,%d,%d,%d,%d,%d,%.3f%n", elapsed, k, rate, s.heapUsedBytes() / 1048576.0,
                            s.versionRows(), perKey, s.versionsCollected(), s.writesCommitted(), s.unsettled(), s.pending(),
                            s.versionsDiskBytes() / 1024, writeFraction);
                }
                csv.flush();
                if (now - start >= runNanos) break;
                Thread.sleep(Math.min(sampleSeconds * 1000L, Math.max(1, (runNanos - (now - start)) / 1_000_000)));
            }
        }
    }

    private void work(FastCcsClient client, long seed, AtomicBoolean stop, AtomicLong txns, AtomicLong writes, AtomicLong errors) {
        SplittableRandom random = new SplittableRandom(seed);
        CausalSession session = client.session();
        String value = "x".repeat(Math.max(1, valueSize - 20));
        long counter = 0;
        while (!stop.get()) {
            List<String> ks = new ArrayList<>();
            while (ks.size() < keysPerTxn) {
                String k = "soak" + (1 + random.nextInt(keys));
                if (!ks.contains(k)) ks.add(k);
            }
            try {
                if (random.nextDouble() < writeFraction) {
                    Map<String, String> w = new LinkedHashMap<>();
                    for (String k : ks) w.put(k, value + (++counter));
                    session.write(w);
                    writes.incrementAndGet();
                } else {
                    session.read(ks);
                }
                txns.incrementAndGet();
            } catch (SessionInDoubtException | WriteTimeoutException e) {
                errors.incrementAndGet();
                session.continueWithoutUnconfirmedWrite();
            } catch (FastCcsException e) {
                errors.incrementAndGet();
            } catch (IllegalStateException e) {
                if (!stop.get()) throw e; // the client closed under us at the end of the run
            }
        }
    }

    static Duration parseDuration(String s) {
        String t = s.trim();
        if (t.endsWith("ms")) return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
        if (t.endsWith("s")) return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
        if (t.endsWith("m")) return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
        if (t.endsWith("h")) return Duration.ofHours(Long.parseLong(t.substring(0, t.length() - 1)));
        throw new IllegalArgumentException("not a duration: " + s + " (e.g. 300s, 5m)");
    }

    public static void main(String[] args) {
        CommandLine cl = new CommandLine(new SoakCommand());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            System.err.println("soak: " + ex.getMessage());
            return 1;
        });
        System.exit(cl.execute(args));
    }
}
