package io.fastccs.client;

import java.util.List;

/**
 * What a read-only transaction returned: for every key read, its newest value in the transaction's snapshot, or
 * nothing if the key has never been written. All values come from one causally consistent snapshot: a write
 * transaction's effects are seen entirely or not at all.
 *
 * <p>Keys are looked up by content; asking for a key the read did not include is an
 * {@link IllegalArgumentException}. Immutable and thread-safe; the byte arrays returned are copies.
 */
public interface ReadResult {
    /** The key's value, or {@code null} if the key has no value in the snapshot. */
    byte[] get(byte[] key);

    /** The value of the key's UTF-8 bytes, or {@code null} if the key has no value in the snapshot. */
    byte[] get(String key);

    /** The key's value decoded as UTF-8, or {@code null} if the key has no value in the snapshot. */
    String getString(String key);

    /** The key's value decoded as UTF-8, or {@code null} if the key has no value in the snapshot. */
    String getString(byte[] key);

    /** Whether the key has a value in the snapshot. */
    boolean exists(String key);

    /** Whether the key has a value in the snapshot. */
    boolean exists(byte[] key);

    /** The keys read, in the order they were given. */
    List<byte[]> keys();

    /** How many keys were read. */
    int size();

    /**
     * The client round trips the read took. With FastCCS: 1 when the first round's replies were already a consistent
     * snapshot; 2 when some partitions had to be read again at the merged snapshot. A read restarted after an expired
     * snapshot reports its last attempt. Other protocols ({@link FastCcsClientBuilder#withProtocol}): Eiger 1 to 3,
     * Wren 2 (a start round, then the reads; 1 when the session's write cache held every key), eventual 1.
     */
    int rounds();

    /** How many partitions held the keys read. */
    int partitionsTouched();

    /** How many partitions were read again after the first round of reads (0 when only one round read values). */
    int secondRoundPartitions();
}
