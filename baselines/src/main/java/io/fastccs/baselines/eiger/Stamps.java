package io.fastccs.baselines.eiger;

/**
 * A version's stamp, {@code (commitTime << 16) | coordinatorPartition}: unique (a coordinator never commits twice at one
 * time) and the order in which versions of a key win.
 */
final class Stamps {
    /** Far above any Lamport time a real run reaches, and low enough that {@code time << 16} cannot overflow. */
    static final long MAX_CLOCK = 1L << 46;
    static final int MAX_PARTITIONS = 1 << 16;

    private Stamps() {
    }

    static long stamp(long commitTime, int coordinator) {
        return (commitTime << 16) | coordinator;
    }

    static long commitTimeOf(long stamp) {
        return stamp >>> 16;
    }

    static int coordinatorOf(long stamp) {
        return (int) (stamp & 0xFFFF);
    }
}
