package io.fastccs.core.impl;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.api.Topology;

/** Keys spread over {@code partitions} by a hash of their bytes; for the simulator and tests. */
public final class HashTopology implements Topology {
    private final int partitions;

    public HashTopology(int partitions) {
        if (partitions < 1) throw new IllegalArgumentException("at least one partition, got " + partitions);
        this.partitions = partitions;
    }

    @Override
    public int partitions() {
        return partitions;
    }

    @Override
    public int ownerOf(Key key) {
        long h = 0x9E3779B97F4A7C15L;
        for (byte b : key.unsafeBytes()) h = (h ^ b) * 0x100000001B3L;
        h ^= h >>> 33; // finalize (murmur3 fmix64) so consecutive keys spread evenly
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return (int) Math.floorMod(h, (long) partitions);
    }
}
