package io.fastccs.protocol.partition;

import io.fastccs.protocol.api.PartitionStore.Decision;
import io.fastccs.core.primitives.TxnId;

/**
 * What the protocol's cluster tests (package {@code io.fastccs.protocol}, beside their {@code TestCluster}) read inside a
 * partition, which this package keeps to itself.
 */
public final class PartitionInternals {
    /** About how many bytes of waiting versions one read answer lists. */
    public static final int MAX_WAITING_BYTES = Reads.MAX_WAITING_BYTES;
    /** The largest clock entry a request may carry. */
    public static final long MAX_CLOCK_ENTRY = Checks.MAX_CLOCK_ENTRY;
    /** How many versions a typed key needs before its reads start from a running fold. */
    public static final int RUNNING_FOLD_MIN_VERSIONS = RunningFolds.MIN_VERSIONS;

    private PartitionInternals() {
    }

    /** {@code p}'s decision on {@code id} as coordinator, or null. */
    public static Decision decisionOf(Partition p, TxnId id) {
        return p.decisionOf(id);
    }

    /** The newest stable base {@code p} names to clients (0: none). */
    public static long stableEpoch(Partition p) {
        return p.stableEpoch();
    }

    /** The stable base of {@code epoch} {@code p} knows, or null. */
    public static long[] base(Partition p, long epoch) {
        return p.baseForTest(epoch);
    }
}
