package io.fastccs.replication.ratis;

import io.fastccs.replication.ReplicaApplier;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.util.LifeCycle;
import org.apache.ratis.util.MD5FileUtil;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One group's Ratis state machine: hands committed entries, leadership changes and snapshots to the host's
 * {@link ReplicaApplier}. Ratis calls applyTransaction and takeSnapshot in log order on one thread per group.
 */
final class ApplierStateMachine extends BaseStateMachine {
    private final ReplicaApplier applier;
    private final SimpleStateMachineStorage storage = new SnapshotStorage();
    private volatile boolean leading;

    /**
     * Ratis 3.3.0's storage throws a NullPointerException when a reader finds no snapshot file while a snapshot is
     * being recorded (updateLatestSnapshot(null) against a non-null previous): keep the newest one known instead.
     */
    private static final class SnapshotStorage extends SimpleStateMachineStorage {
        private final AtomicReference<SingleFileSnapshotInfo> newest = new AtomicReference<>();
        /** Whether the directory was read (init reads it, and every install): Ratis asks for the newest snapshot on
         *  every append and heartbeat, and the base class lists the directory each time while there is none. */
        private volatile boolean scanned;

        @Override
        public SingleFileSnapshotInfo loadLatestSnapshot() {
            SingleFileSnapshotInfo found = super.loadLatestSnapshot();
            scanned = true;
            return found;
        }

        @Override
        public SingleFileSnapshotInfo getLatestSnapshot() {
            SingleFileSnapshotInfo known = newest.get();
            return known != null || scanned ? known : loadLatestSnapshot();
        }

        @Override
        public SingleFileSnapshotInfo updateLatestSnapshot(SingleFileSnapshotInfo info) {
            if (info == null) return newest.get();
            SingleFileSnapshotInfo updated = super.updateLatestSnapshot(info);
            newest.set(updated);
            return updated;
        }
    }

    ApplierStateMachine(ReplicaApplier applier) {
        this.applier = applier;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        getLifeCycle().startAndTransition(this::installLatestSnapshot, IOException.class);
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
        installLatestSnapshot();
        getLifeCycle().transition(LifeCycle.State.STARTING);
        getLifeCycle().transition(LifeCycle.State.RUNNING);
    }

    private void installLatestSnapshot() throws IOException {
        SingleFileSnapshotInfo snapshot = storage.getLatestSnapshot();
        if (snapshot == null) return;
        applier.installSnapshot(snapshot.getIndex(), snapshot.getFile().getPath());
        updateLastAppliedTermIndex(snapshot.getTermIndex());
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    /**
     * The applier writes a temporary file, synced and renamed into place before its MD5 file is written: Ratis drops
     * the log behind the snapshot next, so a crash must leave either the whole snapshot or the previous one (which
     * Ratis prefers while the newer has no MD5 file). The MD5 files also let Ratis delete old snapshots.
     */
    @Override
    public long takeSnapshot() throws IOException {
        TermIndex last = getLastAppliedTermIndex();
        if (last == null || last.getIndex() < 0) return -1;
        Path file = storage.getSnapshotFile(last.getTerm(), last.getIndex()).toPath();
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        applier.takeSnapshot(tmp);
        sync(tmp);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        sync(file.getParent());
        MD5Hash md5 = MD5FileUtil.computeAndSaveMd5ForFile(file.toFile());
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(file, md5), last));
        return last.getIndex();
    }

    private static void sync(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            channel.force(true);
        }
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
        if (leading && !member.getPeerId().equals(newLeaderId)) stepDown();
    }

    @Override
    public void notifyNotLeader(Collection<TransactionContext> pendingEntries) {
        if (leading) stepDown();
    }

    private void stepDown() {
        leading = false;
        applier.onSteppedDown(currentTerm());
    }

    private long currentTerm() {
        try {
            return getServer().join().getDivision(getGroupId()).getInfo().getCurrentTerm();
        } catch (IOException e) {
            return -1;
        }
    }
}
