package io.fastccs.replication;

/** The group could not take an entry for another reason than leadership (closed, timed out, storage failed). */
public final class ReplicationException extends Exception {
    public ReplicationException(String message, Throwable cause) {
        super(message, cause);
    }
}
