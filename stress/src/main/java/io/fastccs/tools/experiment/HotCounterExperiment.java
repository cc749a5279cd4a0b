package io.fastccs.tools.experiment;

import io.fastccs.tools.stress.CounterStress;
import io.fastccs.tools.stress.StressOptions;
import io.fastccs.tools.stress.TypedStressRun;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
        Files.createDirectories(out);
        Path csvFile = out.resolve(NAME + ".csv"), partial = out.resolve(NAME + ".csv.partial");
        System.out.printf("%n=== %s: %s, %d s + %d s warm-up per run, %d threads, %d repetition(s)%n", NAME, points, run.seconds,
                run.warmup, threads, run.reps);
        int rows = 0, failed = 0, total = points.size() * run.reps, done = 0;
        List<String> table = new ArrayList<>();
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(partial))) {
            csv.println(CSV_HEADER);
            for (int rep = 1; rep <= run.reps; rep++) {
                List<String> order = new ArrayList<>(points);
                if (rep % 2 == 0) java.util.Collections.reverse(order);
                for (String point : order) {
                    CounterStress.Options opts = CounterStress.parse(arguments(point, run.seconds, run.warmup, threads, cqlPort, fastccsPort, hosts));
                    StressOptions o = opts.stress();
                    o.quiet = true;
                    CpuMeter cpu = new CpuMeter(nodePids);
                    o.atMeasureStart = cpu::start;
                    o.atMeasureEnd = cpu::stop;
                    System.out.printf("--- run %d of %d: %s rep %d: %s%n", ++done, total, point, rep, opts.describe());
                    CounterStress.Outcome outcome;
                    try {
                        outcome = CounterStress.run(opts, System.out);
                    } catch (Exception failure) {
                        System.out.println("    run failed, left out: " + failure);
                        failed++;
                        continue;
                    }
                    TypedStressRun.Result r = outcome.result();
                    CounterStress.Verdict v = outcome.verdict();
                    long ops = Math.max(1, r.reads() + r.writes());
                    String row = String.format(Locale.ROOT, "%s,-,op/mode/keys,%s,%s,%d,%.1f,%d,%d,%d,%.2f,%.3f,%.3f,%.3f,%.3f,%.4f,%.1f,%.1f,%.2f,%d,%s,%s,%s,%s,%s,%s",
                            NAME, point.replace(',', ';'), o.mode.word(), rep, r.opRate(), r.reads(), r.writes(), r.errors(), r.seconds(),
                            r.all().mean(), r.write().median(), r.write().p95(), r.write().p99(), 100 * r.secondRoundShare(),
                            cpu.nodeMicros() / ops, cpu.clientMicros() / ops, cpu.loadAtStart(), opts.keys(),
                            opts.op().name().toLowerCase(Locale.ROOT),
                            v == null ? "" : Long.toString(v.finalValue()), v == null ? "" : Long.toString(v.acknowledged()),
                            v == null ? "" : Long.toString(v.unconfirmed()), v == null ? "" : Long.toString(v.lost()),
                            v == null ? "" : String.format(Locale.ROOT, "%.3f", v.acknowledged() == 0 ? 0.0 : 100.0 * v.lost() / v.acknowledged()));
                    csv.println(row);
                    csv.flush();
                    rows++;
                    String line = String.format(Locale.ROOT, "%-18s %-9s %,10.0f %10.2f %10.2f %8d %12s %12s %10s %10s", point, o.mode.word(),
                            r.opRate(), r.write().median(), r.write().p99(), r.errors(),
                            v == null ? "-" : String.format(Locale.ROOT, "%,d", v.finalValue()),
                            v == null ? "-" : String.format(Locale.ROOT, "%,d", v.acknowledged()),
                            v == null ? "-" : String.format(Locale.ROOT, "%,d", v.unconfirmed()),
                            v == null ? "-" : String.format(Locale.ROOT, "%,d", v.lost()));
                    table.add(line);
                    System.out.println("    " + line);
                }
            }
        }
        if (rows == 0) {
            Files.delete(partial);
            System.out.println("no run of " + NAME + " succeeded; " + csvFile + " is left as it was");
            return 1;
        }
        Files.move(partial, csvFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.printf("%n%s: every run%n%-18s %-9s %10s %10s %10s %8s %12s %12s %10s %10s%n", NAME, "point", "mode", "op/s",
                "p50 ms", "p99 ms", "errors", "final", "acked", "unconf.", "lost");
        table.forEach(System.out::println);
        System.out.println("wrote " + csvFile);
        return failed > 0 ? 1 : 0;
    }
}
