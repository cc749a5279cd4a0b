package io.fastccs.server.cassandra;

import io.fastccs.server.config.FastCcsSettings;
import io.fastccs.server.storage.CassandraPartitionStore;
import io.fastccs.protocol.host.DurablePartitionStore;
import io.fastccs.server.storage.LocalKeyspace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opens the partition's store in this node's storage engine. */
final class CassandraStores {
    private static final Logger logger = LoggerFactory.getLogger(CassandraStores.class);

    private CassandraStores() {
    }

    static DurablePartitionStore open(CassandraRing ring, FastCcsSettings settings, java.util.function.LongSupplier clockMicros) {
        if (!LocalKeyspace.registeredBeforeReplay())
            logger.warn("FastCCS: the local keyspace was not registered before commit log replay (was the agent's premain "
                    + "skipped?); records not yet flushed before a crash would be lost");
        return CassandraPartitionStore.open(CassandraPartitionStore.Settings.of(ring.self(), ring.partitions(),
                settings.versionCacheKeys()).withLoaderThreads(settings.cacheLoaderThreads()).withClock(clockMicros));
    }
}
