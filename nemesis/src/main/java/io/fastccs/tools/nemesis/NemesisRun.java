package io.fastccs.tools.nemesis;

import io.fastccs.testkit.ClusterView;
import io.fastccs.testkit.CheckedWorkload;

import io.fastccs.client.FastCcsClient;
import io.fastccs.tools.cluster.ClusterException;
import io.fastccs.tools.cluster.LocalCluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * One seed of the nemesis: concurrent causal sessions with a recorded history, while a schedule drawn from the seed
 * injects faults into the local cluster; then the cluster heals, the unknown outcomes are settled, every written key
 * is read and the whole history is checked.
 */
public final class NemesisRun {
    /** The faults the schedule draws from. */
    public enum Fault {
        /** SIGKILL one node, restart it a few seconds later. */
        KILL_RESTART,
        /** SIGSTOP one node for a few seconds, then SIGCONT. */
        PAUSE_RESUME,
        /** A client dies in the middle of a write-only transaction (request sent to a proper subset of participants). */
        DEAD_CLIENT,
        /** SIGKILL every node, then start them all at once. */
        RESTART_ALL,
        /** SIGKILL one node, wipe its disk, start it as a replacement of itself; only with replicated partitions. */
        WIPE_REPLACE
    }

    /** The faults a cluster at {@code replicationFactor} can take: at 1 a wiped node's partition is lost by design. */
    public static List<Fault> applicable(int replicationFactor) {
        return java.util.Arrays.stream(Fault.values()).filter(f -> f != Fault.WIPE_REPLACE || replicationFactor > 1).toList();
    }

    /** How a run is shaped. */
    public record Config(long seed, Duration duration, int threads, int keys, int keysPerTxn, double writeFraction,
                         Duration restartTimeout, Path historyFile) {
        public static Config defaults(long seed, Duration duration) {
            return new Config(seed, duration, 8, 200, 4, 0.3, Duration.ofMinutes(8), null);
        }

        public Config withThreads(int n) {
            return new Config(seed, duration, n, keys, keysPerTxn, writeFraction, restartTimeout, historyFile);
        }

        public Config withKeys(int n) {
            return new Config(seed, duration, threads, n, keysPerTxn, writeFraction, restartTimeout, historyFile);
        }

        public Config withHistory(Path file) {
            return new Config(seed, duration, threads, keys, keysPerTxn, writeFraction, restartTimeout, file);
        }
    }

    /** A seed's figures. */
    public record Result(long seed, Duration ran, Map<Fault, Integer> faults, CheckedWorkload.Result workload) {
        public boolean ok() {
            return workload.check().ok() && workload.violations().isEmpty() && workload.lostAcknowledged() == 0;
        }
    }

    private final LocalCluster cluster;
    private final ClusterView view;
    private final Consumer<String> log;

    public NemesisRun(LocalCluster cluster, ClusterView view, Consumer<String> log) {
        this.cluster = cluster;
        this.view = view;
        this.log = log;
    }

    static FastCcsClient newClient(ClusterView view) {
        return FastCcsClient.builder()
                .addContactPoints(view.fastccsAddresses())
                .withRequestTimeout(Duration.ofSeconds(3))
                .withReconnectDelay(Duration.ofMillis(100), Duration.ofSeconds(2))
                .build();
    }

    public Result run(Config config) throws Exception {
        SplittableRandom random = new SplittableRandom(config.seed());
        Map<Fault, Integer> faults = new EnumMap<>(Fault.class);
        for (Fault f : Fault.values()) faults.put(f, 0);
        long started = System.nanoTime();
        try (FastCcsClient a = newClient(view); FastCcsClient b = newClient(view)) {
            String prefix = "nemesis:" + Long.toUnsignedString(config.seed(), 36) + ":";
            CheckedWorkload workload = new CheckedWorkload(view, List.of(a, b), prefix, config.threads(), config.keys(),
                    config.keysPerTxn(), config.writeFraction(), config.seed());
            workload.start();
            try {
                sleep(3_000);
                // Every kind once in an order drawn from the seed, then random draws, until the duration is spent.
                List<Fault> firsts = new ArrayList<>(applicable(cluster.replicationFactor()));
                for (int i = firsts.size() - 1; i > 0; i--) {
                    int j = random.nextInt(i + 1);
                    Fault t = firsts.get(i);
                    firsts.set(i, firsts.get(j));
                    firsts.set(j, t);
                }
                long end = started + config.duration().toNanos();
                while (System.nanoTime() - end < 0 || !firsts.isEmpty() && config.duration().toSeconds() >= 60) {
                    Fault f = firsts.isEmpty() ? draw(random, cluster.replicationFactor() > 1) : firsts.remove(0);
                    inject(f, random, workload, config);
                    faults.merge(f, 1, Integer::sum);
                    long left = (end - System.nanoTime()) / 1_000_000;
                    long gap = 2_000 + random.nextInt(4_000);
                    if (left <= 0 && firsts.isEmpty()) break;
                    sleep(left <= 0 ? 2_000 : Math.min(left, gap)); // every kind runs once even past the duration
                }
                heal(config);
                sleep(5_000); // the sessions work on the whole cluster again
            } finally {
                workload.stop();
            }
            Duration ran = Duration.ofNanos(System.nanoTime() - started);
            log.accept(String.format("seed %d: %d transactions attempted in %.0f s; faults %s; settling and reading every key",
                    config.seed(), workload.transactionsAttempted(), ran.toMillis() / 1000.0, faults));
            try (FastCcsClient last = newClient(view)) {
                CheckedWorkload.Result r = workload.finish(last, Duration.ofSeconds(3), config.historyFile(), log);
                return new Result(config.seed(), ran, faults, r);
            }
        }
    }

    private static Fault draw(SplittableRandom random, boolean replicated) {
        // Drawn first and only when replicated, so the schedules of seeds at replication factor 1 stay what they were.
        if (replicated && random.nextInt(100) < 5) return Fault.WIPE_REPLACE;
        int x = random.nextInt(100);
        if (x < 35) return Fault.DEAD_CLIENT;
        if (x < 65) return Fault.PAUSE_RESUME;
        if (x < 90) return Fault.KILL_RESTART;
        return Fault.RESTART_ALL;
    }

    private void inject(Fault f, SplittableRandom random, CheckedWorkload workload, Config config) {
        int n = view.nodes();
        int node = 1 + random.nextInt(n);
        switch (f) {
            case KILL_RESTART -> {
                long down = 1_000 + random.nextInt(4_000);
                log.accept("fault: SIGKILL node " + node + ", restart after " + down + " ms");
                cluster.kill(node);
                sleep(down);
                LocalCluster.StartReport r = restartWhenFree(cluster, List.of(node), config.restartTimeout(), log);
                log.accept(String.format("node %d serves again (%.1f s after its restart began)", node, r.toServing().toMillis() / 1000.0));
            }
            case PAUSE_RESUME -> {
                long paused = 2_000 + random.nextInt(4_000);
                log.accept("fault: SIGSTOP node " + node + " for " + paused + " ms");
                cluster.pause(node);
                try {
                    sleep(paused);
                } finally {
                    cluster.resume(node);
                }
            }
            case DEAD_CLIENT -> {
                int count = 1 + random.nextInt(3);
                for (int i = 0; i < count; i++) {
                    String what = workload.deadClientWrite(random);
                    log.accept("fault: " + (what == null ? "dead client skipped (keys on one partition)" : what));
                }
            }
            case WIPE_REPLACE -> {
                log.accept("fault: SIGKILL node " + node + ", wipe its disk, start it as a replacement of itself");
                LocalCluster.StartReport r = cluster.replace(node, config.restartTimeout());
                log.accept(String.format("node %d serves again as a replacement (%.1f s after its start)", node, r.toServing().toMillis() / 1000.0));
            }
            case RESTART_ALL -> {
                long down = 1_000 + random.nextInt(2_000);
                log.accept("fault: SIGKILL every node, restart them all at once after " + down + " ms");
                for (int k = 1; k <= n; k++) cluster.kill(k);
                sleep(down);
                List<Integer> all = new ArrayList<>();
                for (int k = 1; k <= n; k++) all.add(k);
                LocalCluster.StartReport r = restartWhenFree(cluster, all, config.restartTimeout(), log);
                log.accept(String.format("every node serves again (%.1f s after the restart began)", r.toServing().toMillis() / 1000.0));
            }
        }
    }

    /** Restarts any node that is not running (a fault that failed half-way). */
    private void heal(Config config) {
        for (var status : cluster.status()) {
            if (!status.processAlive()) {
                log.accept("heal: node " + status.node() + " is down, restarting it");
                restartWhenFree(cluster, List.of(status.node()), config.restartTimeout(), log);
            }
        }
    }

    /**
     * Restarts stopped nodes; while a SIGKILLed JVM is still being torn down by the kernel its ports stay bound for a
     * moment after the process stopped counting as alive, so a refusal for a port in use is retried for up to 60 s.
     */
    static LocalCluster.StartReport restartWhenFree(LocalCluster cluster, List<Integer> nodes, Duration timeout, Consumer<String> log) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                return nodes.size() == 1 ? cluster.restart(nodes.get(0), timeout) : cluster.restartAll(nodes, timeout);
            } catch (ClusterException e) {
                if (!String.valueOf(e.getMessage()).contains("in use") || System.nanoTime() - deadline > 0) throw e;
                log.accept("restart: " + e.getMessage() + "; again in 1 s");
                sleep(1_000);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
