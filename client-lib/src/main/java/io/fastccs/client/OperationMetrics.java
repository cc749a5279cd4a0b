package io.fastccs.client;

/**
 * Counters and latency of one kind of transaction (reads or writes) since the client was built. Every
 * transaction counted in {@link #attempts()} ends as exactly one of success, timeout, invalid request or error.
 * Reading the counters is cheap; they are updated concurrently, so two of them read one after the other may
 * disagree by a few transactions in flight.
 */
public interface OperationMetrics {
    /** Transactions started, including those refused by validation before anything was sent. */
    long attempts();

    /** Transactions that succeeded. */
    long successes();

    /** Transactions that failed with a {@link TransactionTimeoutException}. */
    long timeouts();

    /** Transactions refused with an {@link InvalidRequestException}, by the client or a node. */
    long invalidRequests();

    /** Transactions that failed any other way. */
    long errors();

    /** The latency of successful transactions, from the call to the completion of its result. */
    LatencySnapshot latency();
}
