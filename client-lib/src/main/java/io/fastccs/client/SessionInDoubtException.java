package io.fastccs.client;

/**
 * The session has an unconfirmed write (a {@link WriteTimeoutException} whose outcome was not
 * {@link WriteOutcome#ABORTED}) and refuses to run transactions that might not see it. Call
 * {@link CausalSession#continueWithoutUnconfirmedWrite()} to go on, or start a new session.
 */
public class SessionInDoubtException extends FastCcsException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception caused by the session's unconfirmed write.
     *
     * @param unconfirmedWrite the failure that left the session in doubt
     */
    public SessionInDoubtException(String message, WriteTimeoutException unconfirmedWrite) {
        super(message, unconfirmedWrite);
    }

    /** The failure that left the session in doubt. */
    public WriteTimeoutException unconfirmedWrite() {
        return (WriteTimeoutException) getCause();
    }
}
