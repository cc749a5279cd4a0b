package io.fastccs.client;

/** A node refused the client's credentials, when connecting or later. */
public class AuthenticationException extends FastCcsException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message. */
    public AuthenticationException(String message) {
        super(message);
    }
}
