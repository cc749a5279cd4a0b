package io.fastccs.client;

import java.util.List;
import java.util.OptionalLong;

/**
 * What a read-only transaction returned: for every key read, its newest value in the transaction's snapshot, or
 * nothing if the key has never been written. All values come from one causally consistent snapshot: a write
 * transaction's effects are seen entirely or not at all.
 *
 * <p><b>Typed keys.</b> A key written with a commutative operation ({@link WriteBuilder}) is read with the accessor of
 * its {@link KeyType}: {@link #counter}, {@link #max}, {@link #set} (or {@link #setBytes}), {@link #topk}. Its value in
 * the snapshot is the fold of every operation on it that the snapshot includes. A typed accessor of a key that has no
 * value in the snapshot returns the empty value of its type (0, no maximum, the empty set, no items), since nothing
 * says which type the key will have; asked of a key of another type, it throws {@link IllegalStateException} naming
 * the key's type and the accessor to use, and so do {@link #get} and {@link #getString} asked of a typed key.
 * {@link #type} tells which accessor fits.
 *
 * <p>Keys are looked up by content; asking for a key the read did not include is an
 * {@link IllegalArgumentException}. Immutable and thread-safe; the byte arrays returned are copies.
 */
public interface ReadResult {
    /**
     * The key's value, or {@code null} if the key has no value in the snapshot.
     *
     * @throws IllegalStateException if the key is typed (not {@link KeyType#REGISTER}): read it with its type's accessor
     */
    byte[] get(byte[] key);

    /**
     * The value of the key's UTF-8 bytes, or {@code null} if the key has no value in the snapshot.
     *
     * @throws IllegalStateException if the key is typed (not {@link KeyType#REGISTER}): read it with its type's accessor
     */
    byte[] get(String key);

    /**
     * The key's value decoded as UTF-8, or {@code null} if the key has no value in the snapshot.
     *
     * @throws IllegalStateException if the key is typed (not {@link KeyType#REGISTER}): read it with its type's accessor
     */
    String getString(String key);

    /**
     * The key's value decoded as UTF-8, or {@code null} if the key has no value in the snapshot.
     *
     * @throws IllegalStateException if the key is typed (not {@link KeyType#REGISTER}): read it with its type's accessor
     */
    String getString(byte[] key);

    /** Whether the key has a value in the snapshot (for a typed key: whether the snapshot includes an operation on it). */
    boolean exists(String key);

    /** Whether the key has a value in the snapshot (for a typed key: whether the snapshot includes an operation on it). */
    boolean exists(byte[] key);

    /**
     * The key's type, which says the accessor that reads it ({@link KeyType#accessor()}), or {@code null} if the key has
     * no value in the snapshot.
     */
    KeyType type(String key);

    /**
     * The key's type, which says the accessor that reads it ({@link KeyType#accessor()}), or {@code null} if the key has
     * no value in the snapshot.
     */
    KeyType type(byte[] key);

    /**
     * The counter's value: the sum of the deltas of every {@link WriteBuilder#add add} in the snapshot.
     *
     * @return the sum; 0 if the key has no value in the snapshot
     * @throws IllegalStateException if the key is of another type than {@link KeyType#COUNTER}
     */
    long counter(String key);

    /**
     * The counter's value: the sum of the deltas of every {@link WriteBuilder#add add} in the snapshot.
     *
     * @return the sum; 0 if the key has no value in the snapshot
     * @throws IllegalStateException if the key is of another type than {@link KeyType#COUNTER}
     */
    long counter(byte[] key);

    /**
     * The max register's value: the largest value of every {@link WriteBuilder#max max} in the snapshot.
     *
     * @return the largest value; empty if the key has no value in the snapshot
     * @throws IllegalStateException if the key is of another type than {@link KeyType#MAX}
     */
    OptionalLong max(String key);

    /**
     * The max register's value: the largest value of every {@link WriteBuilder#max max} in the snapshot.
     *
     * @return the largest value; empty if the key has no value in the snapshot
     * @throws IllegalStateException if the key is of another type than {@link KeyType#MAX}
     */
    OptionalLong max(byte[] key);

    /**
     * The set's elements decoded as UTF-8 (malformed bytes replaced), in the order of their bytes (compared unsigned,
     * which for UTF-8 is the order of code points).
     *
     * @return the elements, immutable; empty if the key has no value in the snapshot
     * @throws IllegalStateException if the key is of another type than {@link KeyType#SET}
     */
    List<String> set(String key);

    /**
     * The set's elements decoded as UTF-8 (malformed bytes replaced), in the order of their bytes (compared unsigned).
     *
     * @return the elements, immutable; empty if the key has no value in the snapshot
     * @throws IllegalStateException if the key is of another type than {@link KeyType#SET}
     */
    List<String> set(byte[] key);

    /**
     * The set's elements, in the order of their bytes (compared unsigned); copies.
     *
     * @return the elements, immutable; empty if the key has no value in the snapshot
     * @throws IllegalStateException if the key is of another type than {@link KeyType#SET}
     */
    List<byte[]> setBytes(String key);

    /**
     * The set's elements, in the order of their bytes (compared unsigned); copies.
     *
     * @return the elements, immutable; empty if the key has no value in the snapshot
     * @throws IllegalStateException if the key is of another type than {@link KeyType#SET}
     */
    List<byte[]> setBytes(byte[] key);

    /**
     * The top-k's items: at most k, each with its best score, best first; ties go to the smaller item (bytes compared
     * unsigned).
     *
     * @return the items, immutable; empty if the key has no value in the snapshot
     * @throws IllegalStateException if the key is of another type than {@link KeyType#TOPK}
     */
    List<ScoredItem> topk(String key);

    /**
     * The top-k's items: at most k, each with its best score, best first; ties go to the smaller item (bytes compared
     * unsigned).
     *
     * @return the items, immutable; empty if the key has no value in the snapshot
     * @throws IllegalStateException if the key is of another type than {@link KeyType#TOPK}
     */
    List<ScoredItem> topk(byte[] key);

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

    /**
     * Whether the client's cache answered the whole read, with no request ({@link #rounds()} is then 0): still one
     * causally consistent snapshot including the session's past, at most {@link FastCcsClientBuilder#withMaxStaleness}
     * old. Always false while the cache is off, the default.
     */
    boolean fromCache();
}
