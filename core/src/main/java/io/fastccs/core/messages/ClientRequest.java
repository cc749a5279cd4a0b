package io.fastccs.core.messages;

/** A request from a client to one partition; the response echoes {@link #requestId()}. */
public interface ClientRequest extends Message {
    long requestId();

    /** Whether the request only reads (a read round, a start round): nodes check read permission for it, write otherwise. */
    default boolean onlyReads() {
        return false;
    }
}
