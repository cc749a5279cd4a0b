package io.fastccs.client;

/**
 * A read-only transaction did not get every reply in time, or its second round came too late twice (the nodes
 * had already discarded the versions it needed). A read has no effect: the session is unchanged and the read
 * may be retried.
 */
public class ReadTimeoutException extends TransactionTimeoutException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message and, if any, the failure that caused it. */
    public ReadTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
