package io.fastccs.core.spi;

import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;

import java.util.Map;

/**
 * What a read-only transaction returned.
 *
 * @param values                one value per key read, in the order the keys were asked for
 * @param rounds                client round trips the read took (a start round counts)
 * @param secondRoundPartitions partitions asked again after the first round of reads (0 for a one-round read)
 */
public record ReadResult(Map<Key, ReadValue> values, int rounds, int secondRoundPartitions) {
}
