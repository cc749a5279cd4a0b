package io.fastccs.sim;

import io.fastccs.core.spi.Capability;
import io.fastccs.core.spi.Protocols;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.primitives.Protocol;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code bin/fastccs experiment sim-rounds}: the simulated side of figure 4.8 of the thesis. Runs the Table 4.1
 * workload on 8, 64 and 1024 simulated partitions at several write fractions and records throughput (simulated),
 * the share of reads that needed a second round, latencies and metadata per transaction, each history checked.
 */
@Command(name = "sim-rounds", mixinStandardHelpOptions = true,
        description = "Second-round share and throughput against partitions and write fraction, on the simulator.")
public final class RoundsExperiment implements Callable<Integer> {
    @Option(names = "--partitions", split = ",", description = "partition counts (default: ${DEFAULT-VALUE})")
    List<Integer> partitions = List.of(8, 64, 1024);
    @Option(names = "--write-fractions", split = ",", description = "write fractions (default: ${DEFAULT-VALUE})")
    List<Double> writeFractions = List.of(0.01, 0.05, 0.2, 0.5);
    @Option(names = "--txns", description = "transactions per run (default: ${DEFAULT-VALUE})")
    long txns = 20_000;
    @Option(names = "--clients", description = "client sessions, the same for every size: the thesis's fixed workload (default: ${DEFAULT-VALUE})")
    int clients = 64;
    @Option(names = "--seed", description = "seed of every run (default: ${DEFAULT-VALUE})")
    long seed = 1;
    @Option(names = "--protocols", split = ",", paramLabel = "NAME",
            description = "protocols to run at every point, in this order (fastccs, eiger, wren, eventual; default: ${DEFAULT-VALUE})")
    List<String> protocols = List.of("fastccs");
    @Option(names = "--stabilization-interval-ms", description = "how often partitions stabilize (default: ${DEFAULT-VALUE})")
    double stabilizationMs = PartitionConfig.defaults().stabilizationIntervalMicros() / 1000.0;
    @Option(names = "--stabilization-fanout", description = "up to FANOUT + 1 partitions stabilize all-to-all, beyond it up "
            + "and down a tree of this fan-out (default: ${DEFAULT-VALUE})")
    int stabilizationFanout = PartitionConfig.DEFAULT_STABILIZATION_FANOUT;
    @Option(names = "--out", description = "CSV file (default: ${DEFAULT-VALUE})")
    Path out = Path.of("results/sim-rounds.csv");

    @Override
    public Integer call() throws Exception {
        if (out.getParent() != null) Files.createDirectories(out.getParent());
        boolean clean = true;
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out))) {
            csv.println("protocol,partitions,write_fraction,seed,transactions,throughput_txn_per_s,second_round_share,rounds_per_read,"
                    + "read_p50_ms,read_p99_ms,write_mean_ms,write_p99_ms,messages_per_txn,bytes_per_txn,metadata_bytes_per_txn,"
                    + "stabilization_messages_per_txn,stabilization_bytes_per_txn,anomalies,verdict");
            System.out.printf("%-9s %10s %6s %12s %10s %9s %9s %10s %11s %10s %9s%n", "protocol", "partitions", "writes", "txn/s(sim)",
                    "2nd-round", "read p99", "write p99", "msgs/txn", "meta B/txn", "stab/txn", "verdict");
            List<Protocol> chosen = protocols.stream().map(Protocol::parse).toList();
            for (int n : partitions)
                for (double wf : writeFractions)
                    for (Protocol protocol : chosen) clean &= runPoint(csv, protocol, n, wf);
        }
        System.out.println("wrote " + out);
        return clean ? 0 : 1;
    }

    /** One run at one point, a CSV row and a printed line; whether it passed. */
    private boolean runPoint(PrintWriter csv, Protocol protocol, int n, double wf) {
        SimConfig config = SimConfig.builder().partitions(n).clients(clients).writeFraction(wf).transactions(txns)
                .partition(PartitionConfig.builder().stabilizationIntervalMicros(Math.round(stabilizationMs * 1000))
                        .stabilizationFanout(stabilizationFanout).build())
                .protocol(protocol).build();
        SimResult r = new Simulation(config, seed).run();
        SimStats s = r.stats();
        double t = Math.max(1, s.transactions());
        // A protocol without causal consistency may show anomalies (finding them is the checker's job), nothing else.
        boolean passed = !Protocols.factory(protocol).has(Capability.CAUSAL_CONSISTENCY)
                ? s.invariantViolations().isEmpty() && s.unexpectedErrors().isEmpty() : r.clean();
        String verdict = r.clean() ? "CLEAN" : passed ? "ANOMALIES" : "FAILED";
        csv.printf(Locale.ROOT, "%s,%d,%.2f,%d,%d,%.0f,%.5f,%.5f,%.3f,%.3f,%.3f,%.3f,%.1f,%.0f,%.0f,%.2f,%.0f,%d,%s%n", protocol.word(), n, wf, seed,
                s.transactions(), s.throughput(), s.secondRoundShare(), s.meanRoundsPerRead(),
                s.readLatency().quantile(0.5) / 1000.0, s.readLatency().quantile(0.99) / 1000.0,
                s.writeLatency().mean() / 1000, s.writeLatency().quantile(0.99) / 1000.0,
                s.messages() / t, s.bytes() / t, s.metadataBytes() / t, s.stabilizationMessages() / t,
                s.stabilizationBytes() / t, r.check().totalAnomalies(), verdict);
        csv.flush();
        System.out.printf(Locale.ROOT, "%-9s %10d %6.2f %12.0f %9.3f%% %7.2fms %7.2fms %10.1f %11.0f %10.2f %9s%n", protocol.word(), n, wf,
                s.throughput(), 100 * s.secondRoundShare(), s.readLatency().quantile(0.99) / 1000.0,
                s.writeLatency().quantile(0.99) / 1000.0, s.messages() / t, s.metadataBytes() / t, s.stabilizationMessages() / t,
                verdict);
        if (!passed) System.out.println("  replay: " + r.replayCommand());
        return passed;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new RoundsExperiment()).execute(args));
    }
}
