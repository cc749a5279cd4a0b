package io.fastccs.server.node;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What a partition host sends, in the order it sent it, each message held until the futures queued before it (the
 * durability of writes made earlier, a leader's lease) complete: how "durable before the message leaves" holds while
 * writes become durable asynchronously. Protocol thread only.
 */
final class HeldMessages {
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private final Consumer<Runnable> onProtocolThread;
    private final Consumer<Throwable> onFailure;

    /**
     * @param onProtocolThread runs a step on the host's protocol thread (the queue drains there)
     * @param onFailure        told once a queued future failed; what was queued after it is dropped
     */
    HeldMessages(Consumer<Runnable> onProtocolThread, Consumer<Throwable> onFailure) {
        this.onProtocolThread = onProtocolThread;
        this.onFailure = onFailure;
    }

    /** What is sent from now on leaves after {@code f} completes (at once if it has). */
    void after(CompletableFuture<Void> f) {
        if (f.isDone() && !f.isCompletedExceptionally()) return;
        queue.add(f);
        f.whenComplete((v, e) -> onProtocolThread.accept(this::drain));
    }

    /** Sends now if nothing is held, else after what is. */
    void send(Runnable transmit) {
        if (queue.isEmpty()) transmit.run();
        else queue.add(transmit);
    }

    private void drain() {
        while (!queue.isEmpty()) {
            Object head = queue.peekFirst();
            if (head instanceof CompletableFuture<?> f) {
                if (!f.isDone()) return;
                if (f.isCompletedExceptionally()) {
                    queue.clear();
                    onFailure.accept(f.handle((v, e) -> e).join());
                    return;
                }
                queue.pollFirst();
            } else {
                queue.pollFirst();
                ((Runnable) head).run();
            }
        }
    }
}
