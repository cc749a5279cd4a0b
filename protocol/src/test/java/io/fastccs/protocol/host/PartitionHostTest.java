package io.fastccs.protocol.host;

import io.fastccs.protocol.spi.FastCcsProtocol;
import io.fastccs.core.PartitionConfig;
import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.core.impl.HashTopology;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The host's rules on one partition whose writes become durable only when the test says so. */
class PartitionHostTest {
    private final ArrayDeque<Runnable> thread = new ArrayDeque<>();
    private final SlowStore store = new SlowStore();
    private final List<ClientResponse> replies = new ArrayList<>();
    private PartitionHost host;
    private long requestIds;

    @Test
    void nothingLeavesBeforeTheWritesMadeBeforeItAreDurable() {
        start(null);
        write("a");
        assertThat(store.pending).as("the write's records").isTrue();
        assertThat(replies).as("the reply waits for the records it rests on").isEmpty();
        settle();
        assertThat(replies).singleElement().isInstanceOf(WriteReply.class);
    }

    @Test
    void aReadWithinTheDurablePartOfTheSettledPrefixLeavesWhileLaterWritesAreNotDurable() {
        start(null);
        write("a");
        settle();
        write("b"); // prepared, not durable
        replies.clear();
        read();
        assertThat(replies).singleElement().isInstanceOf(ReadReply.class);
    }

    @Test
    void aClientReplyOfAReplicatedPartitionWaitsForALeaseCheckStartedAfterIt() {
        List<CompletableFuture<Void>> checks = new ArrayList<>();
        start(() -> {
            CompletableFuture<Void> check = new CompletableFuture<>();
            checks.add(check);
            return check;
        });
        read();
        assertThat(replies).as("held for the lease").isEmpty();
        assertThat(checks).hasSize(1);
        checks.get(0).complete(null);
        run();
        assertThat(replies).singleElement().isInstanceOf(ReadReply.class);
    }

    private void start(Supplier<CompletableFuture<Void>> lease) {
        host = new PartitionHost(new HostEnvironment() {
            @Override
            public void execute(Runnable task) {
                thread.add(task);
            }

            @Override
            public void stopped(Throwable cause) {
                throw new AssertionError("the host stopped", cause);
            }
        }, store, lease, true);
        host.start(new FastCcsProtocol(), 0, PartitionConfig.defaults(), new HashTopology(1), (to, message) -> host.onPeerMessage(0, message),
                () -> 1_000);
        run();
    }

    private void write(String value) {
        WriteRequest w = new WriteRequest(++requestIds, new TxnId(7, requestIds), 0, List.of(0),
                List.of(new KeyValue(Key.of("k"), value.getBytes(StandardCharsets.UTF_8))), VectorClock.zero(1), 0);
        host.onClientRequest(replies::add, w);
        run();
    }

    private void read() {
        host.onClientRequest(replies::add, new FirstRoundRead(++requestIds, List.of(Key.of("k")), VectorClock.zero(1)));
        run();
    }

    /** Until the write has its reply, every write made so far becomes durable. */
    private void settle() {
        for (int i = 0; i < 10 && replies.stream().noneMatch(r -> r instanceof WriteReply); i++) {
            store.persist();
            run();
        }
    }

    private void run() {
        while (!thread.isEmpty()) thread.poll().run();
    }

    /** The in-memory store, each write durable once {@link #persist} is called. */
    private static final class SlowStore implements DurablePartitionStore {
        private final InMemoryPartitionStore store = new InMemoryPartitionStore();
        private final List<CompletableFuture<Void>> marks = new ArrayList<>();
        private boolean pending;

        void persist() {
            pending = false;
            List<CompletableFuture<Void>> now = new ArrayList<>(marks);
            marks.clear();
            now.forEach(m -> m.complete(null));
        }

        private PartitionStore written() {
            pending = true;
            return store;
        }

        @Override
        public CompletableFuture<Void> whenDurable() {
            if (!pending) return CompletableFuture.completedFuture(null);
            CompletableFuture<Void> mark = new CompletableFuture<>();
            marks.add(mark);
            return mark;
        }

        @Override public void close() { }
        @Override public void savePrepared(TxnRecord record) { written().savePrepared(record); }
        @Override public void saveOutcome(TxnId txnId, long sequence, io.fastccs.core.messages.Outcome outcome,
                                          VectorClock commitClock, long commitTime) {
            written().saveOutcome(txnId, sequence, outcome, commitClock, commitTime);
        }
        @Override public void saveSnapshot(VectorClock snapshot, int self, long recordsUpTo) { written().saveSnapshot(snapshot, self, recordsUpTo); }
        @Override public void saveDecision(Decision decision) { written().saveDecision(decision); }
        @Override public void forgetDecision(TxnId txnId) { written().forgetDecision(txnId); }
        @Override public List<Version> versions(Key key) { return store.versions(key); }
        @Override public void putVersion(Key key, Version version) { written().putVersion(key, version); }
        @Override public void removeVersionsOlderThan(Key key, Version newestKept) { written().removeVersionsOlderThan(key, newestKept); }
        @Override public Recovered recover() { return store.recover(); }
    }
}
