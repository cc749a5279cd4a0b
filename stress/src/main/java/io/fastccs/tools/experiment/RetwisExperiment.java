package io.fastccs.tools.experiment;

import io.fastccs.tools.stress.RetwisStress;
import io.fastccs.tools.stress.StressOptions;
import io.fastccs.tools.stress.TypedStressRun;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code bin/fastccs experiment retwis}: {@code stress retwis} (1,000 users, 10 follows each, fan-out 200) in every
 * mode, the order alternating between repetitions: FastCCS with typed sets, the others with sets as plain values.
 */
final class RetwisExperiment {
    static final String NAME = "retwis";
    static final List<StressOptions.Mode> MODES = ClaretExperiment.MODES;
    static final String CSV_HEADER = "experiment,figure,parameter,value,mode,rep,op_rate,reads,writes,errors,seconds,mean_ms,"
            + "read_p50_ms,read_p99_ms,write_p50_ms,write_p99_ms,all_p99_ms,second_round_pct,node_cpu_us_per_op,"
            + "client_cpu_us_per_op,load_avg_1m,timeline_adds,lost_timeline,follows,lost_follows";

    static String[] arguments(StressOptions.Mode mode, int seconds, int warmup, int threads, int cqlPort, int fastccsPort, List<String> hosts) {
        return new String[] {"duration=" + seconds + "s", "-rate", "threads=" + threads, "-warmup", "duration=" + warmup + "s",
                "-mode", mode.word(), "-port", "native=" + cqlPort, "fastccs=" + fastccsPort, "-node", String.join(",", hosts)};
    }

    static int run(List<StressOptions.Mode> modes, RunOptions run, Path out, long[] nodePids, int cqlPort, int fastccsPort,
                   List<String> hosts) throws Exception {
        System.out.printf("%n=== %s: modes %s, %d s + %d s warm-up per run, %d threads, %d repetition(s)%n", NAME, modes, run.seconds,
                run.warmup, run.threads, run.reps);
        try (RunTable table = new RunTable(out, NAME, CSV_HEADER, nodePids)) {
            for (int rep = 1; rep <= run.reps; rep++) {
                for (StressOptions.Mode mode : RunTable.orderOf(modes, rep)) {
                    RetwisStress.Options opts = RetwisStress.parse(arguments(mode, run.seconds, run.warmup, run.threads, cqlPort, fastccsPort, hosts));
                    System.out.printf("--- %s rep %d: %s%n", mode.word(), rep, opts.describe());
                    RunTable.Metered<RetwisStress.Outcome> m = table.run(opts.stress(), () -> RetwisStress.run(opts, System.out));
                    if (m == null) continue;
                    CpuMeter cpu = m.cpu();
                    RetwisStress.Outcome outcome = m.outcome();
                    TypedStressRun.Result r = outcome.result();
                    long ops = Math.max(1, r.reads() + r.writes());
                    table.add(String.format(Locale.ROOT, "%s,-,workload,default,%s,%d,%.1f,%d,%d,%d,%.2f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%.1f,%.1f,%.2f,%d,%d,%d,%d",
                            NAME, mode.word(), rep, r.opRate(), r.reads(), r.writes(), r.errors(), r.seconds(), r.all().mean(),
                            r.read().median(), r.read().p99(), r.write().median(), r.write().p99(), r.all().p99(), 100 * r.secondRoundShare(),
                            cpu.nodeMicros() / ops, cpu.clientMicros() / ops, cpu.loadAtStart(), outcome.timelineAdds(),
                            outcome.lostTimeline(), outcome.follows(), outcome.lostFollows()),
                            String.format(Locale.ROOT, "%-9s %,8.0f %10.2f %10.2f %10.3f %8d %12d %10d %10d %8d", mode.word(), r.opRate(),
                            r.read().p99(), r.write().p99(), 100 * r.secondRoundShare(), r.errors(), outcome.timelineAdds(),
                            outcome.lostTimeline(), outcome.follows(), outcome.lostFollows()));
                }
            }
            return table.finish(String.format("%-9s %8s %10s %10s %10s %8s %12s %10s %10s %8s", "mode", "op/s", "read p99",
                    "write p99", "2nd rnd %", "errors", "timeline+", "lost", "follows", "lost"));
        }
    }
}
