package io.fastccs.client;

/**
 * A write-only transaction was not confirmed by every participant in time (a reply timed out, a connection
 * broke, or the nodes aborted it). The client then asked the transaction's coordinator for the outcome;
 * {@link #outcome()} reports what it answered, never a guess.
 *
 * <p>Unless the outcome is {@link WriteOutcome#ABORTED}, the session that ran the write is left with an
 * unconfirmed write: it refuses further transactions with {@link SessionInDoubtException} until
 * {@link CausalSession#continueWithoutUnconfirmedWrite()} is called. See {@link CausalSession}.
 */
public class WriteTimeoutException extends TransactionTimeoutException {
    private static final long serialVersionUID = 1L;

    private final WriteOutcome outcome;
    private final String transactionId;

    /**
     * An exception for one write.
     *
     * @param transactionId the write's id, as {@link WriteResult#transactionId()} would have reported it
     */
    public WriteTimeoutException(String message, WriteOutcome outcome, String transactionId, Throwable cause) {
        super(message, cause);
        this.outcome = outcome;
        this.transactionId = transactionId;
    }

    /** What the coordinator said of the write, or {@link WriteOutcome#UNKNOWN} if it could not be asked. */
    public WriteOutcome outcome() {
        return outcome;
    }

    /** The write's transaction id, for logs and for matching it with the nodes' records. */
    public String transactionId() {
        return transactionId;
    }
}
