package io.fastccs.sim;

import io.fastccs.workload.KeyDistribution;
import io.fastccs.check.MonotonicClock;
import io.fastccs.check.PlumeText;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.primitives.Protocol;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code bin/fastccs sim}: one simulation from one seed, its measurements and the checker's verdict. */
@Command(name = "sim", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs FastCCS (or, with --protocol, a protocol it is compared with) on a simulated cluster (the real "
                + "protocol classes, simulated network and time), "
                + "prints throughput in simulated time, read rounds, write latency, messages and metadata per "
                + "transaction, and checks the recorded history for TCC anomalies. Exit code 1 on any anomaly or "
                + "broken invariant (eventual is expected to show anomalies). Defaults follow Table 4.1 of the thesis; the network has 0.5 ms mean delay "
                + "and 1 Gb/s per node."})
public final class SimCommand implements Callable<Integer> {
    @Option(names = "--partitions", description = "number of partitions, 1 to 4096 (default: ${DEFAULT-VALUE})")
    int partitions = 8;
    @Option(names = "--clients", description = "closed-loop client sessions (default: ${DEFAULT-VALUE})")
    int clients = 64;
    @Option(names = "--keys-per-read", description = "keys per read-only transaction (default: ${DEFAULT-VALUE})")
    int keysPerRead = 5;
    @Option(names = "--keys-per-write", description = "keys per write-only transaction (default: ${DEFAULT-VALUE})")
    int keysPerWrite = 5;
    @Option(names = "--write-fraction", description = "share of transactions that write (default: ${DEFAULT-VALUE})")
    double writeFraction = 0.05;
    @Option(names = "--value-size", description = "bytes per value; at least 8 are sent (default: ${DEFAULT-VALUE})")
    int valueSize = 128;
    @Option(names = "--keys", description = "key population 1..COUNT (default: ${DEFAULT-VALUE})")
    long keys = 100_000;
    @Option(names = "--dist", description = "key distribution: gaussian, uniform or zipf (default: ${DEFAULT-VALUE})")
    String dist = "gaussian";
    @Option(names = "--txns", description = "transactions to run (default: ${DEFAULT-VALUE})")
    long txns = 20_000;
    @Option(names = "--seed", description = "the seed that decides everything (default: random, printed)")
    Long seed;
    @Option(names = "--faults", description = "inject message loss, delay spikes, client crashes mid-write and partition crashes"
            + " (no partition crashes for eiger, wren and eventual)")
    boolean faults;
    @Option(names = "--replicated", description = "each partition a group of three replicas under consensus: "
            + "what a step writes and sends waits for a majority; a crash is a failover losing uncommitted entries")
    boolean replicated;
    @Option(names = "--zipf-exponent", description = "with --dist zipf: the exponent (default: ${DEFAULT-VALUE}, YCSB's)")
    double zipfExponent = SimConfig.DEFAULT_ZIPF_EXPONENT;
    @Option(names = "--crashes-per-second", paramLabel = "RATE",
            description = "only partition crashes, at this rate, each down for up to the transaction timeout "
                    + "(replaces the other faults; applies to --burn-seed too)")
    Double crashesPerSecond;
    @Option(names = "--reorder", description = "links do not keep FIFO order")
    boolean reorder;
    @Option(names = "--max-clock-skew-ms", description = "partitions' clocks disagree by up to this much: each runs ahead "
            + "of true time by a fixed random offset up to it (default: ${DEFAULT-VALUE})")
    double maxClockSkewMs;
    @Option(names = "--typed-fraction", paramLabel = "SHARE", description = "share of keys written with commutative "
            + "operations instead of puts: counters, max registers, add-wins sets and top-k in turn (default: ${DEFAULT-VALUE})")
    double typedFraction;
    @Option(names = "--stabilization-interval-ms", description = "how often partitions stabilize (default: ${DEFAULT-VALUE})")
    double stabilizationMs = PartitionConfig.defaults().stabilizationIntervalMicros() / 1000.0;
    @Option(names = "--stabilization-fanout", description = "up to FANOUT + 1 partitions stabilize all-to-all, beyond it up "
            + "and down a tree of this fan-out (default: ${DEFAULT-VALUE})")
    int stabilizationFanout = PartitionConfig.DEFAULT_STABILIZATION_FANOUT;
    @Option(names = "--transaction-timeout-ms", description = "coordinator and participant timeout (default: ${DEFAULT-VALUE})")
    long transactionTimeoutMs = 2000;
    @Option(names = "--history", description = "write the history to FILE in the Plume text format")
    Path history;
    @Option(names = "--protocol", paramLabel = "NAME",
            description = "fastccs, eiger, wren or eventual (default: ${DEFAULT-VALUE}); with --faults, the other protocols"
                    + " get message loss, delay spikes and client crashes mid-write but no partition crashes (their state is in memory)")
    String protocol = "fastccs";

    @Option(names = "--burn-seed", description = "replay the burn test's run for SEED: its random configuration and seed"
            + " (ignores the workload options; with --protocol, that protocol's burn run)")
    Long burnSeed;

    @Override
    public Integer call() throws Exception {
        long s = seed != null ? seed : new java.util.SplittableRandom().nextLong();
        Protocol chosen = Protocol.parse(protocol);
        PartitionConfig.Builder partition = PartitionConfig.builder()
                .transactionTimeoutMicros(transactionTimeoutMs * 1000)
                .versionRetentionMicros(transactionTimeoutMs * 1000)
                .stabilizationIntervalMicros(Math.round(stabilizationMs * 1000))
                .stabilizationFanout(stabilizationFanout);
        SimConfig config = SimConfig.builder().partitions(partitions).clients(clients).keysPerRead(keysPerRead)
                .keysPerWrite(keysPerWrite).writeFraction(writeFraction).valueSize(valueSize).keys(keys)
                .distribution(KeyDistribution.Shape.parse(dist)).zipfExponent(zipfExponent).transactions(txns).fifo(!reorder)
                .maxClockSkewMicros(Math.round(maxClockSkewMs * 1000))
                .typedFraction(typedFraction)
                .faults(!faults ? SimConfig.Faults.none() : SimConfig.Faults.standardFor(chosen))
                .partition(partition.build()).protocol(chosen).build();
        if (burnSeed != null) {
            s = burnSeed;
            config = BurnConfigs.forSeed(burnSeed, chosen);
        }
        if (crashesPerSecond != null) config = SimConfig.crashHeavy(config, crashesPerSecond);
        long started = MonotonicClock.nanoTime();
        Simulation simulation = new Simulation(config, s);
        if (replicated) simulation.replicate();
        SimResult result = simulation.run();
        String report = result.report();
        System.out.print(report);
        System.out.printf("wall time       %.1f s%n", (MonotonicClock.nanoTime() - started) / 1e9);
        if (history != null) {
            PlumeText.write(result.history(), history);
            System.out.println("history         " + history + " (check with: bin/fastccs check " + history
                    + " --final-session " + Simulation.FINAL_SESSION + ")");
        }
        return result.clean() ? 0 : 1;
    }

    public static void main(String[] args) {
        CommandLine cl = new CommandLine(new SimCommand());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            System.err.println("sim: " + ex.getMessage());
            return 2;
        });
        System.exit(cl.execute(args));
    }
}
