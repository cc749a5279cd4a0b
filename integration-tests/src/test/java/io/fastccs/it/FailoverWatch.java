package io.fastccs.it;

import io.fastccs.testkit.CheckedWorkload;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Watches a {@link CheckedWorkload} around a node kill: errors by phase with how long the failed transactions took, how
 * the transactions in flight at the kill ended, and when a transaction on the killed node's partition first succeeded
 * again.
 */
final class FailoverWatch implements CheckedWorkload.TxnObserver {
    private final int[] ownerOfKey;
    private final Map<String, ErrorStat> errors = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> endOfInFlightAtKill = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong firstWatchedSuccessNanos = new AtomicLong();
    private volatile String phase = "before";
    private volatile long killNanos;
    private volatile int watchedPartition = -1;
    private volatile long watchSinceNanos;

    /** @param ownerOfKey the partition of each history key */
    FailoverWatch(int[] ownerOfKey) {
        this.ownerOfKey = ownerOfKey;
    }

    /** How often one kind of error came, and how long the failed transactions took. */
    static final class ErrorStat {
        final LongAdder count = new LongAdder();
        final LongAdder totalNanos = new LongAdder();
        final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);

        @Override
        public String toString() {
            long n = count.sum();
            return String.format("%d (failed after %.1f ms on average, %.0f ms at most)", n,
                    n == 0 ? 0 : totalNanos.sum() / 1e6 / n, maxNanos.get() / 1e6);
        }
    }

    /** Names the phase errors are counted under from now on. */
    void phase(String name) {
        phase = name;
    }

    /** Marks the moment a node is killed (call just before): returns the transactions in flight then. */
    int markKill() {
        killNanos = System.nanoTime();
        return inFlight.get();
    }

    /** From now on, remembers when a transaction touching {@code partition} first succeeds. */
    void watchPartition(int partition, long sinceNanos) {
        firstWatchedSuccessNanos.set(0);
        watchSinceNanos = sinceNanos;
        watchedPartition = partition;
    }

    /** {@link System#nanoTime()} of the first success on the watched partition since watching began, 0 if none. */
    long firstWatchedSuccessNanos() {
        return firstWatchedSuccessNanos.get();
    }

    /** Errors counted so far, by "phase: type". */
    SortedMap<String, ErrorStat> errors() {
        return new TreeMap<>(errors);
    }

    /** How the transactions in flight at {@link #markKill()} ended, by "read|write ok|error type". */
    SortedMap<String, Long> endOfInFlightAtKill() {
        SortedMap<String, Long> out = new TreeMap<>();
        endOfInFlightAtKill.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    @Override
    public void started() {
        inFlight.incrementAndGet();
    }

    @Override
    public void ended(boolean write, long[] keys, long startedNanos, String error) {
        inFlight.decrementAndGet();
        long now = System.nanoTime();
        if (error != null) {
            ErrorStat stat = errors.computeIfAbsent(phase + ": " + error, x -> new ErrorStat());
            stat.count.increment();
            stat.totalNanos.add(now - startedNanos);
            stat.maxNanos.accumulate(now - startedNanos);
        } else {
            succeeded(keys, now);
        }
        long kill = killNanos;
        if (kill != 0 && startedNanos - kill < 0 && now - kill >= 0)
            endOfInFlightAtKill.computeIfAbsent((write ? "write " : "read ") + (error == null ? "ok" : error),
                    x -> new LongAdder()).increment();
    }

    private void succeeded(long[] keys, long now) {
        int p = watchedPartition;
        if (p < 0 || now - watchSinceNanos < 0) return;
        for (long k : keys) {
            if (ownerOfKey[(int) k] == p) {
                firstWatchedSuccessNanos.compareAndSet(0, now);
                return;
            }
        }
    }
}
