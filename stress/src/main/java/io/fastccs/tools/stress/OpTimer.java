package io.fastccs.tools.stress;

/**
 * When each operation of one worker starts, for latency accounting. Closed loop ({@code rate <= 0}): an operation
 * starts when the previous one ends, and its latency is measured from then. Open loop ({@code -rate fixed=R/s}): the
 * operations of a worker are scheduled at {@code start + phase + i / rate}; the worker waits for the intended start
 * if it is ahead, and the latency is measured from the <em>intended</em> start, so time spent queued behind a slow
 * operation counts (no coordinated omission).
 */
public final class OpTimer {
    private final PacedClock clock;
    private final long start;
    private final double intervalNanos;
    private long next;

    /** {@code opsPerSecond <= 0}: closed loop. {@code phase} in [0, 1) spreads workers over one interval. */
    public OpTimer(PacedClock clock, long startNanos, double opsPerSecond, double phase) {
        this.clock = clock;
        this.start = startNanos;
        this.intervalNanos = opsPerSecond > 0 ? 1e9 / opsPerSecond : 0;
        this.next = 0;
        if (opsPerSecond > 0 && phase > 0) this.phaseNanos = (long) (phase * intervalNanos);
    }

    private long phaseNanos;

    public boolean openLoop() {
        return intervalNanos > 0;
    }

    /** Waits if needed and returns the time the next operation counts from. */
    public long begin() throws InterruptedException {
        if (!openLoop()) return clock.nanoTime();
        long intended = start + phaseNanos + (long) (next++ * intervalNanos);
        if (clock.nanoTime() < intended) clock.sleepUntil(intended);
        return intended;
    }

    /** The latency, in nanoseconds, of an operation that began at {@code began} (the value of {@link #begin()}). */
    public long end(long began) {
        return clock.nanoTime() - began;
    }
}
