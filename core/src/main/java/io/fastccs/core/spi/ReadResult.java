package io.fastccs.core.spi;

import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;

import java.util.List;
import java.util.Map;

/**
 * What a read-only transaction returned.
 *
 * @param values                one value per key read, in the order the keys were asked for
 * @param rounds                client round trips the read took (a start round counts)
 * @param secondRoundPartitions partitions asked again after the first round of reads (0 for a one-round read)
 * @param answers               what each partition's final answer rested on, for a client cache; empty unless the
 *                              protocol has {@link Capability#CAUSAL_TOKENS}
 */
public record ReadResult(Map<Key, ReadValue> values, int rounds, int secondRoundPartitions, List<PartitionAnswer> answers) {
    public ReadResult {
        answers = List.copyOf(answers);
    }

    /** A result without partition answers. */
    public ReadResult(Map<Key, ReadValue> values, int rounds, int secondRoundPartitions) {
        this(values, rounds, secondRoundPartitions, List.of());
    }
}
