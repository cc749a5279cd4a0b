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
}
