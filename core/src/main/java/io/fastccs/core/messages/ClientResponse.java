package io.fastccs.core.messages;

/** A partition's answer to a {@link ClientRequest} with the same request id; errors are {@link ErrorReply}. */
public interface ClientResponse extends Message {
    long requestId();
}
