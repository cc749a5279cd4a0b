package io.fastccs.client;

/**
 * A node and the client did not understand each other: a malformed frame, a reply of the wrong type, a node that
 * reports an internal error, or a node whose view of the ring disagrees with the client's. The connection that
 * carried a malformed frame is closed and reopened.
 */
public class ProtocolException extends FastCcsException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message. */
    public ProtocolException(String message) {
        super(message);
    }

    /** An exception with a message and the failure that caused it. */
    public ProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
