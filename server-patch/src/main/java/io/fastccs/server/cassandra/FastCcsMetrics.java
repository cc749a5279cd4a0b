package io.fastccs.server.cassandra;

import io.fastccs.protocol.partition.PartitionMetrics;
import io.fastccs.server.node.FastCcsNode;
import io.fastccs.server.storage.CassandraPartitionStore;


/** The {@link FastCcsMBean} of the running node. */
final class FastCcsMetrics implements FastCcsMBean {
    static final String NAME = io.fastccs.server.health.PluginHealth.MBEAN_NAME;

    private final FastCcsNode node;
    private final CassandraPartitionStore store;

    private FastCcsMetrics(FastCcsNode node, CassandraPartitionStore store) {
        this.node = node;
        this.store = store;
    }

    static void register(FastCcsNode node, CassandraPartitionStore store) throws Exception {
        JmxBeans.replace(NAME, new javax.management.StandardMBean(new FastCcsMetrics(node, store), FastCcsMBean.class));
    }

    private PartitionMetrics m() {
        return node.partitionMetrics();
    }

    @Override public String getState() { return io.fastccs.server.health.PluginHealth.get().getState(); }
    @Override public String getStateReason() { return io.fastccs.server.health.PluginHealth.get().getStateReason(); }
    @Override public int getPartition() { return node.self(); }
    @Override public int getPartitions() { return node.ring().partitions(); }
    @Override public long getLastSequence() { return node.inspect(p -> p.lastSequence()); }
    @Override public long getSettledThrough() { return node.inspect(p -> p.snapshot().get(p.self())); }
    @Override public int getUnsettledTransactions() { return node.inspect(p -> p.unsettledCount()); }
    @Override public int getPendingTransactions() { return node.inspect(p -> p.pendingCount()); }
    @Override public long getFirstRoundReads() { return m().firstRoundReads(); }
    @Override public long getSecondRoundReads() { return m().secondRoundReads(); }
    @Override public long getWritesPrepared() { return m().writesPrepared(); }
    @Override public long getWritesCommitted() { return m().writesCommitted(); }
    @Override public long getWritesAborted() { return m().writesAborted(); }
    @Override public long getCoordinatorTimeouts() { return m().coordinatorTimeouts(); }
    @Override public long getPresumedAborts() { return m().presumedAborts(); }
    @Override public long getClockAhead() { return m().clockAhead(); }
    @Override public long getVersionsCollected() { return m().versionsCollected(); }
    @Override public long getSnapshotsExpired() { return m().snapshotsExpired(); }
    @Override public long getRequestsRefused() { return m().requestsRefused(); }
    @Override public long getInternalErrors() { return node.internalErrors(); }
    @Override public int getCachedKeys() { return store.stats().cachedKeys(); }
    @Override public long getCacheHits() { return store.stats().cacheHits(); }
    @Override public long getCacheMisses() { return store.stats().cacheMisses(); }
    @Override public long getCacheLoads() { return store.stats().keysLoaded(); }
    @Override public long getSynchronousCacheMisses() { return store.stats().synchronousMisses(); }
    @Override public int getPendingStoreWrites() { return store.stats().pendingWrites(); }
    @Override public long getVersionRows() { return CassandraPartitionStore.countVersionRows(); }
}
