package io.fastccs.server.storage;

import io.fastccs.core.primitives.Key;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The store's writes that are issued but not yet applied (in the synced commit log). Writes complete in any order
 * on the writer threads; what callers need is prefixes in issue order:
 * <ul>
 *   <li>{@link #whenApplied()}: every write issued so far is applied;</li>
 *   <li>{@link #unappliedChanges}: the changes to one key that a read of the table may not show yet. A key's change
 *   leaves this list only with every earlier change to that key, so a read that takes the list first and then
 *   reads the table misses nothing (see {@link VersionChange}).</li>
 * </ul>
 * Thread safe; one lock, held briefly. Futures complete outside the lock, on the thread that applied the last
 * write of the prefix.
 */
final class PendingWrites {
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    /** One issued write; {@code key} and {@code change} are set for writes to the versions table. */
    static final class Write {
        private final long ticket;
        private final Key key;
        private final VersionChange change;
        private boolean applied;

        private Write(long ticket, Key key, VersionChange change) {
            this.ticket = ticket;
            this.key = key;
            this.change = change;
        }
    }

    private record Waiter(long ticket, CompletableFuture<Void> future) {
    }

    private final ArrayDeque<Write> inIssueOrder = new ArrayDeque<>();
    private final Map<Key, ArrayDeque<Write>> byKey = new HashMap<>();
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private long lastIssued;
    private int unapplied;
    private Throwable failure;

    /** Registers a write about to be submitted; {@code key} and {@code change} are null for metadata writes. */
    synchronized Write issue(Key key, VersionChange change) {
        Write w = new Write(++lastIssued, key, change);
        unapplied++;
        inIssueOrder.addLast(w);
        if (key != null) byKey.computeIfAbsent(key, k -> new ArrayDeque<>(2)).addLast(w);
        return w;
    }

    /** Marks {@code write} applied, or failed with {@code error}: a failure fails every later wait too. */
    void completed(Write write, Throwable error) {
        List<Waiter> ready = null;
        Throwable failed;
        synchronized (this) {
            write.applied = true;
            unapplied--;
            if (error != null && failure == null) failure = error;
            while (!inIssueOrder.isEmpty() && inIssueOrder.peekFirst().applied) inIssueOrder.pollFirst();
            if (write.key != null) {
                ArrayDeque<Write> forKey = byKey.get(write.key);
                while (!forKey.isEmpty() && forKey.peekFirst().applied) forKey.pollFirst();
                if (forKey.isEmpty()) byKey.remove(write.key);
            }
            failed = failure;
            long appliedUpTo = inIssueOrder.isEmpty() ? lastIssued : inIssueOrder.peekFirst().ticket - 1;
            while (!waiters.isEmpty() && (failed != null || waiters.peekFirst().ticket <= appliedUpTo)) {
                if (ready == null) ready = new ArrayList<>();
                ready.add(waiters.pollFirst());
            }
        }
        if (ready == null) return;
        for (Waiter w : ready) {
            if (failed != null) w.future.completeExceptionally(failed);
            else w.future.complete(null);
        }
    }

    /**
     * Completes once every write issued before the call is applied; completed already when none is pending, and the
     * future given last when nothing was issued since (the host asks before every message it sends).
     */
    synchronized CompletableFuture<Void> whenApplied() {
        if (failure != null) return CompletableFuture.failedFuture(failure);
        if (inIssueOrder.isEmpty()) return DONE;
        if (!waiters.isEmpty() && waiters.peekLast().ticket == lastIssued) return waiters.peekLast().future;
        CompletableFuture<Void> f = new CompletableFuture<>();
        waiters.addLast(new Waiter(lastIssued, f));
        return f;
    }

    /**
     * Completes once {@code upTo} and every write issued before it are applied: what a message that rests on
     * {@code upTo} waits for, without waiting for the writes issued after it.
     */
    synchronized CompletableFuture<Void> whenApplied(Write upTo) {
        if (failure != null) return CompletableFuture.failedFuture(failure);
        if (inIssueOrder.isEmpty() || inIssueOrder.peekFirst().ticket > upTo.ticket) return DONE;
        // Waiters stay in ticket order: completed() releases them from the front.
        java.util.Iterator<Waiter> fromNewest = waiters.descendingIterator();
        List<Waiter> later = new ArrayList<>();
        while (fromNewest.hasNext()) {
            Waiter w = fromNewest.next();
            if (w.ticket == upTo.ticket) return w.future;
            if (w.ticket < upTo.ticket) break;
            later.add(w);
        }
        CompletableFuture<Void> f = new CompletableFuture<>();
        for (int i = 0; i < later.size(); i++) waiters.pollLast();
        waiters.addLast(new Waiter(upTo.ticket, f));
        for (int i = later.size() - 1; i >= 0; i--) waiters.addLast(later.get(i));
        return f;
    }

    /** The changes to {@code key} that may not be in the table yet, in issue order. */
    synchronized List<VersionChange> unappliedChanges(Key key) {
        ArrayDeque<Write> forKey = byKey.get(key);
        if (forKey == null) return List.of();
        List<VersionChange> out = new ArrayList<>(forKey.size());
        for (Write w : forKey) out.add(w.change);
        return out;
    }

    /** Writes issued and not applied yet. */
    synchronized int unappliedCount() {
        return unapplied;
    }

    synchronized Throwable failure() {
        return failure;
    }
}
