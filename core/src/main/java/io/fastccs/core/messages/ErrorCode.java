package io.fastccs.core.messages;

/** Why a partition refused a request. Nothing of a refused request is stored. */
public enum ErrorCode {
    /** A key is owned by another partition; {@link ErrorReply#owner()} names it. */
    NOT_OWNER,
    /** Empty or oversized key or value, too many keys, a malformed clock or participant list. */
    INVALID_REQUEST,
    /** A round two arrived after the versions it may need could have been collected; restart the read. */
    SNAPSHOT_EXPIRED,
    /** The bytes did not decode as a message. */
    MALFORMED_FRAME,
    /** A well-formed frame of a message type this node does not know. */
    UNKNOWN_MESSAGE,
    /** Authentication or authorization failed. */
    UNAUTHORIZED,
    /** The node is shedding load; retry later. */
    OVERLOADED,
    /** A bug or an unexpected failure on the node. */
    INTERNAL,
    /**
     * This node does not lead the asked partition's replica group (any more); nothing was done. Ask the ring for the
     * leader and retry there; {@link ErrorReply#owner()} names the partition whose preferred node leads, if known.
     */
    NOT_LEADER,
    /**
     * The request's clock is relative to a stable base this partition does not know (it restarted, or the base is
     * older than the ones it keeps); nothing was done. Send it again relative to epoch 0 (the client does so itself).
     */
    BASE_UNKNOWN
}
