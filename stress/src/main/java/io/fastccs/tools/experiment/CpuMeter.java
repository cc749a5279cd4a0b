package io.fastccs.tools.experiment;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time the cluster's nodes and this client spend during the measured part of a run, so a throughput ratio can
 * be explained: on one small machine the mode that needs less CPU per transaction wins. Nodes are read from /proc
 * (Linux, 10 ms ticks); the client from its own JVM (which also runs this tool's bookkeeping).
 */
final class CpuMeter {
    private static final double TICKS_PER_SECOND = 100; // USER_HZ on Linux

    private final long[] pids;
    private double loadAtStart = Double.NaN;
    private double nodeStart = Double.NaN, clientStart = Double.NaN, node = Double.NaN, client = Double.NaN;

    CpuMeter(long[] nodePids) {
        this.pids = nodePids;
    }

    void start() {
        loadAtStart = loadAverage();
        nodeStart = nodeMicros(pids);
        clientStart = processMicros();
    }

    void stop() {
        node = nodeMicros(pids) - nodeStart;
        client = processMicros() - clientStart;
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

    /** utime + stime of each process (fields 14 and 15 of /proc/PID/stat); NaN where /proc is not there. */
    static double nodeMicros(long[] pids) {
        if (pids.length == 0) return Double.NaN;
        double total = 0;
        for (long pid : pids) {
            try {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                // fields[0] is field 3 (state), so utime (field 14) is fields[11] and stime (15) fields[12]
                total += (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND * 1e6;
            } catch (IOException | RuntimeException e) {
                return Double.NaN;
            }
        }
        return total;
    }
}
