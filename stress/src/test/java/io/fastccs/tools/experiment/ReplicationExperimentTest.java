package io.fastccs.tools.experiment;

import io.fastccs.tools.cluster.Ports;
import io.fastccs.tools.stress.StressOptions;
import io.fastccs.tools.stress.StressResult;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReplicationExperimentTest {
    private static final List<String> HOSTS = List.of("127.0.57.1", "127.0.57.2", "127.0.57.3");

    @Test
    void everyArmOfEveryWorkloadIsAValidStressRunWithItsConsistencyAndKeyspaceFactor() {
        ReplicationExperiment experiment = new ReplicationExperiment();
        for (ReplicationExperiment.Workload w : ReplicationExperiment.WORKLOADS) {
            for (ReplicationExperiment.Arm arm : ReplicationExperiment.ARMS) {
                StressOptions o = StressOptions.parse(experiment.arguments(w, arm, Ports.forSubnet(57), HOSTS));
                assertThat(o.mode).isEqualTo(arm.mode());
                assertThat(o.consistency).isEqualTo(arm.consistency());
                assertThat(o.replicationFactor).isEqualTo(arm.keyspaceFactor());
                assertThat(o.nodes).isEqualTo(HOSTS);
                assertThat(o.nativePort).isEqualTo(Ports.forSubnet(57).cql());
                assertThat(o.keysPerRead).isEqualTo(5);
                assertThat(o.writeFraction).isEqualTo(w.name().equals("write") ? 1.0 : 0.05);
            }
        }
        StressOptions quorum = StressOptions.parse(experiment.arguments(ReplicationExperiment.WORKLOADS.get(0),
                ReplicationExperiment.EVENTUAL_QUORUM_RF3, Ports.forSubnet(57), HOSTS));
        assertThat(quorum.consistency).isEqualTo(StressOptions.Consistency.QUORUM);
        assertThat(quorum.replicationFactor).isEqualTo(3);
        assertThat(ReplicationExperiment.ARMS).extracting(ReplicationExperiment.Arm::name)
                .containsExactly("fastccs-rf1", "fastccs-rf3", "eventual-one-rf3", "eventual-quorum-rf3");
    }

    @Test
    void theOrderOfTheArmsIsReversedOnEvenRepetitions() {
        assertThat(ReplicationExperiment.order(1)).isEqualTo(ReplicationExperiment.ARMS);
        List<ReplicationExperiment.Arm> reversed = new ArrayList<>(ReplicationExperiment.ARMS);
        java.util.Collections.reverse(reversed);
        assertThat(ReplicationExperiment.order(2)).isEqualTo(reversed);
        assertThat(ReplicationExperiment.order(3)).isEqualTo(ReplicationExperiment.ARMS);
    }

    @Test
    void theRatioTableDividesFastccsAtRf3ByEachOtherArm() {
        List<ReplicationExperiment.Row> rows = new ArrayList<>();
        rows.add(row("mixed", ReplicationExperiment.FASTCCS_RF1, 1000, 2, 4));
        rows.add(row("mixed", ReplicationExperiment.FASTCCS_RF3, 500, 3, 10));
        rows.add(row("mixed", ReplicationExperiment.EVENTUAL_ONE_RF3, 2000, 1, 2));
        rows.add(row("mixed", ReplicationExperiment.EVENTUAL_QUORUM_RF3, 250, 1, 2));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ReplicationExperiment.printRatios(rows, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String table = bytes.toString(StandardCharsets.UTF_8);
        String ratios = table.lines().filter(l -> l.startsWith("mixed ") && !l.contains("-rf")).findFirst().orElseThrow();
        // op/s 500/1000, read p99 3/2, write p99 10/4, then 500/250 and 500/2000
        assertThat(ratios.trim().split("\\s+")).containsExactly("mixed", "0.50", "1.50x", "2.50x", "2.00", "0.25");
        // the write workload has no runs here: every cell is "-", not NaN
        assertThat(table).doesNotContain("NaN");
    }

    private static ReplicationExperiment.Row row(String workload, ReplicationExperiment.Arm arm, double opRate, double readP99, double writeP99) {
        StressResult.Latency read = new StressResult.Latency(1, 1, 1, readP99, readP99, readP99);
        StressResult.Latency write = new StressResult.Latency(1, 1, 1, writeP99, writeP99, writeP99);
        StressResult r = new StressResult(arm.name(), 10, 95, 5, 0, opRate, read, read, write, 0, 95, null, null, null);
        return new ReplicationExperiment.Row(workload, arm, 1, r, 100, 50, 1.0);
    }
}
