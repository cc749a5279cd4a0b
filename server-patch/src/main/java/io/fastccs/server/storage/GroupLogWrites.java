package io.fastccs.server.storage;

import io.fastccs.replication.ReplicatedLog;
import org.apache.cassandra.db.Mutation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The write path of a replica group's leader ({@link CassandraPartitionStore#openReplicated}): each step's writes go
 * into the group's log as one entry, at most {@link #MAX_APPENDS_IN_FLIGHT} of them uncommitted at a time. A write
 * completes once its entry has committed and this member applied it.
 */
final class GroupLogWrites implements WritePath {
    private static final Logger logger = LoggerFactory.getLogger(GroupLogWrites.class);

    /**
     * Entries a group's leader keeps uncommitted at once; the writes of later steps wait and go together. One, not two:
     * under Table 4.1 at RF 3 a write transaction then costs 2.9 entries instead of 4.1, and the cluster runs 1.37x as
     * many transactions (docs/design/replication-node.md, "Group commit of entries").
     */
    static final int MAX_APPENDS_IN_FLIGHT = 1;

    private final int self;
    /** The group's log, through which every write goes. */
    private final ReplicatedLog log;
    private final PendingWrites pending;
    /** Writes of the current protocol step, appended to the log as one entry (protocol thread). */
    private List<Mutation> batch = new ArrayList<>();
    private List<PendingWrites.Write> batchWrites = new ArrayList<>();
    /** Entries appended and not yet committed (protocol thread). */
    private int appendsInFlight;
    /** Where a committed entry rejoins to append the next: the protocol thread; null: no limit on entries in flight. */
    private volatile Executor protocolThread;
    private volatile Throwable writeFailure;

    GroupLogWrites(int self, ReplicatedLog log, PendingWrites pending) {
        this.self = self;
        this.log = log;
        this.pending = pending;
    }

    @Override
    public void add(Mutation mutation, PendingWrites.Write write) {
        batch.add(mutation);
        batchWrites.add(write);
    }

    @Override
    public void handOver() {
        appendBatch();
    }

    @Override
    public Throwable failure() {
        return writeFailure;
    }

    @Override
    public void rejoinOn(Executor protocolThread) {
        this.protocolThread = protocolThread;
    }

    /** Nothing to wait for: what is not committed is the next leader's business. */
    @Override
    public void close() {
        logger.info("Closed FastCCS store of replica group {} ({} writes uncommitted)", self, pending.unappliedCount());
    }

    /**
     * Puts the writes made since the last entry into the group's log as one entry, unless
     * {@link #MAX_APPENDS_IN_FLIGHT} entries are still uncommitted: then they wait, with the steps that follow, for the
     * next entry, appended as soon as one commits (group commit: under load one entry carries many steps' writes, and
     * a group's log needs no more entries per second than it can commit). Protocol thread only.
     */
    private void appendBatch() {
        if (batch.isEmpty()) return;
        Throwable failed = writeFailure;
        if (failed != null) { // this member lost an append: nothing more is appended, the host stops
            for (PendingWrites.Write w : batchWrites) pending.completed(w, failed);
            batch = new ArrayList<>();
            batchWrites = new ArrayList<>();
            return;
        }
        Executor rejoin = protocolThread;
        if (rejoin != null && appendsInFlight >= MAX_APPENDS_IN_FLIGHT) return;
        byte[] entry = MutationBatch.encode(batch);
        List<PendingWrites.Write> writes = batchWrites;
        batch = new ArrayList<>();
        batchWrites = new ArrayList<>();
        appendsInFlight++;
        log.append(entry).whenComplete((index, error) -> {
            if (error != null && writeFailure == null) {
                writeFailure = error;
                logger.info("FastCCS group {}: an entry did not commit here ({}); this member stops leading it", self, error.toString());
            }
            for (PendingWrites.Write w : writes) pending.completed(w, error);
            if (rejoin == null) return;
            try {
                rejoin.execute(() -> {
                    appendsInFlight--;
                    appendBatch();
                });
            } catch (RejectedExecutionException e) {
                // the host is stopping
            }
        });
    }
}
