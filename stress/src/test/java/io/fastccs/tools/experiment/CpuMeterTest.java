package io.fastccs.tools.experiment;

import io.fastccs.tools.experiment.CpuMeter.Work;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;

class CpuMeterTest {

    @Test
    void threadsAreToldByTheNamesTheNodesGiveThem() {
        // as /proc shows them: the first 15 characters
        assertThat(Work.of("fastccs-io-3-1")).isEqualTo(Work.IO);
        assertThat(Work.of("fastccs-peers-2")).isEqualTo(Work.IO);
        assertThat(Work.of("epollEventLoopG")).isEqualTo(Work.IO);
        assertThat(Work.of("Messaging-Event")).isEqualTo(Work.IO);
        assertThat(Work.of("fastccs-protoco")).isEqualTo(Work.SERVE);
        assertThat(Work.of("eventual-protoc")).isEqualTo(Work.SERVE);
        assertThat(Work.of("wren-protocol-2")).isEqualTo(Work.SERVE);
        assertThat(Work.of("Native-Transpor")).isEqualTo(Work.SERVE);
        assertThat(Work.of("fastccs-store-2")).isEqualTo(Work.STORAGE);
        assertThat(Work.of("eiger-writes-2-")).isEqualTo(Work.STORAGE);
        assertThat(Work.of("eventual-writes")).isEqualTo(Work.STORAGE);
        assertThat(Work.of("PERIODIC-COMMIT")).isEqualTo(Work.STORAGE);
        assertThat(Work.of("PerDiskMemtable")).isEqualTo(Work.STORAGE);
        assertThat(Work.of("CompactionExecu")).isEqualTo(Work.STORAGE);
        assertThat(Work.of("GC Thread#0")).isEqualTo(Work.JVM);
        assertThat(Work.of("G1 Conc#0")).isEqualTo(Work.JVM);
        assertThat(Work.of("C2 CompilerThre")).isEqualTo(Work.JVM);
        assertThat(Work.of("GossipStage:1")).isEqualTo(Work.OTHER);
        assertThat(Work.of("ScheduledFastTa")).isEqualTo(Work.OTHER);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aThreadsCpuGoesToItsKindOfWork() throws Exception {
        CpuMeter meter = new CpuMeter(new long[]{ProcessHandle.current().pid()});
        meter.start();
        long[] burnt = new long[1];
        var burning = new java.util.concurrent.CountDownLatch(1);
        var measured = new java.util.concurrent.CountDownLatch(1);
        Thread storeWriter = new Thread(() -> {
            var threads = ManagementFactory.getThreadMXBean();
            long until = threads.getCurrentThreadCpuTime() + 300_000_000L; // 300 ms of CPU: 30 of /proc's ticks
            long x = 0;
            while (threads.getCurrentThreadCpuTime() < until) x += System.nanoTime() % 7;
            burnt[0] = x;
            burning.countDown();
            try {
                measured.await(); // alive when the meter stops: a thread that ended is not counted
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "fastccs-store-9-writer-1");
        storeWriter.start();
        burning.await();
        meter.stop();
        measured.countDown();
        storeWriter.join();

        assertThat(meter.nodeMicros(Work.STORAGE)).isGreaterThanOrEqualTo(200_000); // a tick or so of rounding each way
        double byWork = 0;
        for (Work w : Work.values()) byWork += meter.nodeMicros(w);
        assertThat(byWork).isLessThanOrEqualTo(meter.nodeMicros() + 20_000); // threads are a split of the process
    }
}
