package io.fastccs.client;

/**
 * A committed write-only transaction. Its writes are visible, atomically, to every later transaction of the
 * session that wrote them, and to every session that later sees any of its effects. Immutable.
 */
public interface WriteResult {
    /** The transaction's id, unique in the cluster; for logs. */
    String transactionId();

    /** How many keys the transaction wrote. */
    int size();

    /** How many partitions took part. */
    int partitionsTouched();

    /**
     * The transaction's commit clock: entry {@code i} for partition {@code i}, as in {@link CausalToken#clock()};
     * entry {@code p} of a participant {@code p} is the sequence number of the versions it stored. Versions of a key
     * are ordered by their commit clocks (sum of the entries, then lexicographically), so this tells which of two
     * committed writes of a key is newer. For verification and diagnostics.
     *
     * @return a copy of the clock; empty when the client speaks another protocol than FastCCS
     *         ({@link FastCcsClientBuilder#withProtocol}), whose commit stamps are not vector clocks
     */
    long[] commitClock();
}
