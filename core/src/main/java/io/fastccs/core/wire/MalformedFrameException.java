package io.fastccs.core.wire;

import io.fastccs.core.messages.ErrorCode;

/**
 * A frame {@link WireCodec} could not turn into a message. {@link #kind()} says why, and {@link #errorCode()}
 * is what a node answers with.
 */
public final class MalformedFrameException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Why a frame was refused. */
    public enum Kind {
        /** The bytes are not a Thrift compact encoding of a frame: truncated, garbage, trailing bytes. */
        MALFORMED,
        /**
         * A well-formed frame whose body is a message type this codec does not know: a newer peer, or one of the
         * types the schema reserves but no record implements yet.
         */
        UNKNOWN_MESSAGE,
        /** A field every message of that type must carry is absent. */
        MISSING_FIELD,
        /** A field decoded but its value is impossible: a negative clock entry or partition, an empty clock. */
        INVALID_VALUE,
        /** The frame, a list or the nesting exceeds {@link WireLimits} or the codec's fixed nesting bound. */
        LIMIT_EXCEEDED
    }

    private final Kind kind;

    public MalformedFrameException(Kind kind, String message) {
        this(kind, message, null);
    }

    public MalformedFrameException(Kind kind, String message, Throwable cause) {
        super(kind + ": " + message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    /** The error a node reports to the sender of this frame. */
    public ErrorCode errorCode() {
        return kind == Kind.UNKNOWN_MESSAGE ? ErrorCode.UNKNOWN_MESSAGE : ErrorCode.MALFORMED_FRAME;
    }
}
