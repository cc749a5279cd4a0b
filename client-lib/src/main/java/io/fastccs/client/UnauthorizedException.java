package io.fastccs.client;

/**
 * A node refused a request because the client's user lacks the permission (SELECT on the data for reads, MODIFY for
 * writes, as Cassandra's authorizer grants them on keyspace {@code fastccs}). The request had no effect; the session
 * is unchanged. Retrying helps only after the permission is granted.
 */
public class UnauthorizedException extends FastCcsException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message. */
    public UnauthorizedException(String message) {
        super(message);
    }
}
