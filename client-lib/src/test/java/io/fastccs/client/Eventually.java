package io.fastccs.client;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or the time is up. */
final class Eventually {
    private Eventually() {
    }

    static void within(Duration limit, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("condition not met within " + limit);
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}
