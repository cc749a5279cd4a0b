package io.fastccs.client.internal;

/** A request got no reply within the request timeout; transactions turn it into the public exception. */
final class RequestTimedOutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RequestTimedOutException(String message) {
        super(message, null, false, false); // expected under load: no stack trace to fill
    }
}
