package io.fastccs.protocol.host;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What a partition host sends, in the order it sent it, each message held until the futures queued before it (the
 * durability of writes made earlier, a leader's lease) complete: how "durable before the message leaves" holds while
 * writes become durable asynchronously. Protocol thread only.
 */
public final class HeldMessages {
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private final Consumer<Runnable> onProtocolThread;
    private final Consumer<Throwable> onFailure;
    /** The future queued last: asked again for the same one, there is nothing more to wait for. */
    private CompletableFuture<Void> lastHeld;

    /**
     * @param onProtocolThread runs a task on the host's protocol thread later (the queue drains there)
     * @param onFailure        told once a queued future failed; what was queued after it is dropped
     */
    public HeldMessages(Consumer<Runnable> onProtocolThread, Consumer<Throwable> onFailure) {
        this.onProtocolThread = onProtocolThread;
        this.onFailure = onFailure;
    }

    /** What is sent from now on leaves after {@code f} completes (at once if it has). */
    public void after(CompletableFuture<Void> f) {
        if (f.isDone() && !f.isCompletedExceptionally()) return;
        if (f == lastHeld && !f.isDone()) return; // still queued, and what came since waits behind it already
        lastHeld = f;
        queue.add(f);
        f.whenComplete((v, e) -> onProtocolThread.accept(this::drain));
    }

    /** Sends now if nothing is held, else after what is. */
    public void send(Runnable transmit) {
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
