package io.fastccs.sim;

import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.protocol.host.DurablePartitionStore;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A simulated partition process's store as its {@link io.fastccs.protocol.host.PartitionHost} sees it. Which keys a
 * request finds in memory is the simulator's choice, made as the request arrives ({@link #arriving}); a load takes the
 * delay drawn then and rejoins the host in a step, if the process still runs. Subclasses say where writes go and when
 * they are durable: here at once, into the store that survives the process.
 */
class SimStore implements DurablePartitionStore {
    static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final PartitionStore view;
    private final EventQueue events;
    /** Whether the process this store was opened for still runs (a load that ends after it died rejoins nobody). */
    private final BooleanSupplier alive;
    private Executor rejoin;
    /** How long the arriving request's keys take to load, or -1: they are in memory. */
    private long missDelay = -1;

    SimStore(PartitionStore view, EventQueue events, BooleanSupplier alive) {
        this.view = view;
        this.events = events;
        this.alive = alive;
    }

    /** Runs {@code arrival}, the host's handling of a request, with its keys missing for {@code delayMicros} (-1: none). */
    void arriving(long delayMicros, Runnable arrival) {
        missDelay = delayMicros;
        try {
            arrival.run();
        } finally {
            missDelay = -1;
        }
    }

    /** One write: applied to the view at once. */
    void write(Consumer<PartitionStore> w) {
        w.accept(view);
    }

    /** One write that messages rest on (PartitionStore, "What a message waits for"): a prepare or an abort. */
    void writeRequired(Consumer<PartitionStore> w) {
        write(w);
    }

    @Override
    public void rejoinOn(Executor protocolThread) {
        this.rejoin = protocolThread;
    }

    @Override
    public List<Key> notInMemory(Collection<Key> keys) {
        return missDelay < 0 ? List.of() : List.copyOf(keys);
    }

    @Override
    public CompletableFuture<Void> load(Collection<Key> keys) {
        CompletableFuture<Void> loaded = new CompletableFuture<>();
        events.schedule(missDelay, () -> {
            if (alive.getAsBoolean()) rejoin.execute(() -> loaded.complete(null));
        });
        return loaded;
    }

    @Override
    public CompletableFuture<Void> whenDurable() {
        return DONE;
    }

    @Override
    public void close() {
    }

    @Override
    public void savePrepared(TxnRecord record) {
        writeRequired(s -> s.savePrepared(record));
    }

    @Override
    public void saveOutcome(TxnId txnId, long sequence, Outcome outcome, VectorClock commitClock, long commitTime) {
        write(s -> s.saveOutcome(txnId, sequence, outcome, commitClock, commitTime));
    }

    @Override
    public void saveSnapshot(VectorClock snapshot, int self, long recordsUpTo) {
        write(s -> s.saveSnapshot(snapshot, self, recordsUpTo));
    }

    @Override
    public void saveDecision(Decision decision) {
        if (decision.outcome() == Outcome.ABORTED) writeRequired(s -> s.saveDecision(decision));
        else write(s -> s.saveDecision(decision));
    }

    @Override
    public void forgetDecision(TxnId txnId) {
        write(s -> s.forgetDecision(txnId));
    }

    @Override
    public List<Version> versions(Key key) {
        return view.versions(key);
    }

    @Override
    public void putVersion(Key key, Version version) {
        write(s -> s.putVersion(key, version));
    }

    @Override
    public void removeVersionsOlderThan(Key key, Version newestKept) {
        write(s -> s.removeVersionsOlderThan(key, newestKept));
    }

    @Override
    public void replaceVersions(Key key, List<Version> folded, Version base) {
        write(s -> s.replaceVersions(key, folded, base));
    }

    @Override
    public Recovered recover() {
        return view.recover();
    }

    @Override
    public Collection<Key> keysWithOlderVersions() {
        return view.keysWithOlderVersions();
    }
}
