package io.fastccs.client;

/** What is known of a write that was not confirmed in time; see {@link WriteTimeoutException}. */
public enum WriteOutcome {
    /**
     * The transaction's coordinator decided to commit, but not every participant confirmed it has settled the
     * write. It will become visible to everyone, but the session cannot yet rely on seeing it.
     */
    COMMITTED_UNCONFIRMED,
    /** The transaction aborted: none of its writes took or will ever take effect. It is safe to retry. */
    ABORTED,
    /**
     * The client could not learn the outcome (the coordinator was unreachable or still undecided). The write may
     * or may not take effect; retrying may apply it twice.
     */
    UNKNOWN
}
