package io.fastccs.tools.experiment;

import io.fastccs.tools.stress.StressCommand;
import io.fastccs.tools.stress.StressOptions;
import io.fastccs.tools.stress.StressResult;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One stress run of an experiment, with the nodes' and the client's CPU, the protocol's frames and bytes on the
 * nodes' FastCCS ports and its stores' Cassandra mutations metered over its measured part (frames and mutations NaN
 * for plain Cassandra and where the nodes cannot be asked). {@code nodeCpuByWorkPerOp} splits the nodes' CPU by what
 * their threads do (NaN where /proc cannot tell); {@code mutationsPerWriteByKind} splits the mutations per write
 * transaction by kind (empty if unknown).
 */
record MeteredRun(StressResult result, double nodeCpuMicrosPerOp, double clientCpuMicrosPerOp, double loadAverage,
                  double framesPerOp, double peerFramesPerOp, double bytesPerOp, Map<CpuMeter.Work, Double> nodeCpuByWorkPerOp,
                  double mutationsPerWrite, Map<String, Double> mutationsPerWriteByKind) {
    /** Runs {@code o}; null if it failed, which it prints: one failed run leaves a gap in the figure, not an end. */
    static MeteredRun of(StressOptions o, long[] nodePids, List<Integer> jmxPorts) {
        CpuMeter cpu = new CpuMeter(nodePids);
        String protocol = o.mode.plainCassandra() ? null : o.mode.protocol().word();
        try (NodeCounters traffic = new NodeCounters(protocol, jmxPorts)) {
            o.atMeasureStart = () -> {
                cpu.start();
                traffic.start();
            };
            o.atMeasureEnd = () -> {
                cpu.stop();
                traffic.stop();
            };
            StressResult r;
            try {
                r = StressCommand.run(o, System.out);
            } catch (Exception failure) { // a node too slow to answer on a loaded machine
                System.out.println("    run failed, left out: " + failure);
                return null;
            }
            long ops = Math.max(1, r.reads() + r.writes());
            Map<CpuMeter.Work, Double> byWork = new EnumMap<>(CpuMeter.Work.class);
            for (CpuMeter.Work w : CpuMeter.Work.values()) byWork.put(w, cpu.nodeMicros(w) / ops);
            return new MeteredRun(r, cpu.nodeMicros() / ops, cpu.clientMicros() / ops, cpu.loadAtStart(),
                    traffic.framesPerOp(ops), traffic.peerFramesPerOp(ops), traffic.bytesPerOp(ops), byWork,
                    traffic.mutationsPerWrite(r.writes()), traffic.mutationsPerWriteByKind(r.writes()));
        }
    }
}
