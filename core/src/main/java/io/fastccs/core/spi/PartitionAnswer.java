package io.fastccs.core.spi;

import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.VectorClock;

import java.util.List;

/**
 * What one partition's final answer to a read says beyond its values, for a client that keeps them for later reads
 * (docs/design/client-cache.md, "What an entry holds"): each value is the newest of its key with commit clock at most
 * {@code readAt}.
 *
 * @param values         the partition's values, in the order its keys were asked for
 * @param readAt         a clock the partition read at (or one below it that still covers {@code maxCommitClock})
 * @param maxCommitClock at least every returned version's commit clock
 * @param maxCommitTime  at least every returned version's commit time
 * @param roundOneTime   the partition's time of the round one the answer rests on
 */
public record PartitionAnswer(int partition, List<ReadValue> values, VectorClock readAt, VectorClock maxCommitClock,
                              long maxCommitTime, long roundOneTime) {
    public PartitionAnswer {
        values = List.copyOf(values);
    }
}
