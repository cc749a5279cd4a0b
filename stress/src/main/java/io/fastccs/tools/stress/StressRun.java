package io.fastccs.tools.stress;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import dev.failsafe.function.CheckedSupplier;

import io.fastccs.tools.cluster.ToolClock;
import io.fastccs.tools.progress.Progress;

import io.fastccs.check.CheckResult;
import io.fastccs.workload.Staleness;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One stress run on a backend: populate, warm up, measure with a line per interval, the final reads of every written
 * key in session 0, the history file and (with {@code -check}) the TCC check. Latencies are recorded in microseconds.
 */
public final class StressRun {
    private static final long MAX_LATENCY_US = TimeUnit.MINUTES.toMicros(10);
    private static final long QUIET_PROGRESS_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final StressOptions o;
    private final StressBackend backend;
    private final PrintStream out;
    private final PacedClock clock;
    private final HistoryRecorder history;
    private final Recorder readLatency = new Recorder(MAX_LATENCY_US, 3), writeLatency = new Recorder(MAX_LATENCY_US, 3);
    private final AtomicLong reads = new AtomicLong(), writes = new AtomicLong(), readErrors = new AtomicLong(),
            writeErrors = new AtomicLong(), secondRounds = new AtomicLong(), rounds = new AtomicLong(), remaining = new AtomicLong();
    private final Staleness staleness = new Staleness();
    private final AtomicBoolean stop = new AtomicBoolean();
    private volatile boolean measuring;
    private volatile Throwable workerFailure;
    private PartitionSpread spread;

    public StressRun(StressOptions options, StressBackend backend, PrintStream out, PacedClock clock) {
        this.o = options;
        this.backend = backend;
        this.out = out;
        this.clock = clock;
        this.history = new HistoryRecorder(options.history != null || options.check);
    }

    /** Makes every transaction's keys span the partitions {@code spread} says (option partitions=P). */
    StressRun withPartitionSpread(PartitionSpread spread) {
        this.spread = spread;
        return this;
    }

    public HistoryRecorder history() {
        return history;
    }

    public StressResult run() throws Exception {
        backend.prepare();
        if (o.populate) {
            long t0 = clock.nanoTime();
            long first = history.reserveValues(o.population.size());
            try (Progress progress = Progress.start("populate", "keys", o.population.size(), line -> say("%s", line))) {
                backend.populate(o.population.min(), o.population.max(), first, history, progress::add);
            }
            say("Populated %,d keys in %.1f s", o.population.size(), (clock.nanoTime() - t0) / 1e9);
        }
        remaining.set(o.n > 0 ? o.n : Long.MAX_VALUE);
        long start = clock.nanoTime();
        List<Thread> workers = new ArrayList<>();
        double perThread = o.fixedRate > 0 ? o.fixedRate / o.threads : 0;
        for (int t = 0; t < o.threads; t++) {
            OpTimer timer = new OpTimer(clock, start, perThread, (double) t / o.threads);
            long seed = 0x9E3779B97F4A7C15L * (t + 1);
            Thread w = new Thread(() -> work(timer, seed), "stress-" + t);
            w.setDaemon(true);
            workers.add(w);
        }
        measuring = o.warmup.isZero(); // with a warm-up, operations in flight at its end count (up to one per thread)
        workers.forEach(Thread::start);
        if (!o.warmup.isZero()) {
            say("Warming up for %.1f s ...", o.warmup.toMillis() / 1e3);
            clock.sleepUntil(start + o.warmup.toNanos());
        }
        // The measured part: counters and latencies from here on.
        boolean warm = !o.warmup.isZero(); // without a warm-up everything counts from the start
        if (warm) {
            readLatency.reset();
            writeLatency.reset();
            staleness.reset();
        }
        long r0 = warm ? reads.get() : 0, w0 = warm ? writes.get() : 0, re0 = warm ? readErrors.get() : 0,
                we0 = warm ? writeErrors.get() : 0, s0 = warm ? secondRounds.get() : 0, ro0 = warm ? rounds.get() : 0;
        measuring = true;
        o.atMeasureStart.run();
        long measureStart = warm ? clock.nanoTime() : start;
        HistogramLogWriter hdr = null;
        if (o.hdrFile != null) {
            hdr = new HistogramLogWriter(o.hdrFile.toFile());
            hdr.outputLogFormatVersion();
            long startMs = ToolClock.currentTimeMillis();
            hdr.outputStartTime(startMs);
            hdr.setBaseTime(startMs);
            hdr.outputLegend();
        }
        Histogram allReads = new Histogram(MAX_LATENCY_US, 3), allWrites = new Histogram(MAX_LATENCY_US, 3);
        Histogram intervalRead = null, intervalWrite = null;
        if (!o.quiet) StressRun.printIntervalHeader(out);
        long interval = o.logInterval.toNanos(), end = o.n > 0 ? Long.MAX_VALUE : measureStart + o.duration.toNanos();
        long last = measureStart, lastOps = 0, lastErrors = 0, lastQuiet = measureStart;
        for (int i = 1; ; i++) {
            long next = Math.min(end, measureStart + i * interval);
            while (clock.nanoTime() < next && !allDone(workers)) clock.sleepUntil(Math.min(next, clock.nanoTime() + 20_000_000L));
            boolean finished = clock.nanoTime() >= end || allDone(workers) || workerFailure != null;
            if (finished) stop.set(true);
            if (finished) for (Thread w : workers) w.join(15_000);
            long now = clock.nanoTime();
            intervalRead = readLatency.getIntervalHistogram(intervalRead);
            intervalWrite = writeLatency.getIntervalHistogram(intervalWrite);
            allReads.add(intervalRead);
            allWrites.add(intervalWrite);
            if (hdr != null) {
                intervalRead.setTag("READ");
                intervalWrite.setTag("WRITE");
                hdr.outputIntervalHistogram(intervalRead);
                hdr.outputIntervalHistogram(intervalWrite);
            }
            Histogram both = intervalRead.copy();
            both.add(intervalWrite);
            long ops = reads.get() - r0 + writes.get() - w0, errs = readErrors.get() - re0 + writeErrors.get() - we0;
            if (!o.quiet) StressRun.printInterval(out, ops, (ops - lastOps) / ((now - last) / 1e9), both, (now - measureStart) / 1e9,
                    errs - lastErrors);
            // Quiet runs (inside an experiment) still show they are alive: a short line every few seconds.
            if (o.quiet && !finished && now - lastQuiet >= QUIET_PROGRESS_NANOS) {
                double elapsed = (now - measureStart) / 1e9;
                out.printf(Locale.ROOT, "    %s measured%s, %,.0f op/s so far, %d errors%n", Progress.duration(elapsed),
                        o.n > 0 ? "" : " of " + Progress.duration(o.duration.toNanos() / 1e9), ops / Math.max(1e-9, elapsed), errs);
                lastQuiet = now;
            }
            last = now;
            lastOps = ops;
            lastErrors = errs;
            if (finished) break;
        }
        o.atMeasureEnd.run();
        if (hdr != null) hdr.close();
        if (workerFailure != null) throw new IllegalStateException("a worker failed: " + workerFailure, workerFailure);
        double seconds = (last - measureStart) / 1e9;
        long nReads = reads.get() - r0, nWrites = writes.get() - w0;
        Histogram all = allReads.copy();
        all.add(allWrites);
        CheckResult check = null;
        if (history.enabled()) {
            finalReads();
            check = history.writeAndCheck(o, out);
        }
        StressResult result = new StressResult(backend.name(), seconds, nReads, nWrites,
                readErrors.get() - re0 + writeErrors.get() - we0, (nReads + nWrites) / seconds, StressResult.Latency.of(all),
                StressResult.Latency.of(allReads), StressResult.Latency.of(allWrites), secondRounds.get() - s0, rounds.get() - ro0, check, allReads, allWrites,
                staleness.summary());
        if (!o.quiet) printSummary(result, readErrors.get() - re0, writeErrors.get() - we0);
        return result;
    }

    private static boolean allDone(List<Thread> workers) {
        for (Thread w : workers) if (w.isAlive()) return false;
        return true;
    }

    private void work(OpTimer timer, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        StressBackend.Session session = backend.session();
        long sessionId = history.newSession();
        try {
            while (!stop.get()) {
                if (measuring && remaining.getAndDecrement() <= 0) break;
                boolean write = o.writeFraction >= 1 || (o.writeFraction > 0 && random.nextDouble() < o.writeFraction);
                long[] keys = pickKeys(random, write ? o.keysPerWrite : o.keysPerRead);
                long began = timer.begin();
                if (stop.get()) break;
                long issued = clock.nanoTime(); // when it really left, for staleness (began may be an intended start)
                if (write) {
                    long[] values = new long[keys.length];
                    for (int i = 0; i < keys.length; i++) values[i] = history.nextValue();
                    StressBackend.WriteStatus status;
                    try {
                        status = session.write(keys, values);
                    } catch (Exception e) {
                        status = null;
                    }
                    long latency = timer.end(began);
                    if (status == StressBackend.WriteStatus.OK) {
                        staleness.written(keys, values, issued / 1000, clock.nanoTime() / 1000);
                        history.write(sessionId, keys, values, true);
                        writes.incrementAndGet();
                        writeLatency.recordValue(Math.min(MAX_LATENCY_US, latency / 1000));
                    } else {
                        writeErrors.incrementAndGet();
                        if (status == StressBackend.WriteStatus.COMMITTED_UNCONFIRMED) history.write(sessionId, keys, values, true);
                        else if (status == StressBackend.WriteStatus.ABORTED) history.write(sessionId, keys, values, false);
                        // UNKNOWN or an exception: left out, since neither outcome can be claimed
                    }
                } else {
                    try {
                        long[] values = session.read(keys);
                        long latency = timer.end(began);
                        history.read(sessionId, keys, values);
                        staleness.read(keys, values, issued / 1000);
                        reads.incrementAndGet();
                        int r = session.lastRounds();
                        rounds.addAndGet(r);
                        if (r > 1) secondRounds.incrementAndGet();
                        readLatency.recordValue(Math.min(MAX_LATENCY_US, latency / 1000));
                    } catch (Exception e) {
                        readErrors.incrementAndGet();
                    }
                }
                if (session.takeReset()) sessionId = history.newSession(); // its guarantees start afresh
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            if (!stop.get()) workerFailure = t;
        }
    }

    private long[] pickKeys(SplittableRandom random, int count) {
        if (spread != null) return spread.pick(random, count);
        TreeSet<Long> ks = new TreeSet<>();
        while (ks.size() < count) ks.add(o.population.next(random));
        long[] keys = new long[count];
        int i = 0;
        for (long k : ks) keys[i++] = k;
        return keys;
    }

    /**
     * How long the final reads wait after the workers stopped. The checker takes them as reads after quiescence, but a
     * protocol may acknowledge a write before every reader can see it (Wren answers a commit before it is applied and
     * stable): reading at once made ComparedProtocolsIT report Wren's last writes as not converged now and then.
     */
    static final long QUIESCENCE_MILLIS = 1_000;

    /** The head of the per-interval lines, in cassandra-stress's columns. */
    static void printIntervalHeader(PrintStream out) {
        out.printf("%-6s %10s %9s %8s %8s %8s %8s %8s %8s %8s %7s%n", "type", "total ops", "op/s", "mean", "med",
                ".95", ".99", ".999", "max", "time", "errors");
    }

    /** One interval's line: operations so far, the interval's rate and latencies (microseconds), time, the interval's errors. */
    static void printInterval(PrintStream out, long ops, double opRate, Histogram latencies, double seconds, long errors) {
        out.printf(Locale.ROOT, "%-6s %10d %9.0f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.1f %7d%n", "total,", ops, opRate,
                StressResult.ms(latencies.getMean()), StressResult.ms(latencies.getValueAtPercentile(50)),
                StressResult.ms(latencies.getValueAtPercentile(95)), StressResult.ms(latencies.getValueAtPercentile(99)),
                StressResult.ms(latencies.getValueAtPercentile(99.9)), StressResult.ms(latencies.getMaxValue()), seconds, errors);
    }

    /** The final reads' attempts: a node may be slow to answer right after the load. */
    private static final RetryPolicy<Object> FINAL_READ_RETRIES =
            RetryPolicy.builder().handle(Exception.class).withMaxAttempts(5).build();

    /** A final read of a run, tried up to five times; the last attempt's failure is thrown as it was. */
    static <T> T finalRead(CheckedSupplier<T> read) throws Exception {
        try {
            return Failsafe.with(FINAL_READ_RETRIES).get(read);
        } catch (FailsafeException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** Reads every written key once more, in session 0, after the system settled, so the checker sees the final state. */
    private void finalReads() throws Exception {
        Thread.sleep(QUIESCENCE_MILLIS);
        StressBackend.Session last = backend.session();
        List<Long> written = history.writtenKeys();
        for (int i = 0; i < written.size(); i += 64) {
            List<Long> part = written.subList(i, Math.min(written.size(), i + 64));
            long[] keys = part.stream().mapToLong(Long::longValue).toArray();
            history.read(HistoryRecorder.FINAL_SESSION, keys, finalRead(() -> last.read(keys)));
        }
    }

    private void say(String format, Object... args) {
        if (!o.quiet) out.println(String.format(Locale.ROOT, format, args));
    }

    private void printSummary(StressResult r, long readErrs, long writeErrs) {
        out.println();
        out.println("Results (" + o.describe() + "):");
        out.printf(Locale.ROOT, "Op rate                   : %,10.0f op/s  [READ: %,.0f op/s, WRITE: %,.0f op/s]%n",
                r.opRate(), r.reads() / r.seconds(), r.writes() / r.seconds());
        row("Latency mean", r.all().mean(), r.read().mean(), r.write().mean());
        row("Latency median", r.all().median(), r.read().median(), r.write().median());
        row("Latency 95th percentile", r.all().p95(), r.read().p95(), r.write().p95());
        row("Latency 99th percentile", r.all().p99(), r.read().p99(), r.write().p99());
        row("Latency 99.9th percentile", r.all().p999(), r.read().p999(), r.write().p999());
        row("Latency max", r.all().max(), r.read().max(), r.write().max());
        out.printf(Locale.ROOT, "Total errors              : %,10d      [READ: %,d, WRITE: %,d]%n", r.errors(), readErrs, writeErrs);
        long secs = Math.round(r.seconds());
        out.printf(Locale.ROOT, "Total operation time      : %02d:%02d:%02d%n", secs / 3600, secs / 60 % 60, secs % 60);
        out.printf(Locale.ROOT, "Second-round reads        : %10.3f %%    (%,d of %,d reads)%n", 100 * r.secondRoundShare(),
                r.secondRoundReads(), r.reads());
        out.printf(Locale.ROOT, "Rounds per read           : %10.4f%n", r.roundsPerRead());
        Staleness.Summary stale = r.staleReads();
        out.printf(Locale.ROOT, "Stale key reads           : %10.3f %%    (%,d of %,d; mean %.1f ms, p99 %.1f ms, max %.1f ms behind a newer acknowledged write)%n",
                100 * stale.staleShare(), stale.staleKeyReads(), stale.keyReads(), stale.meanMs(), stale.p99Ms(), stale.maxMs());
        HistoryRecorder.printCheck(r.check(), out);
    }

    private void row(String name, double all, double read, double write) {
        printLatencyRow(out, name, all, read, write);
    }

    /** A summary line of latencies: all operations, reads, writes. */
    static void printLatencyRow(PrintStream out, String name, double all, double read, double write) {
        out.printf(Locale.ROOT, "%-26s: %10.2f ms  [READ: %.2f ms, WRITE: %.2f ms]%n", name, all, read, write);
    }
}
