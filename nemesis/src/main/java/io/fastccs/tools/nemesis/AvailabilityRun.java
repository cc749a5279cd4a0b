package io.fastccs.tools.nemesis;

import io.fastccs.client.FastCcsClient;
import io.fastccs.testkit.CheckedWorkload;
import io.fastccs.testkit.ClusterView;
import io.fastccs.tools.cluster.LocalCluster;
import io.fastccs.tools.cluster.ToolClock;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * The availability experiment: a checked workload runs while each node in turn is SIGKILLed and kept down for a while,
 * then restarted. Per kill it measures the failover window (the kill to the first acknowledged write, started after
 * the kill, on every partition the killed node led) and how many transactions succeeded outside it; at the end the whole
 * history is checked as the nemesis checks it.
 */
public final class AvailabilityRun {
    /** How the run is shaped. */
    /**
     * @param whole before each kill, wait until every partition is led by its own node again, so that the kill meets a
     *              cluster with one node down, not one whose last restarted node is still catching up (a second fault)
     */
    public record Config(long seed, int kills, Duration down, Duration steady, int threads, int keys, int keysPerTxn,
                         double writeFraction, Duration restartTimeout, Path historyFile, boolean whole) {
    }

    /** One kill's figures; times in ms from the kill. */
    public record Kill(int index, int node, List<Integer> partitions, long failoverMillis, long firstSuccessMillis, long downOk,
                       long downAll, long restartMillis) {
        public static String csvHeader() {
            return "kill,node,partitions,failover_ms,first_success_ms,down_ok,down_transactions,down_success_pct,restart_ms";
        }

        public String csv() {
            return String.format(Locale.ROOT, "%d,%d,%s,%d,%d,%d,%d,%.3f,%d", index, node,
                    partitions.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(" ")), failoverMillis,
                    firstSuccessMillis, downOk, downAll, downAll == 0 ? 0 : 100.0 * downOk / downAll, restartMillis);
        }
    }

    /**
     * The run's figures.
     *
     * @param outsideOk  transactions outside every failover window that succeeded
     * @param outsideAll transactions outside every failover window (a transaction is inside one if it started before
     *                   the window closed and ended after the kill)
     */
    public record Result(List<Kill> kills, long outsideOk, long outsideAll, CheckedWorkload.Result workload) {
        public boolean ok() {
            return workload.check().ok() && workload.violations().isEmpty() && workload.lostAcknowledged() == 0;
        }
    }

    /** One finished transaction. */
    private record Ended(long startedNanos, long endedNanos, String error, boolean write, int[] partitions) {
        boolean ok() {
            return error == null;
        }

        boolean touches(int partition) {
            for (int p : partitions) if (p == partition) return true;
            return false;
        }
    }

    private final LocalCluster cluster;
    private final ClusterView view;
    private final Consumer<String> log;

    public AvailabilityRun(LocalCluster cluster, ClusterView view, Consumer<String> log) {
        this.cluster = cluster;
        this.view = view;
        this.log = log;
    }

    public Result run(Config config) throws Exception {
        try (FastCcsClient a = NemesisRun.newClient(view); FastCcsClient b = NemesisRun.newClient(view)) {
            String prefix = "availability:" + Long.toUnsignedString(config.seed(), 36) + ":";
            CheckedWorkload workload = new CheckedWorkload(view, List.of(a, b), prefix, config.threads(), config.keys(),
                    config.keysPerTxn(), config.writeFraction(), config.seed());
            int[] ownerOfKey = new int[workload.keyCount()];
            for (int k = 0; k < ownerOfKey.length; k++) ownerOfKey[k] = view.ownerOf(workload.key(k));
            ConcurrentLinkedQueue<Ended> ended = new ConcurrentLinkedQueue<>();
            workload.observe(new CheckedWorkload.TxnObserver() {
                @Override
                public void ended(boolean write, long[] keys, long startedNanos, String error, String message) {
                    int[] partitions = new int[keys.length];
                    for (int i = 0; i < keys.length; i++) partitions[i] = ownerOfKey[(int) keys[i]];
                    ended.add(new Ended(startedNanos, ToolClock.nanoTime(), error == null ? null : error + ": " + message, write, partitions));
                }
            });
            workload.start();
            List<long[]> windows = new ArrayList<>(); // {kill, first write after it} in nanoTime
            List<Kill> kills = new ArrayList<>();
            try {
                for (int i = 0; i < config.kills(); i++) {
                    NemesisRun.sleep(config.steady().toMillis());
                    if (config.whole() && i > 0) awaitWhole(Duration.ofMinutes(3));
                    int node = 1 + i % view.nodes();
                    List<Integer> led = partitionsLedBy(node);
                    long killNanos = ToolClock.nanoTime();
                    cluster.kill(node);
                    log.accept(String.format("kill %d of %d: SIGKILL node %d (leading partitions %s), down for %d s", i + 1,
                            config.kills(), node, led, config.down().toSeconds()));
                    NemesisRun.sleep(config.down().toMillis());
                    long restartNanos = ToolClock.nanoTime();
                    NemesisRun.restartWhenFree(cluster, List.of(node), config.restartTimeout(), log);
                    long servingNanos = ToolClock.nanoTime();
                    Kill kill = measure(i + 1, node, led, killNanos, restartNanos, servingNanos, ended);
                    kills.add(kill);
                    long windowEnd = kill.failoverMillis() < 0 ? restartNanos : killNanos + kill.failoverMillis() * 1_000_000;
                    logWindowFailures(led, killNanos, windowEnd, ended);
                    windows.add(new long[]{killNanos, windowEnd});
                    log.accept(String.format("  failover %s (first success of any kind %s); with node %d down after it: %d of %d "
                                    + "transactions succeeded (%.3f%%); it serves again %.1f s after its restart began",
                            kill.failoverMillis() < 0 ? "none before the restart" : kill.failoverMillis() + " ms",
                            kill.firstSuccessMillis() < 0 ? "none" : kill.firstSuccessMillis() + " ms", node, kill.downOk(),
                            kill.downAll(), kill.downAll() == 0 ? 0 : 100.0 * kill.downOk() / kill.downAll(),
                            (servingNanos - restartNanos) / 1e9));
                }
                NemesisRun.sleep(config.steady().toMillis());
            } finally {
                workload.stop();
            }
            long outsideOk = 0, outsideAll = 0;
            for (Ended e : ended) {
                boolean inside = false;
                for (long[] w : windows) inside |= e.startedNanos() - w[1] < 0 && e.endedNanos() - w[0] > 0;
                if (inside) continue;
                outsideAll++;
                if (e.ok()) outsideOk++;
            }
            log.accept("settling unknown outcomes, reading every key and checking the history");
            try (FastCcsClient last = NemesisRun.newClient(view)) {
                CheckedWorkload.Result r = workload.finish(last, Duration.ofSeconds(3), config.historyFile(), log);
                return new Result(kills, outsideOk, outsideAll, r);
            }
        }
    }

    /** The partitions whose group {@code node} leads, as another node's ring answer says; its own if none answers. */
    /** Waits (up to {@code timeout}) until every node leads its own partition, as the next node in the ring sees it. */
    private void awaitWhole(Duration timeout) {
        long start = ToolClock.nanoTime();
        while (true) {
            boolean whole = true;
            for (int node = 1; node <= view.nodes() && whole; node++)
                whole = view.leaderAsSeenBy(node % view.nodes() + 1, view.partitionOfNode(node), Duration.ofSeconds(2)) == node;
            double waited = (ToolClock.nanoTime() - start) / 1e9;
            if (whole) {
                log.accept(String.format("  every partition is led by its own node again (waited %.1f s)", waited));
                return;
            }
            if (waited > timeout.toSeconds()) {
                log.accept(String.format("  not every partition is led by its own node after %.0f s; killing anyway", waited));
                return;
            }
            NemesisRun.sleep(500);
        }
    }

    private List<Integer> partitionsLedBy(int node) {
        int asked = node % view.nodes() + 1;
        List<Integer> led = new ArrayList<>();
        for (int p = 0; p < view.nodes(); p++)
            if (view.leaderAsSeenBy(asked, p, Duration.ofSeconds(2)) == node) led.add(p);
        if (led.isEmpty()) led.add(view.partitionOfNode(node));
        return led;
    }

    /**
     * Why the window lasted as long as it did: the failed writes on the killed node's partitions, started in it, by
     * error (words with digits masked, so that alike errors count together), with when the last of each kind started.
     */
    private void logWindowFailures(List<Integer> led, long killNanos, long windowEnd, Iterable<Ended> ended) {
        Map<String, long[]> byError = new TreeMap<>(); // error -> {count, last start ms after kill}
        for (Ended e : ended) {
            if (e.ok() || !e.write() || e.startedNanos() - killNanos < 0 || e.startedNanos() - windowEnd > 0) continue;
            if (led.stream().noneMatch(e::touches)) continue;
            String kind = e.error().replaceAll("[^\\s,;()]*[0-9][^\\s,;()]*", "#"); // ids, addresses, numbers
            if (kind.length() > 160) kind = kind.substring(0, 160) + "...";
            long[] c = byError.computeIfAbsent(kind, k -> new long[2]);
            c[0]++;
            c[1] = Math.max(c[1], (e.startedNanos() - killNanos) / 1_000_000);
        }
        byError.entrySet().stream().sorted((x, y) -> Long.compare(y.getValue()[0], x.getValue()[0])).limit(4).forEach(en ->
                log.accept(String.format("    failed writes in the window: %d x (last started at %d ms) %s", en.getValue()[0],
                        en.getValue()[1], en.getKey())));
    }

    /** The window closes when every partition the node led has taken a write again (the slowest failover counts). */
    private static Kill measure(int index, int node, List<Integer> led, long killNanos, long restartNanos, long servingNanos,
                                Iterable<Ended> ended) {
        long firstWrite = Long.MIN_VALUE, firstAny = Long.MIN_VALUE;
        for (int partition : led) {
            long write = Long.MAX_VALUE, any = Long.MAX_VALUE;
            for (Ended e : ended) {
                if (!e.ok() || !e.touches(partition) || e.startedNanos() - killNanos < 0 || e.endedNanos() - servingNanos > 0) continue;
                any = Math.min(any, e.endedNanos());
                if (e.write()) write = Math.min(write, e.endedNanos());
            }
            firstWrite = Math.max(firstWrite, write);
            firstAny = Math.max(firstAny, any);
        }
        // A failover that needed the restart does not count as one: the window then runs to the restart.
        long failover = firstWrite == Long.MAX_VALUE || firstWrite - restartNanos > 0 ? -1 : (firstWrite - killNanos) / 1_000_000;
        long firstSuccess = firstAny == Long.MAX_VALUE ? -1 : (firstAny - killNanos) / 1_000_000;
        long windowEnd = failover < 0 ? restartNanos : firstWrite;
        long downOk = 0, downAll = 0;
        for (Ended e : ended) {
            if (e.startedNanos() - windowEnd < 0 || e.startedNanos() - restartNanos > 0) continue;
            downAll++;
            if (e.ok()) downOk++;
        }
        return new Kill(index, node, List.copyOf(led), failover, firstSuccess, downOk, downAll, (restartNanos - killNanos) / 1_000_000);
    }
}
