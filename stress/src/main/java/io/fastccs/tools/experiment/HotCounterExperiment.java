package io.fastccs.tools.experiment;

import io.fastccs.tools.stress.CounterStress;
import io.fastccs.tools.stress.StressOptions;
import io.fastccs.tools.stress.TypedStressRun;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code bin/fastccs experiment hot-counter}: Doppel's INCR on one hot key at 64 threads (the experiment's own
 * default, {@code --threads} overrides it): FastCCS's commutative add, a blind put (the upper bound), read-modify-write
 * with FastCCS and with the eventual protocol, and Cassandra's native counter column ({@code -mode cql}); plus FastCCS's
 * add spread over 1,000 counters, the uncontended reference. Points are {@code OP/MODE[/KEYS]}; the order alternates
 * between repetitions. Each row has the run's figures and the final value against the increments acknowledged.
 */
final class HotCounterExperiment {
    static final String NAME = "hot-counter";
    static final List<String> POINTS = List.of("add/fastccs", "put/fastccs", "rmw/fastccs", "rmw/eventual", "add/cql", "add/fastccs/1000");
    static final int THREADS = 64;
    static final String CSV_HEADER = "experiment,figure,parameter,value,mode,rep,op_rate,reads,writes,errors,seconds,mean_ms,"
            + "write_p50_ms,write_p95_ms,write_p99_ms,second_round_pct,node_cpu_us_per_op,client_cpu_us_per_op,load_avg_1m,"
            + "keys,op,final_value,acknowledged,unconfirmed,lost_updates,lost_pct";

    /** The stress counter arguments of a point. */
    static String[] arguments(String point, int seconds, int warmup, int threads, int cqlPort, int fastccsPort, List<String> hosts) {
        String[] parts = point.split("/");
        if (parts.length < 2 || parts.length > 3) throw new IllegalArgumentException("a hot-counter point is OP/MODE[/KEYS] (e.g. add/fastccs), got '" + point + "'");
        List<String> args = new ArrayList<>(List.of("op=" + parts[0], "keys=" + (parts.length == 3 ? parts[2] : "1"),
                "duration=" + seconds + "s", "-rate", "threads=" + threads, "-warmup", "duration=" + warmup + "s",
                "-mode", parts[1], "-port", "native=" + cqlPort, "fastccs=" + fastccsPort, "-node", String.join(",", hosts)));
        return args.toArray(String[]::new);
    }

    static int run(List<String> points, RunOptions run, boolean threadsGiven, Path out, long[] nodePids, int cqlPort,
                   int fastccsPort, List<String> hosts) throws Exception {
        int threads = threadsGiven ? run.threads : THREADS;
        for (String p : points) CounterStress.parse(arguments(p, run.seconds, run.warmup, threads, cqlPort, fastccsPort, hosts));
        System.out.printf("%n=== %s: %s, %d s + %d s warm-up per run, %d threads, %d repetition(s)%n", NAME, points, run.seconds,
                run.warmup, threads, run.reps);
        int total = points.size() * run.reps, done = 0;
        try (RunTable table = new RunTable(out, NAME, CSV_HEADER, nodePids)) {
            for (int rep = 1; rep <= run.reps; rep++) {
                for (String point : RunTable.orderOf(points, rep)) {
                    CounterStress.Options opts = CounterStress.parse(arguments(point, run.seconds, run.warmup, threads, cqlPort, fastccsPort, hosts));
                    StressOptions o = opts.stress();
                    System.out.printf("--- run %d of %d: %s rep %d: %s%n", ++done, total, point, rep, opts.describe());
                    RunTable.Metered<CounterStress.Outcome> m = table.run(o, () -> CounterStress.run(opts, System.out));
                    if (m == null) continue;
                    CpuMeter cpu = m.cpu();
                    TypedStressRun.Result r = m.outcome().result();
                    CounterStress.Verdict v = m.outcome().verdict();
                    long ops = Math.max(1, r.reads() + r.writes());
                    table.add(String.format(Locale.ROOT, "%s,-,op/mode/keys,%s,%s,%d,%.1f,%d,%d,%d,%.2f,%.3f,%.3f,%.3f,%.3f,%.4f,%.1f,%.1f,%.2f,%d,%s,%s,%s,%s,%s,%s",
                            NAME, point.replace(',', ';'), o.mode.word(), rep, r.opRate(), r.reads(), r.writes(), r.errors(), r.seconds(),
                            r.all().mean(), r.write().median(), r.write().p95(), r.write().p99(), 100 * r.secondRoundShare(),
                            cpu.nodeMicros() / ops, cpu.clientMicros() / ops, cpu.loadAtStart(), opts.keys(),
                            opts.op().name().toLowerCase(Locale.ROOT),
                            v == null ? "" : Long.toString(v.finalValue()), v == null ? "" : Long.toString(v.acknowledged()),
                            v == null ? "" : Long.toString(v.unconfirmed()), v == null ? "" : Long.toString(v.lost()),
                            v == null ? "" : String.format(Locale.ROOT, "%.3f", v.acknowledged() == 0 ? 0.0 : 100.0 * v.lost() / v.acknowledged())),
                            String.format(Locale.ROOT, "%-18s %-9s %,10.0f %10.2f %10.2f %8d %12s %12s %10s %10s", point, o.mode.word(),
                            r.opRate(), r.write().median(), r.write().p99(), r.errors(),
                            v == null ? "-" : String.format(Locale.ROOT, "%,d", v.finalValue()),
                            v == null ? "-" : String.format(Locale.ROOT, "%,d", v.acknowledged()),
                            v == null ? "-" : String.format(Locale.ROOT, "%,d", v.unconfirmed()),
                            v == null ? "-" : String.format(Locale.ROOT, "%,d", v.lost())));
                }
            }
            return table.finish(String.format("%-18s %-9s %10s %10s %10s %8s %12s %12s %10s %10s", "point", "mode", "op/s",
                    "p50 ms", "p99 ms", "errors", "final", "acked", "unconf.", "lost"));
        }
    }
}
