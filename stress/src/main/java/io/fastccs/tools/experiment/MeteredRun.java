package io.fastccs.tools.experiment;

import io.fastccs.tools.stress.StressCommand;
import io.fastccs.tools.stress.StressOptions;
import io.fastccs.tools.stress.StressResult;

/** One stress run of an experiment, with the nodes' and the client's CPU metered over its measured part. */
record MeteredRun(StressResult result, double nodeCpuMicrosPerOp, double clientCpuMicrosPerOp, double loadAverage) {
    /** Runs {@code o}; null if it failed, which it prints: one failed run leaves a gap in the figure, not an end. */
    static MeteredRun of(StressOptions o, long[] nodePids) {
        CpuMeter cpu = new CpuMeter(nodePids);
        o.atMeasureStart = cpu::start;
        o.atMeasureEnd = cpu::stop;
        StressResult r;
        try {
            r = StressCommand.run(o, System.out);
        } catch (Exception failure) { // a node too slow to answer on a loaded machine
            System.out.println("    run failed, left out: " + failure);
            return null;
        }
        long ops = Math.max(1, r.reads() + r.writes());
        return new MeteredRun(r, cpu.nodeMicros() / ops, cpu.clientMicros() / ops, cpu.loadAtStart());
    }
}
