package io.fastccs.tools.stress;

import io.fastccs.tools.cluster.ToolClock;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * The measuring loop of the typed workloads ({@code stress counter}, {@code stress claret}): closed-loop workers for
 * the warm-up and the measured time (or n= operations), a line per interval in the other stress commands' format,
 * latencies of read and write operations apart, errors and second rounds. What an operation does, and what is checked
 * at the end, is the workload's.
 */
public final class TypedStressRun {
    private static final long MAX_LATENCY_US = TimeUnit.MINUTES.toMicros(10);

    /** What one operation was: a read or a write, whether it succeeded, and the rounds of its read (0 if none). */
    public record Step(boolean read, boolean ok, int rounds) {}

    /** One worker's operations, on one thread. */
    public interface Worker {
        Step next(SplittableRandom random) throws Exception;
    }

    /** The figures of the measured part. */
    public record Result(String mode, double seconds, long reads, long writes, long errors, double opRate,
                         StressResult.Latency all, StressResult.Latency read, StressResult.Latency write,
                         long secondRoundReads, long readsWithRounds) {
        public double secondRoundShare() {
            return readsWithRounds == 0 ? 0 : (double) secondRoundReads / readsWithRounds;
        }
    }

    /** A typed workload command's run: the outcome of its parsed options. */
    public interface Run<O, R> {
        R run(O options) throws Exception;
    }

    /**
     * The entry point the typed workload commands share: {@code --help} prints {@code usage}; bad arguments exit 2 with
     * the reason and the usage; a run that fails exits 3; one whose outcome {@code failed} says is wrong (lost or doubled
     * updates, anomalies in the history) exits 1.
     */
    public static <O, R> void main(String command, String usage, String[] args, Function<String[], O> parse,
                                   Function<O, String> describe, Run<O, R> run, BiPredicate<O, R> failed) {
        if (args.length > 0 && (args[0].equals("-h") || args[0].equals("--help"))) {
            System.out.println(usage);
            System.exit(0);
        }
        O opts;
        try {
            opts = parse.apply(args);
        } catch (IllegalArgumentException e) {
            System.err.println(command + ": " + (e instanceof NumberFormatException ? "bad number (" + e.getMessage() + ")" : e.getMessage()));
            System.err.println(usage);
            System.exit(2);
            return;
        }
        System.out.println("Running " + describe.apply(opts));
        try {
            R r = run.run(opts);
            System.exit(failed.test(opts, r) ? 1 : 0);
        } catch (Exception e) {
            System.err.println(command + ": " + e);
            System.exit(3);
        }
    }

    private final StressOptions o;
    private final PrintStream out;
    private final Recorder readLatency = new Recorder(MAX_LATENCY_US, 3), writeLatency = new Recorder(MAX_LATENCY_US, 3);
    private final AtomicLong reads = new AtomicLong(), writes = new AtomicLong(), errors = new AtomicLong(),
            secondRounds = new AtomicLong(), roundedReads = new AtomicLong(), remaining = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private volatile boolean measuring;
    private volatile Throwable failure;

    public TypedStressRun(StressOptions o, PrintStream out) {
        this.o = o;
        this.out = out;
    }

    /** Runs {@code o.threads} workers made by {@code workers} (given the thread's index) and returns the measured figures. */
    public Result run(String mode, Function<Integer, Worker> workers) throws Exception {
        remaining.set(o.n > 0 ? o.n : Long.MAX_VALUE);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < o.threads; t++) {
            Worker w = workers.apply(t);
            long seed = 0x9E3779B97F4A7C15L * (t + 1) ^ ToolClock.nanoTime();
            Thread th = new Thread(() -> work(w, seed), "typed-stress-" + t);
            th.setDaemon(true);
            threads.add(th);
        }
        long start = ToolClock.nanoTime();
        measuring = o.warmup.isZero();
        threads.forEach(Thread::start);
        if (!o.warmup.isZero()) {
            say("Warming up for %.1f s ...", o.warmup.toMillis() / 1e3);
            sleepUntil(start + o.warmup.toNanos(), threads);
            readLatency.reset();
            writeLatency.reset();
        }
        long r0 = reads.get(), w0 = writes.get(), e0 = errors.get(), s0 = secondRounds.get(), rr0 = roundedReads.get();
        if (o.warmup.isZero()) r0 = w0 = e0 = s0 = rr0 = 0;
        measuring = true;
        o.atMeasureStart.run();
        long measureStart = o.warmup.isZero() ? start : ToolClock.nanoTime();
        long end = o.n > 0 ? Long.MAX_VALUE : measureStart + o.duration.toNanos();
        if (!o.quiet) StressRun.printIntervalHeader(out);
        Histogram allReads = new Histogram(MAX_LATENCY_US, 3), allWrites = new Histogram(MAX_LATENCY_US, 3), ir = null, iw = null;
        long interval = o.logInterval.toNanos(), last = measureStart, lastOps = 0, lastErrors = 0, lastQuiet = measureStart;
        for (int i = 1; ; i++) {
            sleepUntil(Math.min(end, measureStart + i * interval), threads);
            boolean finished = ToolClock.nanoTime() >= end || allDone(threads) || failure != null;
            if (finished) {
                stop.set(true);
                for (Thread t : threads) t.join(15_000);
            }
            long now = ToolClock.nanoTime();
            ir = readLatency.getIntervalHistogram(ir);
            iw = writeLatency.getIntervalHistogram(iw);
            allReads.add(ir);
            allWrites.add(iw);
            Histogram both = ir.copy();
            both.add(iw);
            long ops = reads.get() - r0 + writes.get() - w0, errs = errors.get() - e0;
            if (!o.quiet) StressRun.printInterval(out, ops, (ops - lastOps) / ((now - last) / 1e9), both, (now - measureStart) / 1e9,
                    errs - lastErrors);
            else if (!finished && now - lastQuiet >= TimeUnit.SECONDS.toNanos(5)) {
                double elapsed = (now - measureStart) / 1e9;
                out.printf(Locale.ROOT, "    %.0f s measured, %,.0f op/s so far, %d errors%n", elapsed, ops / Math.max(1e-9, elapsed), errs);
                lastQuiet = now;
            }
            last = now;
            lastOps = ops;
            lastErrors = errs;
            if (finished) break;
        }
        o.atMeasureEnd.run();
        if (failure != null) throw new IllegalStateException("a worker failed: " + failure, failure);
        double seconds = (last - measureStart) / 1e9;
        long nr = reads.get() - r0, nw = writes.get() - w0;
        Histogram all = allReads.copy();
        all.add(allWrites);
        return new Result(mode, seconds, nr, nw, errors.get() - e0, (nr + nw) / seconds, StressResult.Latency.of(all), StressResult.Latency.of(allReads),
                StressResult.Latency.of(allWrites), secondRounds.get() - s0, roundedReads.get() - rr0);
    }

    private void work(Worker w, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try {
            while (!stop.get()) {
                if (measuring && remaining.getAndDecrement() <= 0) break;
                long began = ToolClock.nanoTime();
                Step s = w.next(random);
                long us = Math.min(MAX_LATENCY_US, (ToolClock.nanoTime() - began) / 1000);
                if (!s.ok()) errors.incrementAndGet();
                else if (s.read()) {
                    reads.incrementAndGet();
                    readLatency.recordValue(us);
                } else {
                    writes.incrementAndGet();
                    writeLatency.recordValue(us);
                }
                if (s.ok() && s.rounds() > 0) {
                    roundedReads.incrementAndGet();
                    if (s.rounds() > 1) secondRounds.incrementAndGet();
                }
            }
        } catch (Throwable t) {
            if (!stop.get()) failure = t;
        }
    }

    private static boolean allDone(List<Thread> threads) {
        for (Thread t : threads) if (t.isAlive()) return false;
        return true;
    }

    private void sleepUntil(long deadline, List<Thread> threads) throws InterruptedException {
        while (ToolClock.nanoTime() < deadline && !allDone(threads) && failure == null)
            Thread.sleep(Math.max(1, Math.min(20, (deadline - ToolClock.nanoTime()) / 1_000_000)));
    }

    private void say(String format, Object... args) {
        if (!o.quiet) out.println(String.format(Locale.ROOT, format, args));
    }

    /** The summary lines every typed workload prints. */
    void printSummary(Result r, String describe) {
        if (o.quiet) return;
        out.println();
        out.println("Results (" + describe + "):");
        out.printf(Locale.ROOT, "Op rate                   : %,10.0f op/s  [READ: %,.0f op/s, WRITE: %,.0f op/s]%n",
                r.opRate(), r.reads() / r.seconds(), r.writes() / r.seconds());
        StressRun.printLatencyRow(out, "Latency mean", r.all().mean(), r.read().mean(), r.write().mean());
        StressRun.printLatencyRow(out, "Latency median", r.all().median(), r.read().median(), r.write().median());
        StressRun.printLatencyRow(out, "Latency 99th percentile", r.all().p99(), r.read().p99(), r.write().p99());
        StressRun.printLatencyRow(out, "Latency max", r.all().max(), r.read().max(), r.write().max());
        out.printf(Locale.ROOT, "Total errors              : %,10d%n", r.errors());
        out.printf(Locale.ROOT, "Second-round reads        : %10.3f %%    (%,d of %,d reads)%n", 100 * r.secondRoundShare(),
                r.secondRoundReads(), r.readsWithRounds());
    }
}
