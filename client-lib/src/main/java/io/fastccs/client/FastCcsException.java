package io.fastccs.client;

/**
 * The root of every exception the FastCCS client throws (besides {@link IllegalStateException} for calls on a
 * closed client and {@link IllegalArgumentException} for malformed {@link CausalToken}s). Catch this type to
 * handle all client failures at once; catch a subtype to react to one kind.
 */
public class FastCcsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message. */
    public FastCcsException(String message) {
        super(message);
    }

    /** An exception with a message and the failure that caused it. */
    public FastCcsException(String message, Throwable cause) {
        super(message, cause);
    }
}
