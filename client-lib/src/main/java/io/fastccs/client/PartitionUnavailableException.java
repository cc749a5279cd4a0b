package io.fastccs.client;

/**
 * A partition the transaction needs cannot serve it now: the client has no connection to its node (the client
 * reconnects by itself, with backoff), the connection broke before the reply came, the node is overloaded, or it
 * does not lead the partition (a replicated partition's failover). Reads, and writes that nothing was sent for, are
 * already retried by the client until the request timeout before this is thrown. A read may simply be retried. A
 * write refused this way had no effect; a write whose connection broke after it was sent is reported as a
 * {@link WriteTimeoutException} instead.
 */
public class PartitionUnavailableException extends FastCcsException {
    private static final long serialVersionUID = 1L;

    private final int partition;

    /**
     * An exception for one partition.
     *
     * @param partition the partition's index, or -1 when no single partition is to blame
     */
    public PartitionUnavailableException(int partition, String message) {
        super(message);
        this.partition = partition;
    }

    /**
     * An exception for one partition, with its cause.
     *
     * @param partition the partition's index, or -1 when no single partition is to blame
     */
    public PartitionUnavailableException(int partition, String message, Throwable cause) {
        super(message, cause);
        this.partition = partition;
    }

    /** The index of the partition that could not be reached, or -1 when no single partition is to blame. */
    public int partition() {
        return partition;
    }
}
