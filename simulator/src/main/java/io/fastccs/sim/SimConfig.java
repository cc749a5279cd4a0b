package io.fastccs.sim;

import io.fastccs.core.spi.ProtocolFactory;
import io.fastccs.core.spi.Protocols;
import io.fastccs.core.spi.Capability;
import io.fastccs.workload.KeyDistribution;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.primitives.Protocol;

/**
 * Everything a simulation run depends on besides its seed. Defaults follow Table 4.1 of the thesis (5 keys per
 * read and per write, 128-byte values, 5% writes) and its network (0.5 ms mean delay, 1 Gb/s per node).
 *
 * @param maxClockSkewMicros how far two partitions' clocks may disagree: each partition's clock runs ahead of true time
 *                           by a fixed offset drawn in [0, max] (0: every clock is true time)
 * @param typedFraction      the share of keys that are typed (counters, max registers, sets and top-k in turn), written
 *                           with commutative operations instead of puts (0: none; {@link TypedKeys})
 */
public record SimConfig(
        int partitions,
        int clients,
        int keysPerRead,
        int keysPerWrite,
        double writeFraction,
        int valueSize,
        long keys,
        KeyDistribution.Shape distribution,
        double zipfExponent,
        long transactions,
        boolean fifo,
        double meanDelayMicros,
        double bandwidthBitsPerMicro,
        Faults faults,
        PartitionConfig partition,
        Protocol protocol,
        long maxClockSkewMicros,
        double typedFraction) {

    /** Which faults to inject, and how often. All zero: a fault-free run. */
    public record Faults(
            double messageLoss,
            double delaySpikeProbability,
            long delaySpikeMaxMicros,
            double clientCrashPerWrite,
            double partitionCrashesPerSecond,
            long maxDowntimeMicros) {
        public static Faults none() {
            return new Faults(0, 0, 0, 0, 0, 0);
        }

        /** The default fault mix of {@code sim --faults} and the burn test. */
        public static Faults standard() {
            return new Faults(0.001, 0.002, 200_000, 0.01, 0.5, 600_000);
        }

        /** The delay spikes of {@link #standard()} alone: nothing lost or crashed. */
        public static Faults delaysOnly() {
            Faults s = standard();
            return new Faults(0, s.delaySpikeProbability(), s.delaySpikeMaxMicros(), 0, 0, 0);
        }

        /**
         * {@link #standard()} without partition crashes: message loss, delay spikes and clients dying mid-write. What
         * the protocols that keep their state in memory (eiger, wren, eventual) take with {@code sim --faults}.
         */
        public static Faults withoutPartitionCrashes() {
            Faults s = standard();
            return new Faults(s.messageLoss(), s.delaySpikeProbability(), s.delaySpikeMaxMicros(), s.clientCrashPerWrite(), 0, 0);
        }

        /** The fault mix of {@code sim --faults} for {@code protocol}: the standard one, minus what it cannot take. */
        public static Faults standardFor(Protocol protocol) {
            return Protocols.factory(protocol).has(Capability.CRASH_RECOVERY) ? standard() : withoutPartitionCrashes();
        }

        public boolean any() {
            return messageLoss > 0 || delaySpikeProbability > 0 || clientCrashPerWrite > 0 || partitionCrashesPerSecond > 0;
        }
    }

    /** {@code base} with partition crashes only, {@code rate} a second, each down for up to the transaction timeout. */
    public static SimConfig crashHeavy(SimConfig base, double rate) {
        return base.toBuilder().faults(new Faults(0, 0, 0, 0, rate, base.partition().transactionTimeoutMicros())).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.partitions = partitions;
        b.clients = clients;
        b.keysPerRead = keysPerRead;
        b.keysPerWrite = keysPerWrite;
        b.writeFraction = writeFraction;
        b.valueSize = valueSize;
        b.keys = keys;
        b.distribution = distribution;
        b.zipfExponent = zipfExponent;
        b.transactions = transactions;
        b.fifo = fifo;
        b.meanDelayMicros = meanDelayMicros;
        b.bandwidthBitsPerMicro = bandwidthBitsPerMicro;
        b.faults = faults;
        b.partition = partition;
        b.protocol = protocol;
        b.maxClockSkewMicros = maxClockSkewMicros;
        b.typedFraction = typedFraction;
        return b;
    }

    /** What a bare zipf means, in the simulator as in the stress tool. */
    public static final double DEFAULT_ZIPF_EXPONENT = KeyDistribution.Shape.DEFAULT_ZIPF_EXPONENT;
    /** The protocol a run simulates unless told otherwise: the one this project builds. */
    public static final Protocol DEFAULT_PROTOCOL = Protocol.FASTCCS;

    /** The keys the clients draw: {@link #distribution()} over 1..{@link #keys()}. */
    public KeyDistribution keyDistribution() {
        return distribution.over(keys, zipfExponent);
    }

    @Override
    public String toString() {
        return "partitions=" + partitions + " clients=" + clients + " keys/read=" + keysPerRead + " keys/write=" + keysPerWrite
                + " write-fraction=" + writeFraction + " value-size=" + valueSize + " keys=" + keys + " dist=" + distribution
                + (distribution == KeyDistribution.Shape.ZIPF && zipfExponent != DEFAULT_ZIPF_EXPONENT ? " zipf-exponent=" + zipfExponent : "")
                + " txns=" + transactions + " links=" + (fifo ? "fifo" : "reordering") + " faults=" + (faults.any() ? faults : "none")
                + (protocol == DEFAULT_PROTOCOL ? "" : " protocol=" + protocol.word())
                + (maxClockSkewMicros == 0 ? "" : " clock-skew=" + maxClockSkewMicros + "us")
                + (typedFraction == 0 ? "" : " typed=" + typedFraction)
                + (partitions > partition.stabilizationFanout() + 1 ? " stabilization-tree-fanout=" + partition.stabilizationFanout() : "");
    }

    public static final class Builder {
        private int partitions = 8;
        private int clients = 64;
        private int keysPerRead = 5;
        private int keysPerWrite = 5;
        private double writeFraction = 0.05;
        private int valueSize = 128;
        private long keys = 100_000;
        private KeyDistribution.Shape distribution = KeyDistribution.Shape.GAUSSIAN;
        private double zipfExponent = DEFAULT_ZIPF_EXPONENT;
        private long transactions = 20_000;
        private boolean fifo = true;
        private double meanDelayMicros = 500;
        private double bandwidthBitsPerMicro = 1000; // 1 Gb/s
        private Faults faults = Faults.none();
        private PartitionConfig partition;
        private Protocol protocol = DEFAULT_PROTOCOL;
        private long maxClockSkewMicros;
        private double typedFraction;

        public Builder partitions(int v) { partitions = v; return this; }
        public Builder clients(int v) { clients = v; return this; }
        public Builder keysPerRead(int v) { keysPerRead = v; return this; }
        public Builder keysPerWrite(int v) { keysPerWrite = v; return this; }
        public Builder writeFraction(double v) { writeFraction = v; return this; }
        public Builder valueSize(int v) { valueSize = v; return this; }
        public Builder keys(long v) { keys = v; return this; }
        public Builder distribution(KeyDistribution.Shape v) { distribution = v; return this; }
        public Builder zipfExponent(double v) {
            if (!(v > 0)) throw new IllegalArgumentException("the zipf exponent must be > 0, not " + v);
            zipfExponent = v;
            return this;
        }
        public Builder transactions(long v) { transactions = v; return this; }
        public Builder fifo(boolean v) { fifo = v; return this; }
        public Builder meanDelayMicros(double v) { meanDelayMicros = v; return this; }
        public Builder bandwidthBitsPerMicro(double v) { bandwidthBitsPerMicro = v; return this; }
        public Builder faults(Faults v) { faults = v; return this; }
        public Builder partition(PartitionConfig v) { partition = v; return this; }
        public Builder protocol(Protocol v) { protocol = v; return this; }
        public Builder maxClockSkewMicros(long v) { maxClockSkewMicros = v; return this; }
        public Builder typedFraction(double v) { typedFraction = v; return this; }

        public SimConfig build() {
            if (partitions < 1 || partitions > 4096) throw new IllegalArgumentException("partitions must be 1..4096");
            if (clients < 1) throw new IllegalArgumentException("clients must be positive");
            if (keysPerRead < 1 || keysPerWrite < 1) throw new IllegalArgumentException("keys per transaction must be positive");
            if (keys < Math.max(keysPerRead, keysPerWrite))
                throw new IllegalArgumentException("need at least as many keys as one transaction touches");
            if (writeFraction < 0 || writeFraction > 1) throw new IllegalArgumentException("write fraction must be in [0,1]");
            if (valueSize < 1) throw new IllegalArgumentException("value size must be positive");
            if (transactions < 1) throw new IllegalArgumentException("transactions must be positive");
            if (maxClockSkewMicros < 0) throw new IllegalArgumentException("clock skew must be >= 0");
            if (typedFraction < 0 || typedFraction > 1) throw new IllegalArgumentException("typed fraction must be in [0,1]");
            ProtocolFactory factory = Protocols.factory(protocol);
            if (typedFraction > 0 && !factory.has(Capability.COMMUTATIVE_OPERATIONS))
                throw new IllegalArgumentException(protocol.word() + " has no commutative operations (typed keys are FastCCS's)");
            // A protocol without crash recovery keeps its state in memory: a crashed partition would come back empty.
            if (!factory.has(Capability.CRASH_RECOVERY) && faults.partitionCrashesPerSecond() > 0)
                throw new IllegalArgumentException(protocol.word() + " keeps its partitions' state in memory, so the simulator"
                        + " runs it with message loss, delay spikes, client crashes and reordering but no partition crashes"
                        + " (docs/design/four-protocols.md, \"What the simulator does not do for the other three"
                        + " protocols\")");
            // Every size stabilizes every 5 ms, as the nodes do: beyond 33 partitions up and down a tree, not N^2.
            PartitionConfig p = partition != null ? partition : PartitionConfig.defaults();
            return new SimConfig(partitions, clients, keysPerRead, keysPerWrite, writeFraction, valueSize, keys, distribution, zipfExponent,
                    transactions, fifo, meanDelayMicros, bandwidthBitsPerMicro, faults, p, protocol, maxClockSkewMicros,
                    typedFraction);
        }
    }
}
