package io.fastccs.protocol.partition;

/**
 * Counters of one partition. Written only by the partition's thread; other threads may read slightly stale
 * values, which is fine for monitoring.
 */
public final class PartitionMetrics {
    long firstRoundReads;
    long secondRoundReads;
    long keysRead;
    long writesPrepared;
    long writesRefused;
    long runningFoldReads;
    long writesCommitted;
    long writesAborted;
    long coordinatorTimeouts;
    long presumedAborts;
    long checkCommitsSent;
    long stabilizationsSent;
    /** Requests refused because their clock's stable base was unknown here. */
    long baseUnknown;
    /** Bases sent down the tree we could not take (one missed before them); we wait for a full one. */
    long basesMissed;
    /** Commit decisions relative to a base we did not know, dropped (the outcome is asked for later). */
    long commitsUnexpanded;
    long clockAhead;
    long versionsCollected;
    long snapshotsExpired;
    long requestsRefused;
    long recoveries;
    long resolutions;
    long fences;

    public long firstRoundReads() { return firstRoundReads; }
    public long secondRoundReads() { return secondRoundReads; }
    public long keysRead() { return keysRead; }
    public long writesPrepared() { return writesPrepared; }
    /** Writes refused before preparing (an operation of the wrong type for its key). */
    public long writesRefused() { return writesRefused; }
    /** Typed-key reads that started from a running fold instead of folding every operation (RunningFolds). */
    public long runningFoldReads() { return runningFoldReads; }
    public long writesCommitted() { return writesCommitted; }
    public long writesAborted() { return writesAborted; }
    /** Transactions this partition coordinated and aborted because a vote did not arrive in time. */
    public long coordinatorTimeouts() { return coordinatorTimeouts; }
    /** Outcome questions about transactions this coordinator never saw, answered with abort. */
    public long presumedAborts() { return presumedAborts; }
    public long checkCommitsSent() { return checkCommitsSent; }
    public long stabilizationsSent() { return stabilizationsSent; }
    public long baseUnknown() { return baseUnknown; }
    public long basesMissed() { return basesMissed; }
    public long commitsUnexpanded() { return commitsUnexpanded; }
    /**
     * Client clocks whose entry for this partition was ahead of what it has settled. An honest client never
     * sends one (it only learns settled values), so a non-zero count means a buggy or hostile client.
     */
    public long clockAhead() { return clockAhead; }
    public long versionsCollected() { return versionsCollected; }
    public long snapshotsExpired() { return snapshotsExpired; }
    public long requestsRefused() { return requestsRefused; }
    public long recoveries() { return recoveries; }
    /** Transactions this coordinator resolved from the participants' records after it lost its votes. */
    public long resolutions() { return resolutions; }
    /** Transactions this partition fenced (refused for good) when a resolving coordinator asked about them. */
    public long fences() { return fences; }

    @Override
    public String toString() {
        return "reads1=" + firstRoundReads + " reads2=" + secondRoundReads + " prepared=" + writesPrepared
                + " committed=" + writesCommitted + " aborted=" + writesAborted + " coordTimeouts=" + coordinatorTimeouts
                + " presumedAborts=" + presumedAborts + " checks=" + checkCommitsSent + " clockAhead=" + clockAhead
                + " gc=" + versionsCollected + " expired=" + snapshotsExpired + " refused=" + requestsRefused
                + " baseUnknown=" + baseUnknown + " basesMissed=" + basesMissed + " commitsUnexpanded=" + commitsUnexpanded
                + " resolutions=" + resolutions + " fences=" + fences;
    }
}
