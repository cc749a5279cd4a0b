package io.fastccs.tools.cluster;

/** A cluster operation that cannot go on; the message says why and, where possible, what to do about it. */
public final class ClusterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ClusterException(String message) {
        super(message);
    }

    public ClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}
