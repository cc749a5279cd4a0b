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
    private final int coordinator;
    private final long[] commitClock;
    private final long commitTime;

    /**
     * An exception for one write, without the coordinator or commit clock.
     *
     * @param transactionId the write's id, as {@link WriteResult#transactionId()} would have reported it
     */
    public WriteTimeoutException(String message, WriteOutcome outcome, String transactionId, Throwable cause) {
        this(message, outcome, transactionId, -1, null, 0, cause);
    }

    /**
     * An exception for one write.
     *
     * @param transactionId the write's id, as {@link WriteResult#transactionId()} would have reported it
     * @param coordinator   the index of the write's coordinator partition, or -1 if unknown
     * @param commitClock   the write's commit clock as a participant or the coordinator reported it, or null
     *                      (always null unless the outcome is {@link WriteOutcome#COMMITTED_UNCONFIRMED})
     * @param commitTime    the write's commit time reported with the clock, or 0
     */
    public WriteTimeoutException(String message, WriteOutcome outcome, String transactionId, int coordinator,
                                 long[] commitClock, long commitTime, Throwable cause) {
        super(message, cause);
        this.outcome = outcome;
        this.transactionId = transactionId;
        this.coordinator = coordinator;
        this.commitClock = commitClock == null ? null : commitClock.clone();
        this.commitTime = commitTime;
    }

    /** What the coordinator said of the write, or {@link WriteOutcome#UNKNOWN} if it could not be asked. */
    public WriteOutcome outcome() {
        return outcome;
    }

    /** The write's transaction id, for logs and for matching it with the nodes' records. */
    public String transactionId() {
        return transactionId;
    }

    /**
     * The index of the partition that coordinates the write, the one that decides its outcome and answers
     * outcome queries; -1 if unknown. For tools that must learn an {@link WriteOutcome#UNKNOWN} outcome later.
     */
    public int coordinator() {
        return coordinator;
    }

    /**
     * The write's commit clock when the outcome is {@link WriteOutcome#COMMITTED_UNCONFIRMED}, as a participant that
     * confirmed or the coordinator reported it (see {@link WriteResult#commitClock()}); {@code null} otherwise, and
     * always with another protocol than FastCCS.
     *
     * @return a copy of the clock, or null
     */
    public long[] commitClock() {
        return commitClock == null ? null : commitClock.clone();
    }

    /** The write's commit time, reported with {@link #commitClock()} (see {@link WriteResult#commitTime()}); 0 otherwise. */
    public long commitTime() {
        return commitTime;
    }
}
