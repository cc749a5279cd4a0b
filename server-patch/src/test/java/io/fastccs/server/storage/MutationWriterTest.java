package io.fastccs.server.storage;

import org.apache.cassandra.cql3.QueryProcessor;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.db.Keyspace;
import org.apache.cassandra.db.Mutation;
import org.apache.cassandra.db.partitions.PartitionUpdate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link MutationWriter} on a real Cassandra node in this JVM, in both of its ways of applying. */
class MutationWriterTest {
    private static final int STEPS = 200;
    private static final int MUTATIONS_PER_STEP = 3;

    @BeforeAll
    static void startNode() throws Exception {
        EmbeddedCassandra.startFresh();
        LocalKeyspace.ensureRegistered();
    }

    /** Writer threads that count the tasks they were given and how many ran at once. */
    private static final class CountingThreads extends ThreadPoolExecutor {
        final AtomicInteger tasks = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();

        CountingThreads() {
            super(8, 8, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
        }

        @Override
        public void execute(Runnable command) {
            tasks.incrementAndGet();
            super.execute(command);
        }

        @Override
        protected void beforeExecute(Thread t, Runnable r) {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
        }

        @Override
        protected void afterExecute(Runnable r, Throwable t) {
            running.decrementAndGet();
        }
    }

    private static Mutation row(String key, long sequence) {
        ColumnFamilyStore table = Keyspace.open(StorageSchema.LOCAL_KEYSPACE).getColumnFamilyStore(StorageSchema.COMPARED_WRITES);
        PartitionUpdate.SimpleBuilder update = PartitionUpdate.simpleBuilder(table.metadata(),
                ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8))).timestamp(sequence);
        update.row("test").add("txn_client", 1L).add("txn_sequence", sequence).add("value", ByteBuffer.allocate(8).putLong(0, sequence));
        return new Mutation(update.build());
    }

    private static long storedSequence(String key) {
        var rows = QueryProcessor.executeInternal("SELECT txn_sequence FROM " + StorageSchema.LOCAL_KEYSPACE + "."
                + StorageSchema.COMPARED_WRITES + " WHERE key = ?", ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8)));
        return rows.isEmpty() ? -1 : rows.one().getLong("txn_sequence");
    }

    @ParameterizedTest(name = "apply waits for the sync: {0}")
    @ValueSource(booleans = {true, false})
    void everyStepsWritesAreAppliedAndCompleted(boolean applyWaitsForSync) throws Exception {
        CountingThreads threads = new CountingThreads();
        PendingWrites pending = new PendingWrites();
        MutationWriter writer = new MutationWriter(threads, pending, t -> { throw new AssertionError(t); }, applyWaitsForSync);
        String prefix = UUID.randomUUID() + "-";
        long sequence = 0;
        for (int step = 0; step < STEPS; step++) {
            for (int m = 0; m < MUTATIONS_PER_STEP; m++)
                writer.add(row(prefix + m, ++sequence), pending.issue(null, null));
            writer.flush();
        }
        CompletableFuture<Void> all = pending.whenApplied();
        all.get(60, TimeUnit.SECONDS);
        assertThat(pending.unappliedCount()).isZero();
        for (int m = 0; m < MUTATIONS_PER_STEP; m++) // the newest row of each key won, whatever order they went in
            assertThat(storedSequence(prefix + m)).isEqualTo((long) (STEPS - 1) * MUTATIONS_PER_STEP + m + 1);
        if (applyWaitsForSync) {
            assertThat(threads.tasks.get()).isEqualTo(STEPS * MUTATIONS_PER_STEP); // a thread per mutation, to share syncs
        } else {
            assertThat(threads.mostAtOnce.get()).as("writers at once").isEqualTo(1);
            assertThat(threads.tasks.get()).as("wake-ups").isLessThanOrEqualTo(STEPS);
        }
        threads.shutdown();
    }

    @Test
    void writesHandedToStoppedThreadsFailAndSaySo() {
        CountingThreads threads = new CountingThreads();
        threads.shutdown();
        for (boolean applyWaitsForSync : new boolean[]{true, false}) {
            PendingWrites pending = new PendingWrites();
            MutationWriter writer = new MutationWriter(threads, pending, t -> { }, applyWaitsForSync);
            writer.add(row("stopped", 1), pending.issue(null, null));
            writer.add(row("stopped", 2), pending.issue(null, null));
            CompletableFuture<Void> applied = pending.whenApplied();
            assertThatThrownBy(writer::flush).isInstanceOf(RejectedExecutionException.class);
            assertThat(pending.unappliedCount()).as("no write left hanging").isZero();
            assertThat(applied).isCompletedExceptionally();
        }
    }
}
