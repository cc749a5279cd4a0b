package io.fastccs.tools.stress;

import io.fastccs.check.CheckResult;
import io.fastccs.workload.Staleness;
import org.HdrHistogram.Histogram;

/** The figures of one measured run; latencies in milliseconds, the histograms in microseconds; how stale reads were. */
public record StressResult(String mode, double seconds, long reads, long writes, long errors, double opRate,
                           Latency all, Latency read, Latency write, long secondRoundReads, long readRounds,
                           CheckResult check, Histogram readHistogram, Histogram writeHistogram, Staleness.Summary staleReads) {
    public record Latency(double mean, double median, double p95, double p99, double p999, double max) {
        /** The latencies, in ms, of a histogram in microseconds. */
        static Latency of(Histogram h) {
            return new Latency(ms(h.getMean()), ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(95)),
                    ms(h.getValueAtPercentile(99)), ms(h.getValueAtPercentile(99.9)), ms(h.getMaxValue()));
        }
    }

    /** Microseconds (the histograms' unit) in milliseconds (the reports'). */
    static double ms(double micros) {
        return micros / 1000.0;
    }

    public double secondRoundShare() {
        return reads == 0 ? 0 : (double) secondRoundReads / reads;
    }

    public double roundsPerRead() {
        return reads == 0 ? 0 : (double) readRounds / reads;
    }
}
