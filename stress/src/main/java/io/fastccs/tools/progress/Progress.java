package io.fastccs.tools.progress;

import io.fastccs.tools.cluster.ToolClock;
import io.fastccs.tools.cluster.ToolThreads;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A line every few seconds while long work runs, like cassandra-stress's interval lines: done / total, the share,
 * the rate, the time so far and an estimate of what is left. Workers call {@link #add}; {@link #close} stops the lines.
 */
public final class Progress implements AutoCloseable {
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

    private final String what;
    private final String unit;
    private final long total;
    private final Consumer<String> out;
    private final AtomicLong done = new AtomicLong();
    private final long startedNanos = ToolClock.nanoTime();
    private final ScheduledExecutorService timer;

    private Progress(String what, String unit, long total, Duration every, Consumer<String> out) {
        this.what = what;
        this.unit = unit;
        this.total = total;
        this.out = out;
        this.timer = ToolThreads.scheduled("progress-" + what);
        long ms = every.toMillis();
        timer.scheduleAtFixedRate(this::report, ms, ms, TimeUnit.MILLISECONDS);
    }

    /** Starts reporting {@code what} ({@code total} {@code unit}s) to {@code out} every {@code every}. */
    public static Progress start(String what, String unit, long total, Duration every, Consumer<String> out) {
        return new Progress(what, unit, total, every, out);
    }

    public static Progress start(String what, String unit, long total, Consumer<String> out) {
        return start(what, unit, total, DEFAULT_INTERVAL, out);
    }

    public void add(long n) {
        done.addAndGet(n);
    }

    public long done() {
        return done.get();
    }

    private void report() {
        out.accept(line(what, unit, done.get(), total, (ToolClock.nanoTime() - startedNanos) / 1e9));
    }

    /** One progress line; public for tests. */
    public static String line(String what, String unit, long done, long total, double seconds) {
        double rate = seconds > 0 ? done / seconds : 0;
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%s: %,d / %,d %s (%.1f%%), %,.0f %s/s, %s elapsed",
                what, done, total, unit, total > 0 ? 100.0 * done / total : 0, rate, unit, duration(seconds)));
        if (rate > 0 && done < total) b.append(", about ").append(duration((total - done) / rate)).append(" left");
        return b.toString();
    }

    /** 42 s, 3 min 05 s, 1 h 02 min. */
    public static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s < 60) return s + " s";
        if (s < 3600) return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
        return String.format(Locale.ROOT, "%d h %02d min", s / 3600, (s % 3600) / 60);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
