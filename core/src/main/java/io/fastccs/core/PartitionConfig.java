package io.fastccs.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Tunables of a partition, in microseconds and bytes. The core never parses configuration files: hosts map their
 * own settings (cassandra.yaml, command-line flags) onto {@link #builder()}.
 */
public final class PartitionConfig {
    /** See {@link #stabilizationFanout()}: up to 33 partitions stabilize all-to-all, as the thesis does. */
    public static final int DEFAULT_STABILIZATION_FANOUT = 32;

    private final long transactionTimeoutMicros;
    private final long checkIntervalMicros;
    private final long stabilizationIntervalMicros;
    private final long stabilizationHeartbeatMicros;
    private final int stabilizationFanout;
    private final long gcIntervalMicros;
    private final long versionRetentionMicros;
    private final long decisionRetentionMicros;
    private final int maxKeysPerRequest;
    private final int maxKeyBytes;
    private final int maxValueBytes;
    /**
     * Deliberately broken variants of the protocol the partition runs, constants of its own enum (FastCCS's; Eiger and
     * Wren take theirs from their factories); empty but in tests.
     */
    private final Set<Enum<?>> bugs;

    /** @param bugs in the order {@link #toString()} lists them; kept as given */
    private PartitionConfig(Builder b, Set<Enum<?>> bugs) {
        this.transactionTimeoutMicros = positive("transaction timeout", b.transactionTimeoutMicros);
        this.checkIntervalMicros = positive("check interval", b.checkIntervalMicros);
        this.stabilizationIntervalMicros = positive("stabilization interval", b.stabilizationIntervalMicros);
        this.stabilizationHeartbeatMicros = positive("stabilization heartbeat", b.stabilizationHeartbeatMicros);
        this.stabilizationFanout = (int) positive("stabilization fanout", b.stabilizationFanout);
        this.gcIntervalMicros = positive("gc interval", b.gcIntervalMicros);
        this.versionRetentionMicros = positive("version retention", b.versionRetentionMicros);
        this.decisionRetentionMicros = positive("decision retention", b.decisionRetentionMicros);
        this.maxKeysPerRequest = (int) positive("max keys per request", b.maxKeysPerRequest);
        this.maxKeyBytes = (int) positive("max key bytes", b.maxKeyBytes);
        this.maxValueBytes = (int) positive("max value bytes", b.maxValueBytes);
        if (decisionRetentionMicros < 2 * transactionTimeoutMicros)
            throw new IllegalArgumentException("decision retention must be at least twice the transaction timeout");
        this.bugs = bugs.isEmpty() ? Set.of() : Collections.unmodifiableSet(bugs);
    }

    private static long positive(String what, long v) {
        if (v <= 0) throw new IllegalArgumentException(what + " must be positive, got " + v);
        return v;
    }

    public static PartitionConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.transactionTimeoutMicros = transactionTimeoutMicros;
        b.checkIntervalMicros = checkIntervalMicros;
        b.stabilizationIntervalMicros = stabilizationIntervalMicros;
        b.stabilizationHeartbeatMicros = stabilizationHeartbeatMicros;
        b.stabilizationFanout = stabilizationFanout;
        b.gcIntervalMicros = gcIntervalMicros;
        b.versionRetentionMicros = versionRetentionMicros;
        b.decisionRetentionMicros = decisionRetentionMicros;
        b.maxKeysPerRequest = maxKeysPerRequest;
        b.maxKeyBytes = maxKeyBytes;
        b.maxValueBytes = maxValueBytes;
        return b;
    }

    /** How long a coordinator waits for every participant's vote before it aborts; also bounds a stuck sequence. */
    public long transactionTimeoutMicros() { return transactionTimeoutMicros; }

    /** How often a participant that prepared over a timeout ago asks the coordinator again. */
    public long checkIntervalMicros() { return checkIntervalMicros; }

    public long stabilizationIntervalMicros() { return stabilizationIntervalMicros; }

    /** Stabilization is sent even when unchanged this often, so restarted peers catch up. */
    public long stabilizationHeartbeatMicros() { return stabilizationHeartbeatMicros; }

    /**
     * The most peers a partition sends stabilization to each interval. Up to {@code fanout + 1} partitions, every
     * partition tells every other directly (the thesis's all-to-all); beyond, they form a tree of this fan-out:
     * settled values go up to partition 0 and come back down, 2(N-1) messages an interval instead of N(N-1)
     * (docs/design/stabilization-tree.md, "Stabilization up and down a tree").
     */
    public int stabilizationFanout() { return stabilizationFanout; }

    public long gcIntervalMicros() { return gcIntervalMicros; }

    /**
     * How long an overwritten version stays readable by a round two: a round two whose round one is older than
     * this is refused with SNAPSHOT_EXPIRED (the Eiger-style GC bound).
     */
    public long versionRetentionMicros() { return versionRetentionMicros; }

    /**
     * How long a coordinator remembers a decision at least: a client that lost track of a write must ask for its
     * outcome within this time (commit decisions are also kept until every participant settled).
     */
    public long decisionRetentionMicros() { return decisionRetentionMicros; }

    public int maxKeysPerRequest() { return maxKeysPerRequest; }

    public int maxKeyBytes() { return maxKeyBytes; }

    public int maxValueBytes() { return maxValueBytes; }

    /** Whether this configuration runs the broken variant {@code bug}, a constant of its protocol's own enum. */
    public boolean has(Enum<?> bug) {
        return bugs.contains(bug);
    }

    /**
     * Tests only: this configuration running the deliberately broken variants {@code bugs}, to prove that the burn
     * test and the history checker catch what they break.
     */
    public PartitionConfig withBugs(Set<? extends Enum<?>> bugs) {
        List<Enum<?>> ordered = new ArrayList<>(bugs);
        ordered.sort(Comparator.comparing((Enum<?> e) -> e.getDeclaringClass().getName()).thenComparingInt(Enum::ordinal));
        return new PartitionConfig(toBuilder(), new LinkedHashSet<>(ordered));
    }

    @Override
    public String toString() {
        return "PartitionConfig{transaction_timeout=" + transactionTimeoutMicros + "us, check_interval=" + checkIntervalMicros
                + "us, stabilization_interval=" + stabilizationIntervalMicros + "us, stabilization_fanout=" + stabilizationFanout
                + ", gc_interval=" + gcIntervalMicros
                + "us, version_retention=" + versionRetentionMicros + "us, decision_retention=" + decisionRetentionMicros
                + "us, max_keys=" + maxKeysPerRequest + ", max_key_bytes=" + maxKeyBytes + ", max_value_bytes=" + maxValueBytes
                + (bugs.isEmpty() ? "" : ", BUGS=" + bugs) + "}";
    }

    public static final class Builder {
        private long transactionTimeoutMicros = 2_000_000;
        private long checkIntervalMicros = 200_000;
        private long stabilizationIntervalMicros = 5_000;
        private long stabilizationHeartbeatMicros = 1_000_000;
        private long stabilizationFanout = DEFAULT_STABILIZATION_FANOUT;
        private long gcIntervalMicros = 500_000;
        private long versionRetentionMicros = 2_000_000;
        private long decisionRetentionMicros = 60_000_000;
        private long maxKeysPerRequest = 1024;
        private long maxKeyBytes = 65_535;
        private long maxValueBytes = 1 << 20;

        private Builder() {
        }

        public Builder transactionTimeoutMicros(long v) { transactionTimeoutMicros = v; return this; }
        public Builder checkIntervalMicros(long v) { checkIntervalMicros = v; return this; }
        public Builder stabilizationIntervalMicros(long v) { stabilizationIntervalMicros = v; return this; }
        public Builder stabilizationHeartbeatMicros(long v) { stabilizationHeartbeatMicros = v; return this; }
        public Builder stabilizationFanout(int v) { stabilizationFanout = v; return this; }
        public Builder gcIntervalMicros(long v) { gcIntervalMicros = v; return this; }
        public Builder versionRetentionMicros(long v) { versionRetentionMicros = v; return this; }
        public Builder decisionRetentionMicros(long v) { decisionRetentionMicros = v; return this; }
        public Builder maxKeysPerRequest(int v) { maxKeysPerRequest = v; return this; }
        public Builder maxKeyBytes(int v) { maxKeyBytes = v; return this; }
        public Builder maxValueBytes(int v) { maxValueBytes = v; return this; }

        public PartitionConfig build() {
            return new PartitionConfig(this, Set.of());
        }
    }
}
