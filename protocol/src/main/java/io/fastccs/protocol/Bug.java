package io.fastccs.protocol;

/**
 * Deliberately broken protocol variants, used only to prove that the burn test and the history checker catch
 * real mistakes. They can be switched on only through package-private methods, from test code in this package.
 */
public enum Bug {
    /** The client returns round-one values even when the pairwise check fails. */
    SKIP_SECOND_ROUND,
    /** Reads return pending (not yet committed) versions. */
    EXPOSE_PENDING,
    /** A participant answers a committed write before every smaller sequence number on it is settled. */
    EARLY_WRITE_REPLY,
    /** Partitions do not merge the client's clock into their snapshot. */
    IGNORE_CLIENT_CLOCK,
    /**
     * The thesis read literally: a key's newest version is the one with the highest sequence number, so two
     * concurrent transactions that overlap on two partitions can each win on one of them.
     */
    NEWEST_BY_SEQUENCE,
    /**
     * A participant proposes a commit time from its own clock only, not above the client's dependency time: with clocks
     * that disagree, a write can be ordered before a write its session had read, and readers that see both return the
     * older one.
     */
    COMMIT_TIME_IGNORES_DEPENDENCY,
    /**
     * A partition's read answer does not list the versions it left out within its own entry, yet says the list is
     * complete: the client then skips a round two that would have returned one of them.
     */
    HIDDEN_VERSIONS_UNREPORTED,
    /**
     * The client takes the newest waiting version a partition listed without checking that the merged clock covers its
     * commit clock: it can return a version whose dependencies are not in its snapshot.
     */
    WAITING_VERSION_UNCHECKED,
    /**
     * A round one held back by its host is answered at its arrival snapshot however late: GC may have dropped, after
     * the version retention, the versions that snapshot would return.
     */
    PIN_BEYOND_RETENTION,
    /**
     * Reads show the whole settled prefix although the host tracks its durable part and sends read answers without
     * waiting for writes: an answer can show what a crash or a failover then loses.
     */
    READ_BEYOND_DURABLE,
    /**
     * Reads show only the durable part of the settled prefix even when the client has already seen more of this
     * partition (its own write's reply, or a version read elsewhere): the read then misses what the client saw.
     */
    READ_BELOW_CLIENT_CLOCK,
    /**
     * In tree stabilization a partition reports its last assigned sequence number instead of its settled prefix: other
     * partitions then show a transaction's versions while one of its participants has not settled it.
     */
    TREE_REPORTS_UNSETTLED,
    /**
     * The client moves its clock to a newer stable base without raising it to that base: partitions then expand it to
     * more than the client holds, and their answers, differences from that larger clock applied to the client's own,
     * understate what it read.
     */
    REBASE_WITHOUT_LIFT,
    /**
     * A typed key's read folds every operation whose sequence number is within the snapshot's own entry, a prefix of
     * this partition's sequence order, instead of those whose commit clock is within the snapshot: it counts operations
     * whose other participants the snapshot does not cover yet (fractured reads) and skips none it should.
     */
    FOLD_IN_SEQUENCE_ORDER,
    /**
     * Garbage collection writes the base that folds a typed key's old operations but leaves those operations in place:
     * every later read applies them twice (a counter counts them double).
     */
    TYPED_OP_APPLIED_TWICE,
    /**
     * A participant sends its vote without waiting for its prepare to be durable: a failover can lose the prepare after
     * the coordinator committed on the vote, and a coordinator that resolves the transaction again then aborts it.
     */
    VOTE_BEFORE_PREPARE_DURABLE,
    /**
     * The coordinator tells an abort before the abort's decision is durable: after a crash it resolves the transaction
     * from the participants' prepares, may find them all and commit what participants already aborted.
     */
    ABORT_TOLD_BEFORE_DURABLE,
    /**
     * A participant asked about a transaction it holds nothing of refuses it without writing a fence first: the
     * write request can still arrive and be prepared, and a coordinator's former leader that counts that vote commits a
     * transaction its new leader aborted.
     */
    REFUSE_WITHOUT_FENCE,
    /**
     * Stabilization reports the whole settled prefix, not its durable part: a coordinator forgets a commit decision
     * while a participant's outcome is not durable yet, and a participant that loses it in a failover and asks is told
     * the transaction aborted.
     */
    FORGET_BEFORE_OUTCOMES_DURABLE
}
