package io.fastccs.tools.experiment;

import io.fastccs.tools.stress.ClaretStress;
import io.fastccs.tools.stress.StressOptions;
import io.fastccs.tools.stress.TypedStressRun;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code bin/fastccs experiment claret}: Claret's raw mix ({@code stress claret}) over points {@code ZIPF/ADDS} (Zipf
 * 0.6, 1.0, 1.4 by add share 0.2, 0.5), every mode per point, the order of the modes alternating between repetitions:
 * FastCCS with typed sets, the other protocols and plain Cassandra with sets kept as plain values (read, then written).
 */
final class ClaretExperiment {
    static final String NAME = "claret";
    static final List<String> POINTS = points();
    static final List<StressOptions.Mode> MODES = List.of(StressOptions.Mode.FASTCCS, StressOptions.Mode.EIGER,
            StressOptions.Mode.WREN, StressOptions.Mode.EVENTUAL, StressOptions.Mode.CQL);
    static final String CSV_HEADER = "experiment,figure,parameter,value,mode,rep,op_rate,reads,writes,errors,seconds,mean_ms,"
            + "read_p50_ms,read_p99_ms,write_p50_ms,write_p99_ms,all_p99_ms,second_round_pct,node_cpu_us_per_op,"
            + "client_cpu_us_per_op,load_avg_1m,zipf,adds,acknowledged_adds,lost_adds,lost_pct";

    private static List<String> points() {
        List<String> p = new ArrayList<>();
        for (String zipf : List.of("0.6", "1.0", "1.4")) for (String adds : List.of("0.2", "0.5")) p.add(zipf + "/" + adds);
        return p;
    }

    static String[] arguments(String point, StressOptions.Mode mode, int seconds, int warmup, int threads, int cqlPort,
                              int fastccsPort, List<String> hosts) {
        String[] parts = point.split("/");
        if (parts.length != 2) throw new IllegalArgumentException("a claret point is ZIPF/ADDS (e.g. 1.0/0.5), got '" + point + "'");
        return new String[] {"zipf=" + parts[0], "adds=" + parts[1], "duration=" + seconds + "s", "-rate", "threads=" + threads,
                "-warmup", "duration=" + warmup + "s", "-mode", mode.word(), "-port", "native=" + cqlPort, "fastccs=" + fastccsPort,
                "-node", String.join(",", hosts)};
    }

    static int run(List<String> points, List<StressOptions.Mode> modes, RunOptions run, Path out, long[] nodePids, int cqlPort,
                   int fastccsPort, List<String> hosts) throws Exception {
        for (String p : points) for (StressOptions.Mode m : modes)
            ClaretStress.parse(arguments(p, m, run.seconds, run.warmup, run.threads, cqlPort, fastccsPort, hosts));
        System.out.printf("%n=== %s: zipf/adds over %s, modes %s, %d s + %d s warm-up per run, %d threads, %d repetition(s)%n",
                NAME, points, modes, run.seconds, run.warmup, run.threads, run.reps);
        int total = points.size() * modes.size() * run.reps, done = 0;
        try (RunTable table = new RunTable(out, NAME, CSV_HEADER, nodePids)) {
            for (String point : points) {
                for (int rep = 1; rep <= run.reps; rep++) {
                    for (StressOptions.Mode mode : RunTable.orderOf(modes, rep)) {
                        ClaretStress.Options opts = ClaretStress.parse(arguments(point, mode, run.seconds, run.warmup, run.threads,
                                cqlPort, fastccsPort, hosts));
                        System.out.printf("--- run %d of %d: %s rep %d: %s%n", ++done, total, point, rep, opts.describe());
                        RunTable.Metered<ClaretStress.Outcome> m = table.run(opts.stress(), () -> ClaretStress.run(opts, System.out));
                        if (m == null) continue;
                        CpuMeter cpu = m.cpu();
                        ClaretStress.Outcome outcome = m.outcome();
                        TypedStressRun.Result r = outcome.result();
                        long ops = Math.max(1, r.reads() + r.writes());
                        table.add(String.format(Locale.ROOT, "%s,-,zipf/adds,%s,%s,%d,%.1f,%d,%d,%d,%.2f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%.1f,%.1f,%.2f,%s,%s,%d,%d,%.3f",
                                NAME, point, mode.word(), rep, r.opRate(), r.reads(), r.writes(), r.errors(), r.seconds(), r.all().mean(),
                                r.read().median(), r.read().p99(), r.write().median(), r.write().p99(), r.all().p99(),
                                100 * r.secondRoundShare(), cpu.nodeMicros() / ops, cpu.clientMicros() / ops, cpu.loadAtStart(),
                                opts.zipf(), opts.adds(), outcome.acknowledgedAdds(), outcome.lostAdds(), 100 * outcome.lostShare()),
                                String.format(Locale.ROOT, "%-9s %-9s %,10.0f %10.2f %10.2f %10.3f %8d %12d %10d %8.2f", point, mode.word(),
                                r.opRate(), r.read().p99(), r.write().p99(), 100 * r.secondRoundShare(), r.errors(),
                                outcome.acknowledgedAdds(), outcome.lostAdds(), 100 * outcome.lostShare()));
                    }
                }
            }
            return table.finish(String.format("%-9s %-9s %10s %10s %10s %10s %8s %12s %10s %8s", "zipf/adds", "mode", "op/s",
                    "read p99", "write p99", "2nd rnd %", "errors", "acked adds", "lost", "lost %"));
        }
    }
}
