package io.fastccs.client.internal;

import io.fastccs.client.FastCcsException;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waits for asynchronous results on behalf of the blocking API. */
public final class Blocking {
    private Blocking() {
    }

    /**
     * Waits for {@code stage} without giving up on interrupts (the interrupt flag is restored after), and throws
     * its failure as it is when unchecked.
     *
     * @throws IllegalStateException if called from a client I/O thread, where waiting could deadlock
     */
    public static <T> T await(CompletionStage<T> stage) {
        if (IoThreadFactory.isIoThread())
            throw new IllegalStateException("blocking FastCCS call on a client I/O thread (in a callback of an "
                    + "asynchronous call?): it would deadlock; use the asynchronous API there");
        Future<T> future = stage.toCompletableFuture();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return future.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw asUnchecked(e.getCause());
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** The failure itself when unchecked, unwrapping {@link CompletionException}s; checked ones wrapped. */
    static RuntimeException asUnchecked(Throwable t) {
        t = Failures.unwrap(t);
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new FastCcsException("unexpected failure: " + t, t);
    }
}
