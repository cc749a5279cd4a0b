package io.fastccs.protocol.host;

import io.fastccs.core.messages.ClientRequest;

import java.util.concurrent.CompletableFuture;

/**
 * What a {@link PartitionHost} runs on: its partition's one thread, and whom it tells when it must stop. A node gives its
 * protocol thread; the simulator runs tasks at once, on simulated time.
 */
public interface HostEnvironment {
    /** Runs {@code task} on the partition's thread, after every task handed over before it. */
    void execute(Runnable task);

    /**
     * The host stopped for good: a store write or a lease check failed, so it can no longer promise what its messages
     * rest on, and drops what it holds. Stop serving (close the port).
     */
    void stopped(Throwable cause);

    /** The partition threw on {@code request}; the host answers it with an internal error once this returns. */
    default void internalError(ClientRequest request, RuntimeException e) {
    }

    /**
     * Runs {@code news} on the partition's thread once {@code mark} has completed: how the host tells its partition that
     * the settled prefix is durable. At once if it has; never if it fails (the host stops then).
     */
    default void whenDurable(CompletableFuture<Void> mark, Runnable news) {
        if (mark.isDone() && !mark.isCompletedExceptionally()) news.run();
        else mark.thenRun(() -> execute(news));
    }
}
