package io.fastccs.server.node;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.host.DurablePartitionStore;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The in-memory store as a {@link DurablePartitionStore} whose writes are durable at once; for in-process nodes. */
public final class InMemoryDurableStore implements DurablePartitionStore {
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    private final InMemoryPartitionStore store;

    public InMemoryDurableStore(InMemoryPartitionStore store) {
        this.store = store;
    }

    public InMemoryPartitionStore delegate() {
        return store;
    }

    @Override public CompletableFuture<Void> whenDurable() { return DONE; }
    @Override public void close() { }
    @Override public void savePrepared(TxnRecord record) { store.savePrepared(record); }
    @Override public void saveOutcome(TxnId txnId, long sequence, Outcome outcome, VectorClock commitClock, long commitTime) {
        store.saveOutcome(txnId, sequence, outcome, commitClock, commitTime);
    }
    @Override public void saveSnapshot(VectorClock snapshot, int self, long recordsUpTo) { store.saveSnapshot(snapshot, self, recordsUpTo); }
    @Override public void saveDecision(Decision decision) { store.saveDecision(decision); }
    @Override public void forgetDecision(TxnId txnId) { store.forgetDecision(txnId); }
    @Override public List<Version> versions(Key key) { return store.versions(key); }
    @Override public void putVersion(Key key, Version version) { store.putVersion(key, version); }
    @Override public void removeVersionsOlderThan(Key key, Version newestKept) { store.removeVersionsOlderThan(key, newestKept); }
    @Override public Recovered recover() { return store.recover(); }
}
