package io.fastccs.tools.experiment;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * CPU time the cluster's nodes and this client spend during the measured part of a run, so a throughput ratio can
 * be explained: on one small machine the mode that needs less CPU per transaction wins. Nodes are read from /proc
 * (Linux, 10 ms ticks); the client from its own JVM (which also runs this tool's bookkeeping). The nodes' CPU is also
 * split by what their threads do ({@link Work}), thread by thread from /proc/PID/task, so a ratio's cause can be read
 * off every run without a profiler.
 */
final class CpuMeter {
    private static final double TICKS_PER_SECOND = 100; // USER_HZ on Linux

    private final long[] pids;
    private double loadAtStart = Double.NaN;
    private double nodeStart = Double.NaN, clientStart = Double.NaN, node = Double.NaN, client = Double.NaN;
    /** Each node thread's ticks at start, by "pid/tid", and its kind of work. */
    private Map<String, Long> threadTicksAtStart = Map.of();
    private final double[] byWork = new double[Work.values().length];
    private boolean byWorkKnown;

    /**
     * What a node thread does, told by its name (Linux keeps its first 15 characters): Netty's event loops of both
     * ports, the threads that serve requests (each protocol's one thread; CQL's request and stage threads), storage
     * (FastCCS's store writers and loaders, the compared protocols' write threads, Cassandra's commit log, memtables
     * and compaction), the JVM's own (garbage collection, JIT), and the rest (gossip, schedulers, metrics).
     */
    enum Work {
        IO, SERVE, STORAGE, JVM, OTHER;

        static Work of(String thread) {
            if (thread.startsWith("fastccs-io") || thread.startsWith("fastccs-peers") || thread.startsWith("fastccs-accept")
                    || thread.startsWith("epollEventLoop") || thread.startsWith("nioEventLoop") || thread.startsWith("Messaging-"))
                return IO;
            if (thread.contains("-protoc") || thread.startsWith("Native-Transpor") || thread.startsWith("ReadStage")
                    || thread.startsWith("MutationStage") || thread.startsWith("RequestResponse"))
                return SERVE;
            if (thread.startsWith("fastccs-store") || thread.contains("-writes") || thread.startsWith("COMMIT-LOG")
                    || thread.startsWith("PERIODIC-COMMIT") || thread.contains("Memtable") || thread.startsWith("CompactionExec")
                    || thread.startsWith("SlabPoolCleaner"))
                return STORAGE;
            if (thread.startsWith("GC Thread") || thread.startsWith("G1 ") || thread.contains("CompilerThre")
                    || thread.startsWith("VM Thread") || thread.startsWith("VM Periodic") || thread.startsWith("Sweeper"))
                return JVM;
            return OTHER;
        }

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    CpuMeter(long[] nodePids) {
        this.pids = nodePids;
    }

    void start() {
        loadAtStart = loadAverage();
        threadTicksAtStart = threadTicks(pids, null);
        nodeStart = nodeMicros(pids);
        clientStart = processMicros();
    }

    void stop() {
        node = nodeMicros(pids) - nodeStart;
        client = processMicros() - clientStart;
        Map<String, Work> work = new HashMap<>();
        Map<String, Long> now = threadTicks(pids, work);
        byWorkKnown = !now.isEmpty();
        for (Map.Entry<String, Long> t : now.entrySet()) // a thread that began during the run counts from zero
            byWork[work.get(t.getKey()).ordinal()] += (t.getValue() - threadTicksAtStart.getOrDefault(t.getKey(), 0L)) / TICKS_PER_SECOND * 1e6;
    }

    /** Microseconds of the nodes' CPU between start and stop spent by threads doing {@code work}; NaN if unknown. */
    double nodeMicros(Work work) {
        return byWorkKnown ? byWork[work.ordinal()] : Double.NaN;
    }

    /** Microseconds of CPU the nodes used between start and stop; NaN if unknown. */
    double nodeMicros() {
        return node;
    }

    double clientMicros() {
        return client;
    }

    /** The machine's 1-minute load average when the measured part began: other work on the machine shows here. */
    double loadAtStart() {
        return loadAtStart;
    }

    private static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        }
    }

    private static double processMicros() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) return sun.getProcessCpuTime() / 1e3;
        return Double.NaN;
    }

    /**
     * utime + stime of every thread of the processes, by "pid/tid"; their kinds of work into {@code work} when asked.
     * Empty where /proc is not there. A thread that ends during the run loses its time since start: a small undercount
     * of {@link #nodeMicros()}'s total, which reads the processes.
     */
    private static Map<String, Long> threadTicks(long[] pids, Map<String, Work> work) {
        Map<String, Long> ticks = new HashMap<>();
        for (long pid : pids) {
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
                for (Path task : tasks) {
                    try {
                        String key = pid + "/" + task.getFileName();
                        Work kind = work == null ? null : Work.of(Files.readString(task.resolve("comm")).strip());
                        ticks.put(key, ticks(Files.readString(task.resolve("stat"))));
                        if (work != null) work.put(key, kind);
                    } catch (IOException | RuntimeException ended) {
                        // the thread ended meanwhile
                    }
                }
            } catch (IOException | RuntimeException e) {
                return Map.of();
            }
        }
        return ticks;
    }

    /** utime + stime (fields 14 and 15) of a /proc stat line; fields[0] after the name is field 3 (state). */
    private static long ticks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** utime + stime of each process (fields 14 and 15 of /proc/PID/stat); NaN where /proc is not there. */
    static double nodeMicros(long[] pids) {
        if (pids.length == 0) return Double.NaN;
        double total = 0;
        for (long pid : pids) {
            try {
                total += ticks(Files.readString(Path.of("/proc/" + pid + "/stat"))) / TICKS_PER_SECOND * 1e6;
            } catch (IOException | RuntimeException e) {
                return Double.NaN;
            }
        }
        return total;
    }
}
