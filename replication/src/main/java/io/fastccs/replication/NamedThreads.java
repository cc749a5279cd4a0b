package io.fastccs.replication;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Single-thread executors whose one thread is a daemon with the name given: the one place the consensus code and the
 * node's replicated partitions ({@code server-patch}, which depends on this module) create executors, as Cassandra's
 * code does through its {@code ExecutorFactory}. Node threads are told apart by their names (thread dumps, and the
 * experiments' CPU split by kind of work), so every thread here has a name of its own.
 */
public final class NamedThreads {
    private NamedThreads() {
    }

    /** Runs tasks one at a time, in order, on a daemon thread named {@code name}. */
    public static ExecutorService single(String name) {
        return Executors.newSingleThreadExecutor(r -> daemon(r, name));
    }

    /** Runs scheduled tasks one at a time on a daemon thread named {@code name}. */
    public static ScheduledExecutorService scheduled(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> daemon(r, name));
    }

    private static Thread daemon(Runnable task, String name) {
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        return t;
    }
}
