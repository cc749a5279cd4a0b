package io.fastccs.tools.nemesis;

import io.fastccs.testkit.ClusterView;
import io.fastccs.testkit.CheckedWorkload;

import io.fastccs.client.FastCcsClient;
import io.fastccs.tools.cluster.ClusterException;
import io.fastccs.tools.cluster.LocalCluster;
import io.fastccs.tools.cluster.ToolClock;
import io.fastccs.tools.cluster.ToolProperty;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
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
        /**
         * Replicated partitions only: a group's leader cut off from the other nodes on the consensus port (the nodes'
         * test-only cut-off, set over JMX) for longer than the election timeout, while clients still reach it; its
         * lease runs out and another member leads.
         */
        LEADER_CUT_OFF,
        /** One node's FastCCS clock stepped forwards or back by up to a few seconds for a few seconds, then back. */
        CLOCK_OFFSET,
        /** SIGKILL one node, wipe its disk, start it as a replacement of itself; only with replicated partitions. */
        WIPE_REPLACE
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
    private final Set<Fault> applicable;
    private final NodeClockOffsets clocks;

    public NemesisRun(LocalCluster cluster, ClusterView view, Consumer<String> log) {
        this.cluster = cluster;
        this.view = view;
        this.log = log;
        this.clocks = new NodeClockOffsets(view.ports());
        this.applicable = applicableFaults(cluster, clocks, log);
    }

    /** The faults this cluster can take, saying in one line why each left out is. */
    private static Set<Fault> applicableFaults(LocalCluster cluster, NodeClockOffsets clocks, Consumer<String> log) {
        Set<Fault> faults = EnumSet.allOf(Fault.class);
        if (!ToolProperty.NEMESIS_WIPE.getBoolean()) {
            // Opt-in for now: Cassandra's replacement bootstrap fails to reach its seed on a loaded machine too often.
            faults.remove(Fault.WIPE_REPLACE);
            log.accept("fault WIPE_REPLACE skipped: not asked for (--with-wipe)");
        }
        if (cluster.replicationFactor() <= 1) {
            faults.remove(Fault.LEADER_CUT_OFF);
            log.accept("fault LEADER_CUT_OFF skipped: replication factor 1, no group leaders to cut off");
            if (faults.remove(Fault.WIPE_REPLACE))
                log.accept("fault WIPE_REPLACE skipped: replication factor 1, a wiped node's partition is lost by design");
        } else {
            Optional<String> why = new RaftCutOffs(cluster.ports(), log).unusableReason(1);
            if (why.isPresent()) {
                faults.remove(Fault.LEADER_CUT_OFF);
                log.accept("fault LEADER_CUT_OFF skipped: " + why.get());
            }
        }
        Optional<String> clockWhy = clocks.unusableReason(1);
        if (clockWhy.isPresent()) {
            faults.remove(Fault.CLOCK_OFFSET);
            log.accept("fault CLOCK_OFFSET skipped: " + clockWhy.get());
        }
        return faults;
    }

    /** The faults a run draws on this cluster (a fault that does not apply is skipped with a line saying why). */
    public Set<Fault> applicableFaults() {
        return Collections.unmodifiableSet(applicable);
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
        long started = ToolClock.nanoTime();
        try (FastCcsClient a = newClient(view); FastCcsClient b = newClient(view)) {
            String prefix = "nemesis:" + Long.toUnsignedString(config.seed(), 36) + ":";
            CheckedWorkload workload = new CheckedWorkload(view, List.of(a, b), prefix, config.threads(), config.keys(),
                    config.keysPerTxn(), config.writeFraction(), config.seed());
            workload.start();
            try {
                sleep(3_000);
                // Every kind once in an order drawn from the seed, then random draws, until the duration is spent.
                List<Fault> firsts = new ArrayList<>(applicable);
                for (int i = firsts.size() - 1; i > 0; i--) {
                    int j = random.nextInt(i + 1);
                    Fault t = firsts.get(i);
                    firsts.set(i, firsts.get(j));
                    firsts.set(j, t);
                }
                long end = started + config.duration().toNanos();
                while (ToolClock.nanoTime() - end < 0 || !firsts.isEmpty() && config.duration().toSeconds() >= 60) {
                    Fault f = firsts.isEmpty() ? draw(random) : firsts.remove(0);
                    inject(f, random, workload, config);
                    faults.merge(f, 1, Integer::sum);
                    long left = (end - ToolClock.nanoTime()) / 1_000_000;
                    long gap = 2_000 + random.nextInt(4_000);
                    if (left <= 0 && firsts.isEmpty()) break;
                    sleep(left <= 0 ? 2_000 : Math.min(left, gap)); // every kind runs once even past the duration
                }
                heal(config);
                sleep(5_000); // the sessions work on the whole cluster again
            } finally {
                workload.stop();
            }
            Duration ran = Duration.ofNanos(ToolClock.nanoTime() - started);
            log.accept(String.format("seed %d: %d transactions attempted in %.0f s; faults %s; settling and reading every key",
                    config.seed(), workload.transactionsAttempted(), ran.toMillis() / 1000.0, faults));
            try (FastCcsClient last = newClient(view)) {
                CheckedWorkload.Result r = workload.finish(last, Duration.ofSeconds(3), config.historyFile(), log);
                return new Result(config.seed(), ran, faults, r);
            }
        }
    }

    /** How often each kind is drawn after the first round, relative to the others that apply. */
    private static int weight(Fault f) {
        return switch (f) {
            case DEAD_CLIENT -> 30;
            case PAUSE_RESUME -> 25;
            case KILL_RESTART -> 20;
            case RESTART_ALL -> 8;
            case LEADER_CUT_OFF -> 10;
            case CLOCK_OFFSET -> 7;
            case WIPE_REPLACE -> 5;
        };
    }

    private Fault draw(SplittableRandom random) {
        int total = 0;
        for (Fault f : applicable) total += weight(f);
        int x = random.nextInt(total);
        for (Fault f : applicable) {
            x -= weight(f);
            if (x < 0) return f;
        }
        throw new AssertionError("no fault applies");
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
            case LEADER_CUT_OFF -> cutOffLeader(view.partitionOfNode(node), random);
            case CLOCK_OFFSET -> {
                // Several hundred ms to a few seconds either way, for a few seconds; then back, itself a step.
                long millis = (300 + random.nextInt(2_700)) * (random.nextBoolean() ? 1L : -1L);
                long held = 3_000 + random.nextInt(3_000);
                String offset = (millis < 0 ? "" : "+") + millis + "ms";
                log.accept("fault: node " + node + "'s clock stepped " + offset + " for " + held + " ms");
                clocks.set(node, offset);
                try {
                    sleep(held);
                } finally {
                    clocks.set(node, "0ms");
                }
            }
        }
    }

    /** Cuts the leader of {@code partition}'s group off from the others on the consensus port for longer than an election. */
    private void cutOffLeader(int partition, SplittableRandom random) {
        int preferred = view.nodeOfPartition(partition);
        int leader = view.leaderAsSeenBy(preferred, partition, Duration.ofSeconds(3));
        if (leader < 0) leader = preferred;
        long cut = 3_000 + random.nextInt(4_000);
        List<Integer> others = new ArrayList<>();
        for (int k = 1; k <= view.nodes(); k++) if (k != leader) others.add(k);
        log.accept("fault: node " + leader + " (leading partition " + partition + ") cut off from nodes " + others
                + " on the consensus port for " + cut + " ms");
        try (RaftCutOffs cutOffs = new RaftCutOffs(view.ports(), log)) {
            cutOffs.cutOff(leader, others);
            sleep(cut);
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
        long deadline = ToolClock.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                return nodes.size() == 1 ? cluster.restart(nodes.get(0), timeout) : cluster.restartAll(nodes, timeout);
            } catch (ClusterException e) {
                if (!String.valueOf(e.getMessage()).contains("in use") || ToolClock.nanoTime() - deadline > 0) throw e;
                log.accept("restart: " + e.getMessage() + "; again in 1 s");
                sleep(1_000);
            }
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
