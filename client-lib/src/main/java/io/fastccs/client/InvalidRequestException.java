package io.fastccs.client;

/**
 * A transaction's input was refused: no keys, a null or empty key, a key or value over the configured maximum,
 * too many keys, a key given twice, a null or empty value, a top-k's k out of range, or a {@link CausalToken} from
 * another cluster.
 *
 * <p>The client checks all of these before it sends anything, so a transaction refused with this exception had
 * no effect and left its session unchanged. A node may also refuse a request it finds invalid (its own limits
 * may be lower than the client's), or an operation of another type than its key's ({@link WriteBuilder}: a put on a
 * counter, say; the message is the node's, naming the key and its type); that too has no effect.
 */
public class InvalidRequestException extends FastCcsException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message. */
    public InvalidRequestException(String message) {
        super(message);
    }
}
