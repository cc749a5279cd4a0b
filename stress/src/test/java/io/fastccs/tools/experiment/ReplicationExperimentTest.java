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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplicationExperimentTest {
    private static final List<String> HOSTS = List.of("127.0.57.1", "127.0.57.2", "127.0.57.3");

    @Test
    void everyArmOfEveryWorkloadIsAValidStressRunWithItsConsistencyAndKeyspaceFactor() {
        ReplicationExperiment experiment = new ReplicationExperiment();
        experiment.pacedRate = 321;
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
                assertThat(o.fixedRate).isEqualTo(w.paced() ? 321.0 : 0.0);
            }
        }
        StressOptions quorum = StressOptions.parse(experiment.arguments(ReplicationExperiment.MIXED,
                ReplicationExperiment.CQL_QUORUM_RF3, Ports.forSubnet(57), HOSTS));
        assertThat(quorum.consistency).isEqualTo(StressOptions.Consistency.QUORUM);
        assertThat(quorum.replicationFactor).isEqualTo(3);
        assertThat(ReplicationExperiment.ARMS).extracting(ReplicationExperiment.Arm::name)
                .containsExactly("fastccs-rf1", "fastccs-rf3", "cql-one-rf1", "cql-one-rf3", "cql-quorum-rf3");
    }

    @Test
    void primingRunsEveryArmsMixedWorkloadForThePrimeSecondsWithoutAWarmUp() {
        ReplicationExperiment experiment = new ReplicationExperiment();
        experiment.primeSeconds = 45;
        for (ReplicationExperiment.Arm arm : ReplicationExperiment.ARMS) {
            StressOptions o = StressOptions.parse(experiment.primingArguments(arm, Ports.forSubnet(57), HOSTS));
            assertThat(o.mode).isEqualTo(arm.mode());
            assertThat(o.consistency).isEqualTo(arm.consistency());
            assertThat(o.writeFraction).isEqualTo(0.05);
            assertThat(o.duration).isEqualTo(java.time.Duration.ofSeconds(45));
            assertThat(o.warmup).isEqualTo(java.time.Duration.ZERO);
        }
    }

    @Test
    void thePacedRateIsHalfTheSlowestArmsMixedThroughputAndNeedsEveryArm() {
        List<ReplicationExperiment.Row> rows = mixedRuns(6000, 1000, 3000, 1500, 1301);
        rows.add(row("mixed", ReplicationExperiment.FASTCCS_RF3, 1400, 3, 10));
        rows.add(row("write", ReplicationExperiment.CQL_QUORUM_RF3, 10, 1, 2)); // another workload: not counted
        assertThat(ReplicationExperiment.pacedRate(rows)).isEqualTo(600.0); // RF=3's mean 1200, halved
        rows.removeIf(r -> r.workload().equals("mixed") && r.arm().equals(ReplicationExperiment.CQL_QUORUM_RF3));
        assertThat(ReplicationExperiment.pacedRate(rows)).isZero(); // no mixed QUORUM run
        assertThatThrownBy(() -> new ReplicationExperiment().arguments(ReplicationExperiment.MIXED_PACED,
                ReplicationExperiment.FASTCCS_RF3, Ports.forSubnet(57), HOSTS)).isInstanceOf(IllegalStateException.class);
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
        List<ReplicationExperiment.Row> rows = mixedRuns(1000, 500, 4000, 2000, 250);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ReplicationExperiment.printRatios(rows, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String table = bytes.toString(StandardCharsets.UTF_8);
        String ratios = table.lines().filter(l -> l.startsWith("mixed ") && !l.contains("-rf")).findFirst().orElseThrow();
        // op/s 500/1000, read p99 3/2, write p99 10/4, then 500/250 and 500/2000, and plain Cassandra's 2000/4000
        assertThat(ratios.trim().split("\\s+")).containsExactly("mixed", "0.50", "1.50x", "2.50x", "2.00", "0.25", "0.50");
        // the write workload has no runs here: every cell is "-", not NaN
        assertThat(table).doesNotContain("NaN");
    }

    /** One mixed run per arm at these rates; read / write p99 2 / 4 ms at RF=1, 3 / 10 at RF=3, 1 / 2 for plain Cassandra. */
    private static List<ReplicationExperiment.Row> mixedRuns(double rf1, double rf3, double oneRf1, double oneRf3, double quorumRf3) {
        return new ArrayList<>(List.of(row("mixed", ReplicationExperiment.FASTCCS_RF1, rf1, 2, 4),
                row("mixed", ReplicationExperiment.FASTCCS_RF3, rf3, 3, 10),
                row("mixed", ReplicationExperiment.CQL_ONE_RF1, oneRf1, 1, 2),
                row("mixed", ReplicationExperiment.CQL_ONE_RF3, oneRf3, 1, 2),
                row("mixed", ReplicationExperiment.CQL_QUORUM_RF3, quorumRf3, 1, 2)));
    }

    private static ReplicationExperiment.Row row(String workload, ReplicationExperiment.Arm arm, double opRate, double readP99, double writeP99) {
        StressResult.Latency read = new StressResult.Latency(1, 1, 1, readP99, readP99, readP99);
        StressResult.Latency write = new StressResult.Latency(1, 1, 1, writeP99, writeP99, writeP99);
        StressResult r = new StressResult(arm.name(), 10, 95, 5, 0, opRate, read, read, write, 0, 95, null, null, null, io.fastccs.workload.Staleness.Summary.NONE);
        return new ReplicationExperiment.Row(workload, arm, 1, r, 100, 50, 1.0);
    }
}
