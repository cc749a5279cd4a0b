package io.fastccs.tools.cluster;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The executors of the command-line tools, each with named threads and a daemon flag given by the caller: the one
 * place they create executors, as Cassandra's code does through its {@code ExecutorFactory}. Here because every
 * {@code bin/fastccs} tool depends on the cluster tool.
 */
public final class ToolThreads {
    private ToolThreads() {
    }

    /** One daemon thread named {@code name} that runs scheduled work. */
    public static ScheduledExecutorService scheduled(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> thread(r, name, true));
    }

    /** {@code threads} threads named {@code prefix-1}, {@code prefix-2} and so on, daemons if {@code daemon}. */
    public static ExecutorService pool(String prefix, int threads, boolean daemon) {
        AtomicInteger count = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, r -> thread(r, prefix + "-" + count.incrementAndGet(), daemon));
    }

    private static Thread thread(Runnable task, String name, boolean daemon) {
        Thread t = new Thread(task, name);
        t.setDaemon(daemon);
        return t;
    }
}
