package io.fastccs.protocol.host;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Lease checks shared by the replies that wait for them: one check in flight at a time, and every reply made while it
 * runs waits for the next one, which starts when it ends. A check proves leadership from when it started, so it covers
 * only replies made before that. A check that completes as it is started (a valid lease, checked on this thread)
 * releases its replies at once. Protocol thread only.
 */
final class LeaseConfirmations {
    private final Supplier<CompletableFuture<Void>> check;
    private final Executor protocolThread;
    private boolean inFlight;
    private CompletableFuture<Void> next;

    LeaseConfirmations(Supplier<CompletableFuture<Void>> check, Executor protocolThread) {
        this.check = check;
        this.protocolThread = protocolThread;
    }

    /** Completes once a check started after this call succeeded; fails if that check failed. */
    CompletableFuture<Void> afterNow() {
        if (next == null) next = new CompletableFuture<>();
        CompletableFuture<Void> waiter = next;
        if (!inFlight) startNext();
        return waiter;
    }

    private void startNext() {
        CompletableFuture<Void> waiters = next;
        next = null;
        inFlight = true;
        CompletableFuture<Void> started;
        try {
            started = check.get();
        } catch (RuntimeException e) {
            started = CompletableFuture.failedFuture(e);
        }
        if (started.isDone()) { // checked on this thread already (a valid lease): no hop
            finish(waiters, started.handle((v, e) -> e).join());
            return;
        }
        started.whenComplete((v, e) -> protocolThread.execute(() -> finish(waiters, e)));
    }

    private void finish(CompletableFuture<Void> waiters, Throwable failure) {
        inFlight = false;
        if (failure == null) waiters.complete(null);
        else waiters.completeExceptionally(failure);
        if (next != null && !inFlight) startNext();
    }
}
