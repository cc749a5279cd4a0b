package io.fastccs.sim;

import io.fastccs.core.PartitionConfig;
import io.fastccs.check.CheckResult;
import io.fastccs.check.History;
import io.fastccs.check.TccChecker;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The outcome of one simulation: the recorded history, the measurements, and (once asked) the checker's verdict. */
public final class SimResult {
    private final SimConfig config;
    private final long seed;
    private final History history;
    private final SimStats stats;
    private CheckResult check;

    SimResult(SimConfig config, long seed, History history, SimStats stats) {
        this.config = config;
        this.seed = seed;
        this.history = history;
        this.stats = stats;
    }

    public SimConfig config() { return config; }
    public long seed() { return seed; }
    public History history() { return history; }
    public SimStats stats() { return stats; }

    /** The TCC checker's verdict on the history (computed once). */
    public CheckResult check() {
        if (check == null) check = TccChecker.check(history);
        return check;
    }

    /** Every problem found: anomalies, broken invariants, unexpected errors. Empty when the run is clean. */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        CheckResult c = check();
        if (!c.ok()) {
            out.add(c.summary());
            c.anomalies().stream().limit(5).forEach(a -> out.add("  " + a));
        }
        stats.invariantViolations().stream().limit(20).forEach(v -> out.add("invariant: " + v));
        stats.unexpectedErrors().stream().limit(20).forEach(v -> out.add("error: " + v));
        return out;
    }

    public boolean clean() {
        return problems().isEmpty();
    }

    /** The command line that replays this run. */
    public String replayCommand() {
        return replayCommand(config, seed, stats.replicated());
    }

    /** The command line that replays a run of {@code c} from {@code seed} (also one that crashed before its result). */
    static String replayCommand(SimConfig c, long seed, boolean replicated) {
        StringBuilder sb = new StringBuilder("bin/fastccs sim --seed ").append(seed)
                .append(" --partitions ").append(c.partitions()).append(" --clients ").append(c.clients())
                .append(" --keys-per-read ").append(c.keysPerRead()).append(" --keys-per-write ").append(c.keysPerWrite())
                .append(" --write-fraction ").append(c.writeFraction()).append(" --value-size ").append(c.valueSize())
                .append(" --keys ").append(c.keys()).append(" --dist ").append(c.distribution().name().toLowerCase(Locale.ROOT))
                .append(" --txns ").append(c.transactions());
        if (c.zipfExponent() != SimConfig.DEFAULT_ZIPF_EXPONENT) sb.append(" --zipf-exponent ").append(c.zipfExponent());
        sb.append(" --transaction-timeout-ms ").append(c.partition().transactionTimeoutMicros() / 1000)
                .append(" --stabilization-interval-ms ").append(c.partition().stabilizationIntervalMicros() / 1000.0);
        if (c.partition().stabilizationFanout() != PartitionConfig.DEFAULT_STABILIZATION_FANOUT)
            sb.append(" --stabilization-fanout ").append(c.partition().stabilizationFanout());
        if (!c.fifo()) sb.append(" --reorder");
        if (c.faults().any()) sb.append(" --faults");
        if (replicated) sb.append(" --replicated");
        if (c.protocol() != SimConfig.DEFAULT_PROTOCOL) sb.append(" --protocol ").append(c.protocol().word());
        return sb.toString();
    }

    /** A human-readable report of the measurements and the verdict. */
    public String report() {
        SimStats s = stats;
        long txns = Math.max(1, s.transactions());
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "seed %d: %s%n", seed, config));
        sb.append(String.format(Locale.ROOT, "throughput      %,.0f txn/s (simulated), %,d txns in %.3f s%n",
                s.throughput(), s.transactions(), s.workloadMicros() / 1e6));
        sb.append(String.format(Locale.ROOT, "reads           %,d, second round %.3f%% (%,d), rounds/read %.4f%n",
                s.reads(), 100 * s.secondRoundShare(), s.secondRoundReads(), s.meanRoundsPerRead()));
        sb.append(String.format(Locale.ROOT, "read latency    mean %.2f ms, p50 %.2f, p99 %.2f ms%n",
                s.readLatency().mean() / 1000, s.readLatency().quantile(0.5) / 1000.0, s.readLatency().quantile(0.99) / 1000.0));
        sb.append(String.format(Locale.ROOT, "writes          %,d committed, %,d not confirmed%n", s.writesCommitted(), s.writesNotConfirmed()));
        sb.append(String.format(Locale.ROOT, "write latency   mean %.2f ms, p50 %.2f, p99 %.2f ms%n",
                s.writeLatency().mean() / 1000, s.writeLatency().quantile(0.5) / 1000.0, s.writeLatency().quantile(0.99) / 1000.0));
        sb.append(String.format(Locale.ROOT, "messages        %.1f per txn, %.0f bytes per txn, of which metadata %.0f%n",
                (double) s.messages() / txns, (double) s.bytes() / txns, (double) s.metadataBytes() / txns));
        sb.append(String.format(Locale.ROOT, "stabilization   %.1f messages per txn, %.0f bytes per txn%n",
                (double) s.stabilizationMessages() / txns, (double) s.stabilizationBytes() / txns));
        if (config.faults().any())
            sb.append(String.format(Locale.ROOT,
                    "faults          %d partition crashes, %d client crashes mid-write, %d messages lost, %d delay spikes, "
                            + "%d read timeouts, %d write timeouts, %d snapshot-expired retries, unknown outcomes settled %s%n",
                    s.partitionCrashes(), s.clientCrashes(), s.messagesLost(), s.delaySpikes(), s.readTimeouts(),
                    s.writeTimeouts(), s.snapshotExpiredRetries(), s.outcomesResolved()));
        if (s.replicated())
            sb.append(String.format(Locale.ROOT, "replication     groups of 3: %,d log entries, %,d leaders cut off from their "
                            + "followers, %,d uncommitted entries lost in failovers%n",
                    s.groupLogEntries(), s.depositions(), s.uncommittedEntriesLost()));
        sb.append(String.format(Locale.ROOT, "versions stored %,d at the end%n", s.versionsStored()));
        sb.append("checker         ").append(check().summary()).append('\n');
        List<String> problems = problems();
        if (problems.isEmpty()) sb.append("verdict         CLEAN\n");
        else {
            sb.append("verdict         FAILED\n");
            for (String p : problems) sb.append("  ").append(p).append('\n');
            sb.append("replay          ").append(replayCommand()).append('\n');
        }
        return sb.toString();
    }
}
