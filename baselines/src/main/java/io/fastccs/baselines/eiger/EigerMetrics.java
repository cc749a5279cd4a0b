package io.fastccs.baselines.eiger;

/** Counters of one Eiger partition, written only by its thread. */
public final class EigerMetrics {
    long firstRoundReads;
    long secondRoundReads;
    /** Second-round reads held for a CheckTxn answer: Eiger's "third round". */
    long thirdRounds;
    long keysRead;
    long writesPrepared;
    long writesCommitted;
    long writesAborted;
    long coordinatorTimeouts;
    long presumedAborts;
    long checkTxnsSent;
    long versionsCollected;
    long snapshotsExpired;
    long requestsRefused;

    public long firstRoundReads() { return firstRoundReads; }
    public long secondRoundReads() { return secondRoundReads; }
    public long thirdRounds() { return thirdRounds; }
    public long keysRead() { return keysRead; }
    public long writesPrepared() { return writesPrepared; }
    public long writesCommitted() { return writesCommitted; }
    public long writesAborted() { return writesAborted; }
    public long coordinatorTimeouts() { return coordinatorTimeouts; }
    public long presumedAborts() { return presumedAborts; }
    public long checkTxnsSent() { return checkTxnsSent; }
    public long versionsCollected() { return versionsCollected; }
    public long snapshotsExpired() { return snapshotsExpired; }
    public long requestsRefused() { return requestsRefused; }

    @Override
    public String toString() {
        return "reads1=" + firstRoundReads + " reads2=" + secondRoundReads + " reads3=" + thirdRounds + " prepared=" + writesPrepared
                + " committed=" + writesCommitted + " aborted=" + writesAborted + " coordTimeouts=" + coordinatorTimeouts
                + " presumedAborts=" + presumedAborts + " checks=" + checkTxnsSent + " gc=" + versionsCollected
                + " expired=" + snapshotsExpired + " refused=" + requestsRefused;
    }
}
