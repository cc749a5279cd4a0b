package io.fastccs.client.internal;

import io.fastccs.client.FastCcsException;
import io.fastccs.client.InvalidRequestException;
import io.fastccs.client.PartitionUnavailableException;
import io.fastccs.client.ProtocolException;
import io.fastccs.client.UnauthorizedException;
import io.fastccs.core.messages.ErrorReply;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns what the wire and the nodes report into the public exceptions. */
final class Failures {
    private Failures() {
    }

    /**
     * The exception for a node's refusal. Reads handle {@code SNAPSHOT_EXPIRED} themselves before it gets here;
     * anywhere else it is a protocol error.
     */
    static FastCcsException fromErrorReply(ErrorReply e, int partition) {
        String what = "partition " + partition + " refused the request: " + e.code()
                + (e.message() == null ? "" : " (" + e.message() + ")");
        return switch (e.code()) {
            case INVALID_REQUEST -> new InvalidRequestException(what);
            case UNAUTHORIZED -> new UnauthorizedException(what);
            case OVERLOADED, NOT_LEADER -> new PartitionUnavailableException(partition, what);
            case NOT_OWNER -> new ProtocolException(what + "; the node's ring differs from the client's"
                    + (e.owner() >= 0 ? " (it names partition " + e.owner() + " as the owner)" : ""));
            // BASE_UNKNOWN: the FastCCS step sends the request again relative to epoch 0 before it gets here.
            case SNAPSHOT_EXPIRED, MALFORMED_FRAME, UNKNOWN_MESSAGE, INTERNAL, BASE_UNKNOWN -> new ProtocolException(what);
        };
    }

    /** {@code t} without its {@link CompletionException} wrappers. */
    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null)
            t = t.getCause();
        return t;
    }

    /** {@code t} as a FastCCS exception: itself if it is one, else wrapped. */
    static FastCcsException asFastCcs(Throwable t) {
        t = unwrap(t);
        if (t instanceof FastCcsException f) return f;
        return new FastCcsException("unexpected failure: " + t, t);
    }
}
