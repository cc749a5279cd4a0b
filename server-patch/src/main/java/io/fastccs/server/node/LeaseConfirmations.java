package io.fastccs.server.node;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Lease checks shared by the replies that wait for them: one check in flight at a time, and every reply made while it
 * runs waits for the next one, which starts when it ends. A check proves leadership from when it started, so it covers
 * only replies made before that. Protocol thread only.
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
        started.whenComplete((v, e) -> protocolThread.execute(() -> {
            if (e == null) waiters.complete(null);
            else waiters.completeExceptionally(e);
            inFlight = false;
            if (next != null) startNext();
        }));
    }
}
