package io.fastccs.server.storage;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.Keyspace;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * Rough throughput of the store on this machine, logged (target/test-logs). Not a test of correctness and slow,
 * so it runs only with {@code -Dfastccs.storage.benchmark=true}.
 */
@EnabledIfSystemProperty(named = "fastccs.storage.benchmark", matches = "true")
class CassandraPartitionStoreThroughputTest {
    private static final Logger logger = LoggerFactory.getLogger(CassandraPartitionStoreThroughputTest.class);
    private static final int KEYS = 20_000;
    private static final byte[] VALUE = new byte[100];

    @BeforeAll
    static void startNode() throws Exception {
        EmbeddedCassandra.startFresh();
    }

    @Test
    void measure() throws Exception {
        int self = 0;
        for (int threads : new int[]{1, 8, 32, 64, 128, 8, 32}) { // 8 and 32 again: the first rounds warm up the JIT
            try (CassandraPartitionStore store = CassandraPartitionStore.open(
                    CassandraPartitionStore.Settings.of(self++, 64, KEYS).withWriterThreads(threads))) {
                int count = threads == 1 ? KEYS / 10 : KEYS;
                long start = System.nanoTime();
                for (int i = 0; i < count; i++)
                    store.putVersion(key(threads, i), new Version(i + 1, VectorClock.of(i + 1, 0, 0), 0, VALUE));
                long issued = System.nanoTime();
                store.whenDurable().get(5, TimeUnit.MINUTES);
                long durable = System.nanoTime();
                logger.info("puts, {} writer threads: {} durable/s ({} issued/s on the calling thread)",
                        threads, rate(count, durable - start), rate(count, issued - start));
            }
        }

        try (CassandraPartitionStore store = CassandraPartitionStore.open(CassandraPartitionStore.Settings.of(self++, 64, KEYS))) {
            for (int i = 0; i < KEYS; i++) store.versions(key(8, i)); // load every key
            for (int round = 0; round < 3; round++) {
                int reads = 2_000_000;
                long start = System.nanoTime();
                long found = 0;
                for (int i = 0; i < reads; i++) found += store.versions(key(8, i % KEYS)).size();
                logger.info("cached reads: {}/s ({} versions)", rate(reads, System.nanoTime() - start), found);
            }
        }

        measureUncached(self++, "memtable");
        ColumnFamilyStore versions = Keyspace.open(StorageSchema.KEYSPACE).getColumnFamilyStore(StorageSchema.VERSIONS);
        versions.forceBlockingFlush(ColumnFamilyStore.FlushReason.USER_FORCED);
        measureUncached(self++, "sstable");
        measureUncached(self, "sstable");
    }

    private static void measureUncached(int self, String source) {
        try (CassandraPartitionStore store = CassandraPartitionStore.open(CassandraPartitionStore.Settings.of(self, 64, 1))) {
            long start = System.nanoTime();
            long found = 0;
            for (int i = 0; i < KEYS; i++) found += store.versions(key(8, i)).size();
            logger.info("uncached reads from {}: {}/s ({} versions)", source, rate(KEYS, System.nanoTime() - start), found);
        }
    }

    private static Key key(int round, int i) {
        return Key.of("bench-" + round + "-" + i);
    }

    private static long rate(long count, long nanos) {
        return count * 1_000_000_000L / Math.max(1, nanos);
    }
}
