package io.fastccs.server.storage;

import org.apache.cassandra.db.Mutation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The write path at replication factor 1: each step's mutations go to a pool of writer threads that apply them to the
 * local storage engine and its commit log ({@link MutationWriter}; the store's class comment says why), so the
 * protocol thread never waits for a sync.
 */
final class DirectWrites implements WritePath {
    private static final Logger logger = LoggerFactory.getLogger(DirectWrites.class);

    private final int self;
    private final PendingWrites pending;
    private final ThreadPoolExecutor writers;
    /** Hands each step's mutations to {@link #writers}. */
    private final MutationWriter mutationWriter;
    private volatile Throwable writeFailure;

    DirectWrites(int self, PendingWrites pending, int writerThreads, ThreadFactory threads) {
        this.self = self;
        this.pending = pending;
        this.writers = new ThreadPoolExecutor(writerThreads, writerThreads, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), threads);
        this.mutationWriter = new MutationWriter(writers, pending, this::writeFailed);
    }

    @Override
    public void add(Mutation mutation, PendingWrites.Write write) {
        mutationWriter.add(mutation, write); // handed over at the end of the step, or when whenDurable() asks
    }

    @Override
    public void handOver() {
        try {
            mutationWriter.flush();
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException("FastCCS store " + self + " is closed", e);
        }
    }

    @Override
    public Throwable failure() {
        return writeFailure;
    }

    /** Hands over the last step and waits (up to a minute) for the pending writes to be applied. */
    @Override
    public void close() {
        mutationWriter.flush(); // the writers still run: nothing is refused
        writers.shutdown();
        try {
            if (!writers.awaitTermination(1, TimeUnit.MINUTES))
                logger.warn("FastCCS store {}: {} writes still pending after a minute; closing anyway", self, pending.unappliedCount());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        logger.info("Closed FastCCS store of partition {}", self);
    }

    private void writeFailed(Throwable t) {
        if (writeFailure == null) writeFailure = t;
        logger.error("FastCCS store {}: a write failed; durability is lost", self, t);
    }
}
