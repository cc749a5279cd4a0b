package io.fastccs.sim;

import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.protocol.messages.Outcome;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/**
 * A replicated partition's store as its leader sees it. A write applies at once to the leader's view (its own state
 * machine sees its own steps) and is recorded in the open step; the step's writes reach the group's committed store
 * only when the step commits. Each leader has a view of its own; a new leader's view starts from the committed store, so
what never committed is lost.
 */
final class GroupStore implements PartitionStore {
    private final InMemoryPartitionStore committed;
    private final InMemoryPartitionStore leaderView;
    private List<Consumer<PartitionStore>> openStep = new ArrayList<>();

    /** A leader's view, starting from what the group has committed. */
    GroupStore(InMemoryPartitionStore committed) {
        this.committed = committed;
        this.leaderView = committed.copy();
    }

    /** The writes of the step that just ended (possibly none); a new step opens. */
    List<Consumer<PartitionStore>> closeStep() {
        List<Consumer<PartitionStore>> writes = openStep;
        openStep = new ArrayList<>();
        return writes;
    }

    /** A majority holds these writes: every replica applies them. */
    void commitToGroup(List<Consumer<PartitionStore>> writes) {
        for (Consumer<PartitionStore> w : writes) w.accept(committed);
    }

    /** What every replica holds. */
    InMemoryPartitionStore committed() {
        return committed;
    }

    private void write(Consumer<PartitionStore> w) {
        w.accept(leaderView);
        openStep.add(w);
    }

    @Override
    public void savePrepared(TxnRecord record) {
        write(s -> s.savePrepared(record));
    }

    @Override
    public void saveOutcome(TxnId txnId, long sequence, Outcome outcome, VectorClock commitClock, long commitTime) {
        write(s -> s.saveOutcome(txnId, sequence, outcome, commitClock, commitTime));
    }

    @Override
    public void saveSnapshot(VectorClock snapshot, int self) {
        write(s -> s.saveSnapshot(snapshot, self));
    }

    @Override
    public void saveDecision(Decision decision) {
        write(s -> s.saveDecision(decision));
    }

    @Override
    public void forgetDecision(TxnId txnId) {
        write(s -> s.forgetDecision(txnId));
    }

    @Override
    public List<Version> versions(Key key) {
        return leaderView.versions(key);
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
        return leaderView.recover();
    }

    @Override
    public Collection<Key> keysWithOlderVersions() {
        return leaderView.keysWithOlderVersions();
    }
}
