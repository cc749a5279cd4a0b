package io.fastccs.server.storage;

import org.apache.cassandra.config.Config;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.db.Mutation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Applies a store's mutations on its writer threads, the mutations of one protocol step handed over together
 * ({@link #flush}). How depends on whether applying a mutation waits for the commit log's sync:
 * <ul>
 *   <li>{@code commitlog_sync: batch} or {@code group}: it does, and concurrent mutations share a sync, so every
 *   mutation goes to a writer thread of its own;</li>
 *   <li>{@code periodic}: it does not, so one writer at a time takes every step handed over so far and applies them in
 *   turn: one thread wake-up for many steps under load instead of one per mutation
 *   (docs/design/cost-against-eventual.md, "One writer wake-up for many steps at periodic"). Merging a step's mutations
 *   to one Cassandra partition into one was tried and bought nothing: the memtable's cost is per row, and the merge
 *   cost more than the commit log entries it saved.</li>
 * </ul>
 * Order between mutations does not matter: every row carries the store's strictly increasing timestamps, and
 * {@link PendingWrites} tracks what is applied. Protocol thread only, but for what the writer threads run.
 */
final class MutationWriter {
    /** Mutations handed over together, each with the store's write it carries. */
    private record Step(List<Mutation> mutations, List<PendingWrites.Write> writes) {
    }

    private final ThreadPoolExecutor threads;
    private final PendingWrites pending;
    private final Consumer<Throwable> onFailure;
    private final boolean applyWaitsForSync;

    private List<Mutation> stepMutations = new ArrayList<>();
    private List<PendingWrites.Write> stepWrites = new ArrayList<>();

    /** Steps handed over and not yet taken by the writer ({@code periodic} only). */
    private final ConcurrentLinkedQueue<Step> queued = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();

    /**
     * @param threads   the writer threads (their number bounds the syncs waited for at once)
     * @param pending   where the writes are completed once applied
     * @param onFailure told of a mutation that failed to apply (durability is lost)
     */
    MutationWriter(ThreadPoolExecutor threads, PendingWrites pending, Consumer<Throwable> onFailure) {
        this(threads, pending, onFailure, commitLogWaitsForSync());
    }

    MutationWriter(ThreadPoolExecutor threads, PendingWrites pending, Consumer<Throwable> onFailure, boolean applyWaitsForSync) {
        this.threads = threads;
        this.pending = pending;
        this.onFailure = onFailure;
        this.applyWaitsForSync = applyWaitsForSync;
    }

    /** Whether applying a mutation waits for the commit log to be synced (batch and group) or not (periodic). */
    static boolean commitLogWaitsForSync() {
        Config.CommitLogSync sync = DatabaseDescriptor.getCommitLogSync();
        return sync == Config.CommitLogSync.batch || sync == Config.CommitLogSync.group;
    }

    /** Adds {@code mutation}, which carries {@code write}, to the current step. */
    void add(Mutation mutation, PendingWrites.Write write) {
        stepMutations.add(mutation);
        stepWrites.add(write);
    }

    /**
     * Hands the current step's mutations to the writer threads.
     *
     * @throws RejectedExecutionException if the threads are shut down (the writes not handed over are completed as failed)
     */
    void flush() {
        if (stepMutations.isEmpty()) return;
        Step step = new Step(stepMutations, stepWrites);
        stepMutations = new ArrayList<>();
        stepWrites = new ArrayList<>();
        if (applyWaitsForSync) {
            for (int i = 0; i < step.mutations.size(); i++) {
                Mutation mutation = step.mutations.get(i);
                PendingWrites.Write write = step.writes.get(i);
                execute(() -> LocalMutations.applyDurably(mutation, pending, write, onFailure), step.writes.subList(i, step.writes.size()));
            }
            return;
        }
        queued.add(step);
        if (draining.compareAndSet(false, true)) execute(this::drain, step.writes);
    }

    /** The one writer at a time of {@code periodic}: applies every step queued until none is left. */
    private void drain() {
        do {
            for (Step step; (step = queued.poll()) != null; )
                for (int i = 0; i < step.mutations.size(); i++)
                    LocalMutations.applyDurably(step.mutations.get(i), pending, step.writes.get(i), onFailure);
            draining.set(false);
        } while (!queued.isEmpty() && draining.compareAndSet(false, true));
    }

    /** Runs {@code task} on a writer thread; if they are shut down, {@code writes} (the task's and later ones) fail. */
    private void execute(Runnable task, List<PendingWrites.Write> writes) {
        try {
            threads.execute(task);
        } catch (RejectedExecutionException e) {
            for (PendingWrites.Write w : writes) pending.completed(w, e);
            throw e;
        }
    }
}
