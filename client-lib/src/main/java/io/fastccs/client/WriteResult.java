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
     * are ordered by {@link #commitTime()}, then by their commit clocks (sum of the entries, then lexicographically),
     * so the two tell which of two committed writes of a key is newer. For verification and diagnostics.
     *
     * @return a copy of the clock; empty when the client speaks another protocol than FastCCS
     *         ({@link FastCcsClientBuilder#withProtocol}), whose commit stamps are not vector clocks
     */
    long[] commitClock();

    /**
     * The transaction's commit time: microseconds of its coordinator's clock, raised above every commit time its
     * session had read or written. The first part of the order in which versions of a key replace each other, so a
     * write that began after another was acknowledged is newer, up to the skew between the nodes' clocks.
     *
     * @return the commit time; 0 when the client speaks another protocol than FastCCS
     */
    long commitTime();
}
