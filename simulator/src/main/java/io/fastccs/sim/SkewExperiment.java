package io.fastccs.sim;

import io.fastccs.core.PartitionConfig;
import io.fastccs.workload.KeyDistribution;
import io.fastccs.workload.Staleness;
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
 * {@code bin/fastccs experiment sim-skew}: the simulated side of the hot-key sweep ({@code experiment skew}). Zipf keys
 * over a small key space, the exponent and the write fraction swept, everything else Table 4.1; the share of reads
 * that needed a second round, throughput and latencies, how stale the reads were (as the stress tool measures it), each
 * history checked.
 */
@Command(name = "sim-skew", mixinStandardHelpOptions = true,
        description = "Second-round share and throughput against zipf skew and write fraction, on the simulator.")
public final class SkewExperiment implements Callable<Integer> {
    @Option(names = "--exponents", split = ",", description = "zipf exponents (default: ${DEFAULT-VALUE})")
    List<Double> exponents = List.of(0.6, 0.8, 1.0, 1.2, 1.4);
    @Option(names = "--write-fractions", split = ",", description = "write fractions (default: ${DEFAULT-VALUE})")
    List<Double> writeFractions = List.of(0.05, 0.1, 0.25, 0.5);
    @Option(names = "--keys", description = "key population (default: ${DEFAULT-VALUE})")
    long keys = 1_000;
    @Option(names = "--partitions", description = "partitions (default: ${DEFAULT-VALUE})")
    int partitions = 8;
    @Option(names = "--txns", description = "transactions per run (default: ${DEFAULT-VALUE})")
    long txns = 20_000;
    @Option(names = "--clients", description = "client sessions (default: ${DEFAULT-VALUE})")
    int clients = 64;
    @Option(names = "--seed", description = "seed of every run (default: ${DEFAULT-VALUE})")
    long seed = 1;
    @Option(names = "--stabilization-fanout", description = "up to FANOUT + 1 partitions stabilize all-to-all, beyond it up "
            + "and down a tree of this fan-out (default: ${DEFAULT-VALUE})")
    int stabilizationFanout = PartitionConfig.DEFAULT_STABILIZATION_FANOUT;
    @Option(names = "--out", description = "CSV file (default: ${DEFAULT-VALUE})")
    Path out = Path.of("results/sim-skew.csv");

    @Override
    public Integer call() throws Exception {
        if (out.getParent() != null) Files.createDirectories(out.getParent());
        boolean clean = true;
        int runs = exponents.size() * writeFractions.size(), run = 0;
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out))) {
            csv.println("zipf_exponent,write_fraction,keys,partitions,seed,transactions,throughput_txn_per_s,second_round_share,"
                    + "read_p50_ms,read_p99_ms,write_p99_ms,anomalies,verdict,stale_read_pct,staleness_mean_ms,staleness_p99_ms");
            System.out.printf("%8s %6s %12s %10s %9s %9s %9s %9s %9s %11s%n", "exponent", "writes", "txn/s(sim)", "2nd-round",
                    "read p50", "read p99", "write p99", "verdict", "stale", "stale p99");
            for (double exponent : exponents) {
                for (double wf : writeFractions) {
                    run++;
                    SimConfig config = SimConfig.builder().partitions(partitions).clients(clients).writeFraction(wf)
                            .keys(keys).distribution(KeyDistribution.Shape.ZIPF).zipfExponent(exponent).transactions(txns)
                            .partition(PartitionConfig.builder().stabilizationFanout(stabilizationFanout).build())
                            .build();
                    SimResult r = new Simulation(config, seed).run();
                    SimStats s = r.stats();
                    String verdict = r.clean() ? "CLEAN" : "FAILED";
                    clean &= r.clean();
                    Staleness.Summary stale = s.staleReads();
                    csv.printf(Locale.ROOT, "%.2f,%.2f,%d,%d,%d,%d,%.0f,%.5f,%.3f,%.3f,%.3f,%d,%s,%.4f,%.3f,%.3f%n", exponent, wf, keys, partitions,
                            seed, s.transactions(), s.throughput(), s.secondRoundShare(), s.readLatency().quantile(0.5) / 1000.0,
                            s.readLatency().quantile(0.99) / 1000.0, s.writeLatency().quantile(0.99) / 1000.0,
                            r.check().totalAnomalies(), verdict, 100 * stale.staleShare(), stale.meanMs(), stale.p99Ms());
                    csv.flush();
                    System.out.printf(Locale.ROOT, "%8.2f %6.2f %12.0f %9.3f%% %7.2fms %7.2fms %7.2fms %9s %8.3f%% %9.2fms   (run %d of %d)%n",
                            exponent, wf, s.throughput(), 100 * s.secondRoundShare(), s.readLatency().quantile(0.5) / 1000.0,
                            s.readLatency().quantile(0.99) / 1000.0, s.writeLatency().quantile(0.99) / 1000.0, verdict,
                            100 * stale.staleShare(), stale.p99Ms(), run, runs);
                }
            }
        }
        System.out.println("wrote " + out);
        return clean ? 0 : 1;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new SkewExperiment()).execute(args));
    }
}
