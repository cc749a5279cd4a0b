package io.fastccs.replication.ratis;

import io.fastccs.replication.ReplicaApplier;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.util.LifeCycle;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.CompletableFuture;

/**
 * One group's Ratis state machine: hands committed entries, leadership changes and snapshots to the host's
 * {@link ReplicaApplier}. Ratis calls applyTransaction in log order on one thread per group.
 */
final class ApplierStateMachine extends BaseStateMachine {
    private final ReplicaApplier applier;
    private final SimpleStateMachineStorage storage = new SnapshotStorage();

    /**
     * Ratis 3.3.0's storage throws a NullPointerException when a reader finds no snapshot file while a snapshot is
     * being recorded (updateLatestSnapshot(null) against a non-null previous): keep the newest one known instead.
     */
    private static final class SnapshotStorage extends SimpleStateMachineStorage {
        private final java.util.concurrent.atomic.AtomicReference<SingleFileSnapshotInfo> newest = new java.util.concurrent.atomic.AtomicReference<>();

        @Override
        public SingleFileSnapshotInfo updateLatestSnapshot(SingleFileSnapshotInfo info) {
            if (info == null) return newest.get();
            SingleFileSnapshotInfo updated = super.updateLatestSnapshot(info);
            newest.set(updated);
            return updated;
        }
    }
    private volatile boolean leading;

    ApplierStateMachine(ReplicaApplier applier) {
        this.applier = applier;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        getLifeCycle().startAndTransition(this::loadLatestSnapshot, IOException.class);
    }

    /** Ratis pauses the state machine before it installs a snapshot from the leader, then reinitializes it. */
    @Override
    public void pause() {
        getLifeCycle().transition(LifeCycle.State.PAUSING);
        getLifeCycle().transition(LifeCycle.State.PAUSED);
    }

    @Override
    public void reinitialize() throws IOException {
        // After a snapshot was installed from the leader: this member's state is that snapshot.
        storage.loadLatestSnapshot();
        loadLatestSnapshot();
        getLifeCycle().transition(LifeCycle.State.STARTING);
        getLifeCycle().transition(LifeCycle.State.RUNNING);
    }

    private void loadLatestSnapshot() throws IOException {
        SingleFileSnapshotInfo snapshot = storage.getLatestSnapshot();
        if (snapshot == null) return;
        File file = snapshot.getFile().getPath().toFile();
        applier.restore(snapshot.getIndex(), Files.readAllBytes(file.toPath()));
        updateLastAppliedTermIndex(snapshot.getTermIndex());
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public long takeSnapshot() throws IOException {
        TermIndex last = getLastAppliedTermIndex();
        if (last == null || last.getIndex() < 0) return -1;
        File file = storage.getSnapshotFile(last.getTerm(), last.getIndex());
        File tmp = new File(file.getParentFile(), file.getName() + ".tmp");
        Files.write(tmp.toPath(), applier.snapshot());
        Files.move(tmp.toPath(), file.toPath(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(
                new org.apache.ratis.server.storage.FileInfo(file.toPath(), null), last));
        return last.getIndex();
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        byte[] batch = entry.getStateMachineLogEntry().getLogData().toByteArray();
        applier.apply(entry.getIndex(), batch);
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    @Override
    public CompletableFuture<Message> query(Message request) {
        // A read barrier: Ratis calls this only once the read index or the lease says this member may answer.
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    @Override
    public void notifyLeaderReady() {
        leading = true;
        applier.onLeaderReady(currentTerm());
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId member, RaftPeerId newLeaderId) {
        if (leading && !member.getPeerId().equals(newLeaderId)) {
            leading = false;
            applier.onSteppedDown(currentTerm());
        }
    }

    @Override
    public void notifyNotLeader(java.util.Collection<TransactionContext> pendingEntries) {
        if (leading) {
            leading = false;
            applier.onSteppedDown(currentTerm());
        }
    }

    private long currentTerm() {
        try {
            return getServer().join().getDivision(getGroupId()).getInfo().getCurrentTerm();
        } catch (IOException e) {
            return -1;
        }
    }
}
