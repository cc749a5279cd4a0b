package io.fastccs.client;

/**
 * A node refused the connection: missing or wrong credentials, a role that may not log in, or a plain connection to a
 * node that requires TLS. The message carries the node's reason.
 */
public class AuthenticationException extends FastCcsException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message. */
    public AuthenticationException(String message) {
        super(message);
    }
}
