package io.fastccs.client.internal;

import io.netty.util.concurrent.FastThreadLocalThread;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Creates the client's I/O and timer threads, marked so that a blocking call made on one of them (which would
 * wait for work only that thread can do) fails instead of deadlocking.
 */
final class IoThreadFactory implements ThreadFactory {
    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private final String prefix;
    private final AtomicInteger threads = new AtomicInteger();

    IoThreadFactory(String role) {
        this.prefix = "fastccs-" + CLIENTS.incrementAndGet() + "-" + role + "-";
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread t = new IoThread(task, prefix + threads.incrementAndGet());
        t.setDaemon(true);
        return t;
    }

    /** Whether the calling thread belongs to a FastCCS client. */
    static boolean isIoThread() {
        return Thread.currentThread() instanceof IoThread;
    }

    private static final class IoThread extends FastThreadLocalThread {
        IoThread(Runnable task, String name) {
            super(task, name);
        }
    }
}
