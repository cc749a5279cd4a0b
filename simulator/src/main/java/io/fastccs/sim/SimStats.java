package io.fastccs.sim;

import io.fastccs.core.messages.Outcome;
import io.fastccs.workload.Staleness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** What a simulation measured. Times in simulated microseconds. */
public final class SimStats {
    long messages;
    long bytes;
    /** Of those, stabilization (FastCCS's, direct or up and down its tree, and Wren's local stable times). */
    long stabilizationMessages;
    long stabilizationBytes;
    long payloadBytes;
    long messagesLost;
    long delaySpikes;
    long partitionCrashes;
    /** Partitions ran as replica groups ({@link Simulation#replicate}). */
    boolean replicated;
    long groupLogEntries;
    long depositions;
    long uncommittedEntriesLost;
    long partitionRestarts;
    long clientCrashes;
    long readTimeouts;
    long writeTimeouts;
    long snapshotExpiredRetries;
    long versionsStored;
    long workloadMicros;
    long totalMicros;

    long reads;
    long secondRoundReads;
    long secondRoundPartitions;
    long writesCommitted;
    long writesNotConfirmed;
    final Map<Outcome, Long> outcomesResolved = new EnumMap<>(Outcome.class);
    private final LongSamples readLatency = new LongSamples();
    private final LongSamples writeLatency = new LongSamples();
    /** How stale the values read were, in simulated time, as the stress tool measures it on the cluster. */
    final Staleness staleness = new Staleness();
    private Staleness.Summary staleReads;

    final List<String> unexpectedErrors = new ArrayList<>();
    final List<String> invariantViolations = new ArrayList<>();

    void recordRead(int rounds, long micros, int partitionsInSecondRound) {
        reads++;
        if (rounds > 1) {
            secondRoundReads++;
            secondRoundPartitions += partitionsInSecondRound;
        }
        readLatency.add(micros);
    }

    void recordWrite(boolean confirmed, long micros) {
        if (confirmed) {
            writesCommitted++;
            writeLatency.add(micros);
        } else {
            writesNotConfirmed++;
        }
    }

    public long reads() { return reads; }
    public long secondRoundReads() { return secondRoundReads; }
    public double secondRoundShare() { return reads == 0 ? 0 : (double) secondRoundReads / reads; }
    public double meanRoundsPerRead() { return reads == 0 ? 0 : 1 + secondRoundShare(); }
    public long writesCommitted() { return writesCommitted; }
    public long writesNotConfirmed() { return writesNotConfirmed; }
    public long transactions() { return reads + writesCommitted + writesNotConfirmed; }
    /** Completed transactions per simulated second of the workload phase. */
    public double throughput() { return workloadMicros == 0 ? 0 : transactions() * 1e6 / workloadMicros; }
    public LongSamples readLatency() { return readLatency; }
    public LongSamples writeLatency() { return writeLatency; }
    /** The staleness of the reads over the whole run (taken once, at the first call). */
    public Staleness.Summary staleReads() {
        if (staleReads == null) staleReads = staleness.summary();
        return staleReads;
    }
    public long messages() { return messages; }
    public long bytes() { return bytes; }
    public long metadataBytes() { return bytes - payloadBytes; }
    public long stabilizationMessages() { return stabilizationMessages; }
    public long stabilizationBytes() { return stabilizationBytes; }
    public long messagesLost() { return messagesLost; }
    public long delaySpikes() { return delaySpikes; }
    public long partitionCrashes() { return partitionCrashes; }
    public boolean replicated() { return replicated; }
    public long groupLogEntries() { return groupLogEntries; }
    public long depositions() { return depositions; }
    public long uncommittedEntriesLost() { return uncommittedEntriesLost; }
    public long clientCrashes() { return clientCrashes; }
    public long readTimeouts() { return readTimeouts; }
    public long writeTimeouts() { return writeTimeouts; }
    public long snapshotExpiredRetries() { return snapshotExpiredRetries; }
    public Map<Outcome, Long> outcomesResolved() { return outcomesResolved; }
    public long versionsStored() { return versionsStored; }
    public long workloadMicros() { return workloadMicros; }
    public List<String> unexpectedErrors() { return unexpectedErrors; }
    public List<String> invariantViolations() { return invariantViolations; }

    /** A growable list of longs with percentiles. */
    public static final class LongSamples {
        private long[] values = new long[1024];
        private int size;
        private boolean sorted = true;

        void add(long v) {
            if (size == values.length) values = Arrays.copyOf(values, size * 2);
            values[size++] = v;
            sorted = false;
        }

        public int count() { return size; }

        public double mean() {
            if (size == 0) return 0;
            double sum = 0;
            for (int i = 0; i < size; i++) sum += values[i];
            return sum / size;
        }

        /** The q-quantile (0..1), nearest rank. */
        public long quantile(double q) {
            if (size == 0) return 0;
            if (!sorted) {
                Arrays.sort(values, 0, size);
                sorted = true;
            }
            int rank = (int) Math.ceil(q * size) - 1;
            return values[Math.max(0, Math.min(size - 1, rank))];
        }
    }
}
