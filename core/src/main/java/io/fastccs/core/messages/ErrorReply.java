package io.fastccs.core.messages;

/**
 * A refused request.
 *
 * @param owner for {@link ErrorCode#NOT_OWNER}, the partition that owns the key; for {@link ErrorCode#NOT_LEADER}, the
 *              partition whose preferred node leads now, or -1; otherwise -1
 */
public record ErrorReply(long requestId, ErrorCode code, String message, int owner) implements ClientResponse {
    public static ErrorReply of(long requestId, ErrorCode code, String message) {
        return new ErrorReply(requestId, code, message, -1);
    }
}
