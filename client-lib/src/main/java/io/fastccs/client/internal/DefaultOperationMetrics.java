package io.fastccs.client.internal;

import io.fastccs.client.InvalidRequestException;
import io.fastccs.client.LatencySnapshot;
import io.fastccs.client.OperationMetrics;
import io.fastccs.client.TransactionTimeoutException;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.util.concurrent.atomic.LongAdder;

/** Counters and a latency histogram for one kind of transaction; recording is lock-free. */
final class DefaultOperationMetrics implements OperationMetrics {
    private final LongAdder attempts = new LongAdder();
    private final LongAdder successes = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder invalidRequests = new LongAdder();
    private final LongAdder errors = new LongAdder();
    /** Microseconds, three significant digits, resized as needed. */
    private final ConcurrentHistogram latency = new ConcurrentHistogram(3);

    void started() {
        attempts.increment();
    }

    void succeeded(long startNanos) {
        successes.increment();
        latency.recordValue(Math.max(1, (MonotonicClock.nanoTime() - startNanos) / 1_000));
    }

    void failed(Throwable failure) {
        Throwable t = Failures.unwrap(failure);
        if (t instanceof TransactionTimeoutException) timeouts.increment();
        else if (t instanceof InvalidRequestException) invalidRequests.increment();
        else errors.increment();
    }

    @Override
    public long attempts() {
        return attempts.sum();
    }

    @Override
    public long successes() {
        return successes.sum();
    }

    @Override
    public long timeouts() {
        return timeouts.sum();
    }

    @Override
    public long invalidRequests() {
        return invalidRequests.sum();
    }

    @Override
    public long errors() {
        return errors.sum();
    }

    @Override
    public LatencySnapshot latency() {
        return new HdrLatencySnapshot(latency.copy());
    }

    @Override
    public String toString() {
        LatencySnapshot l = latency();
        return "attempts=" + attempts() + " ok=" + successes() + " timeouts=" + timeouts() + " invalid=" + invalidRequests()
                + " errors=" + errors() + " latency[p50=" + l.percentileMicros(50) + "us p99=" + l.percentileMicros(99)
                + "us max=" + l.maxMicros() + "us]";
    }

    /** A frozen copy of a histogram of microseconds. */
    record HdrLatencySnapshot(Histogram histogram) implements LatencySnapshot {
        @Override
        public long count() {
            return histogram.getTotalCount();
        }

        @Override
        public long minMicros() {
            return count() == 0 ? 0 : histogram.getMinValue();
        }

        @Override
        public long maxMicros() {
            return histogram.getMaxValue();
        }

        @Override
        public double meanMicros() {
            return count() == 0 ? 0 : histogram.getMean();
        }

        @Override
        public long percentileMicros(double percentile) {
            if (percentile < 0 || percentile > 100) throw new IllegalArgumentException("percentile " + percentile);
            return histogram.getValueAtPercentile(percentile);
        }
    }
}
