package io.fastccs.server.cassandra;

/**
 * FastCCS metrics of one node, as JMX attributes of {@code io.fastccs:type=FastCcs} (read with jconsole, or any
 * JMX client on the node's JMX port). {@code State} and {@code StateReason} say whether FastCCS serves; they are
 * there from the node's start on (see {@link io.fastccs.server.health.PluginHealth}).
 */
public interface FastCcsMBean extends io.fastccs.server.health.PluginHealthMBean {
    int getPartition();
    int getPartitions();
    long getLastSequence();
    long getSettledThrough();
    int getUnsettledTransactions();
    int getPendingTransactions();
    long getFirstRoundReads();
    long getSecondRoundReads();
    long getWritesPrepared();
    long getWritesCommitted();
    long getWritesAborted();
    long getCoordinatorTimeouts();
    long getPresumedAborts();
    long getClockAhead();
    long getVersionsCollected();
    long getSnapshotsExpired();
    long getRequestsRefused();
    long getInternalErrors();
    int getCachedKeys();
    long getCacheHits();
    long getCacheMisses();
    /** Keys read into the cache off the protocol thread, before the reads that wanted them. */
    long getCacheLoads();
    /** Cache misses read on the protocol thread itself (should stay near 0; see docs/design/cache-misses.md). */
    long getSynchronousCacheMisses();
    int getPendingStoreWrites();
    /** Rows of fastccs.versions on this node: a full local scan, so call it sparingly. */
    long getVersionRows();
}
