package io.fastccs.client;

/**
 * A transaction did not finish within the request timeout. See {@link ReadTimeoutException} (harmless: the
 * session is unchanged) and {@link WriteTimeoutException} (says what is known of the write's outcome).
 */
public abstract class TransactionTimeoutException extends FastCcsException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message and, if any, the failure that caused it. */
    protected TransactionTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
