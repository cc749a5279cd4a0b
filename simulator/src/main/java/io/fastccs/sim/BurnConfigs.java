package io.fastccs.sim;

import io.fastccs.core.spi.Protocols;
import io.fastccs.core.spi.Capability;
import io.fastccs.workload.KeyDistribution;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.primitives.Protocol;

import java.util.SplittableRandom;

/**
 * Random simulation configurations for the burn test, each a function of one seed, so a failing seed replays
 * with {@code bin/fastccs sim --burn-seed SEED}. Small key spaces and short timeouts make contention, stuck
 * sequence numbers and GC happen often in few transactions.
 */
public final class BurnConfigs {
    private BurnConfigs() {
    }

    public static SimConfig forSeed(long seed) {
        return forSeed(seed, SimConfig.DEFAULT_PROTOCOL);
    }

    /**
     * The burn run of {@code seed} for {@code protocol}: the same configuration as FastCCS's, but the protocols that keep
     * their state in memory get its faults without partition crashes (message loss, delay spikes, clients dying
     * mid-write). Replays with {@code bin/fastccs sim --burn-seed SEED --protocol NAME}.
     */
    /**
     * Clocks off by up to 10 ms either way in two runs of three (NTP on a bad day), from a random of its own so the
     * rest of each seed's configuration stays what it was before clocks could disagree.
     */
    private static long clockSkew(long seed) {
        SplittableRandom r = new SplittableRandom(seed ^ 0x3C6EF372FE94F82BL);
        return r.nextInt(3) == 0 ? 0 : r.nextLong(10_001);
    }

    /**
     * Stabilization up and down a tree of fan-out 1 to 3 in half the runs (beyond fan-out + 1 partitions), all-to-all in
     * the others; from a random of its own, like the clock skew.
     */
    private static int stabilizationFanout(long seed) {
        SplittableRandom r = new SplittableRandom(seed ^ 0x7F4A7C159E3779B9L);
        return r.nextBoolean() ? PartitionConfig.DEFAULT_STABILIZATION_FANOUT : 1 + r.nextInt(3);
    }

    /**
     * Commutative operations (counters, max registers, sets, top-k) on a fifth to a half of the keys in half the FastCCS
     * runs; from a random of its own, like the clock skew.
     */
    private static double typedFraction(long seed, Protocol protocol) {
        SplittableRandom r = new SplittableRandom(seed ^ 0x2545F4914F6CDD1DL);
        return !Protocols.factory(protocol).has(Capability.COMMUTATIVE_OPERATIONS) || r.nextBoolean() ? 0 : 0.2 + 0.3 * r.nextDouble();
    }

    public static SimConfig forSeed(long seed, Protocol protocol) {
        SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
        int partitions = 2 + r.nextInt(15);
        boolean faults = r.nextInt(3) > 0;
        KeyDistribution.Shape dist = KeyDistribution.Shape.values()[r.nextInt(KeyDistribution.Shape.values().length)];
        long timeoutMicros = 200_000 + r.nextLong(800_000);
        PartitionConfig partition = PartitionConfig.builder()
                .transactionTimeoutMicros(timeoutMicros)
                .versionRetentionMicros(timeoutMicros)
                .checkIntervalMicros(50_000 + r.nextLong(100_000))
                .stabilizationIntervalMicros(1_000 + r.nextLong(10_000))
                .stabilizationHeartbeatMicros(200_000)
                .stabilizationFanout(stabilizationFanout(seed))
                .gcIntervalMicros(50_000 + r.nextLong(200_000))
                .decisionRetentionMicros(60_000_000)
                .build();
        return SimConfig.builder()
                .partitions(partitions)
                .clients(4 + r.nextInt(61))
                .keysPerRead(1 + r.nextInt(8))
                .keysPerWrite(1 + r.nextInt(8))
                .writeFraction(0.05 + r.nextDouble() * 0.45)
                .valueSize(8 + r.nextInt(120))
                .keys(8 + r.nextLong(dist == KeyDistribution.Shape.UNIFORM ? 200 : 2000))
                .distribution(dist)
                .transactions(1_000 + r.nextLong(2_000))
                .fifo(r.nextBoolean())
                .faults(!faults ? SimConfig.Faults.none()
                        : Protocols.factory(protocol).has(Capability.CRASH_RECOVERY) ? new SimConfig.Faults(0.002, 0.005, timeoutMicros, 0.02, 2.0, 2 * timeoutMicros)
                        : new SimConfig.Faults(0.002, 0.005, timeoutMicros, 0.02, 0, 0))
                .partition(partition)
                .protocol(protocol)
                .maxClockSkewMicros(clockSkew(seed))
                .typedFraction(typedFraction(seed, protocol))
                .build();
    }
}
