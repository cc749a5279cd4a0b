package io.fastccs.client;

/**
 * What a {@link FastCcsClient} has done since it was built, for all its sessions together. A live view: each call
 * reads current values.
 */
public interface ClientMetrics {
    /** Read-only transactions. */
    OperationMetrics reads();

    /** Write-only transactions. */
    OperationMetrics writes();

    /**
     * Read rounds sent across all successful reads ({@link ReadResult#rounds()} summed): with FastCCS, one per read plus
     * one for each read that needed a second; with Wren mostly two per read (its start round counts); with Eiger up to three.
     */
    long readRounds();

    /** Successful reads that took more than one round. */
    long twoRoundReads();

    /** {@link #twoRoundReads()} as a share of successful reads, between 0 and 1 (0 when there were none). */
    double secondRoundShare();

    /** Reads restarted from round one because their second round came after the snapshot expired. */
    long snapshotRestarts();

    /** Writes reported with {@link WriteOutcome#COMMITTED_UNCONFIRMED} or {@link WriteOutcome#UNKNOWN}. */
    long unconfirmedWrites();

    /** Connections (re)opened to nodes after the first connection to each. */
    long reconnects();

    /** Times the client asked a node for the ring after the first. */
    long ringRefreshes();

    /**
     * Requests sent again because their partition could not take them (no connection, connection lost, a
     * replicated partition's failover, overload), checks repeated while a write waited for its participants'
     * connections, and writes run again ({@link #writesRunAgain()}).
     */
    long retries();

    /**
     * Times a write-only transaction the nodes aborted with no effect (a participant did not vote in time, as while a
     * replicated partition's leader moves) was run again, as a new transaction, within its request timeout.
     */
    long writesRunAgain();

    /**
     * Keys offered from the client cache ({@link FastCcsClientBuilder#withMaxStaleness}) to reads answered wholly or
     * partly from it.
     */
    long cacheHits();

    /** Reads answered wholly from the client cache, without a request ({@link ReadResult#fromCache()}). */
    long zeroRoundReads();

    /**
     * Reads that served some keys from the client cache and read the others from their partitions (a served key may
     * still be read again in round two, when a fetched version depends on a newer write of its partition).
     */
    long partialCacheHits();

    /** Cache entries removed to keep the cache within its bounds (entries and bytes), the least read first. */
    long cacheEvictions();

    /**
     * How long before being served the served cache entries were fetched: a bound on how far behind the newest
     * acknowledged write a value served from the cache was, within the staleness bound.
     */
    LatencySnapshot cacheServedAge();

    /** Partitions the client currently has an open connection to. */
    int connectedPartitions();
}
