package io.fastccs.tools.experiment;

import io.fastccs.tools.cluster.Ports;
import io.fastccs.tools.stress.StressOptions;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExperimentCommandTest {
    @Test
    void everyPointOfEveryExperimentIsAValidStressRunThatVariesItsParameter() {
        ExperimentCommand command = new ExperimentCommand();
        for (ExperimentCommand.Experiment e : ExperimentCommand.EXPERIMENTS.values()) {
            for (String value : e.values()) {
                for (StressOptions.Mode mode : e.modes()) {
                    StressOptions o = StressOptions.parse(command.arguments(e, value, mode, Ports.forSubnet(3), List.of("127.0.3.1", "127.0.3.2", "127.0.3.3")));
                    assertThat(o.mode).isEqualTo(mode);
                    assertThat(o.nodes).containsExactly("127.0.3.1", "127.0.3.2", "127.0.3.3");
                    switch (e.parameter()) {
                        case "keys-per-read" -> assertThat(o.keysPerRead).isEqualTo(Integer.parseInt(value));
                        case "keys-per-write" -> assertThat(o.keysPerWrite).isEqualTo(Integer.parseInt(value));
                        case "value-size" -> assertThat(o.valueSize).isEqualTo(Integer.parseInt(value));
                        case "write-fraction" -> assertThat(o.writeFraction).isEqualTo(Double.parseDouble(value));
                        case "partitions" -> assertThat(o.partitionsPerTxn).isEqualTo(Integer.parseInt(value));
                        case "threads" -> assertThat(o.threads).isEqualTo(Integer.parseInt(value));
                        case "zipf/write-fraction" -> {
                            assertThat(o.writeFraction).isEqualTo(Double.parseDouble(value.split("/")[1]));
                            assertThat(o.describe()).contains("zipf(1..1000," + value.split("/")[0]);
                        }
                        default -> assertThat(o.keysPerRead).isEqualTo(5); // Table 4.1 otherwise
                    }
                }
            }
        }
        assertThat(ExperimentCommand.EXPERIMENTS.get("write-batch").modes()).contains(StressOptions.Mode.BATCH);
        // Every figure has the thesis's four lines (same-host eventual among them) and plain Cassandra through CQL
        // (which the mode eventual meant before session 14).
        assertThat(ExperimentCommand.EXPERIMENTS.values()).allSatisfy(e -> assertThat(e.modes())
                .contains(StressOptions.Mode.FASTCCS, StressOptions.Mode.EIGER, StressOptions.Mode.WREN,
                        StressOptions.Mode.EVENTUAL, StressOptions.Mode.CQL));
    }

    @Test
    void theCdfGridIsIncreasingAndEndsAtTheMaximum() {
        double[] p = ExperimentCommand.percentiles();
        assertThat(p).isSorted();
        assertThat(Arrays.stream(p).distinct().count()).isEqualTo(p.length);
        assertThat(p[p.length - 1]).isEqualTo(100.0);
    }

    @Test
    void anUnknownExperimentIsAUsageError() {
        ExperimentCommand command = new ExperimentCommand();
        command.name = "fig-9";
        assertThatThrownBy(command::call).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keys-per-read");
    }

    @Test
    void aSkewPointNamesItsZipfParameterAndWriteFraction() {
        assertThat(ExperimentCommand.skewPart("1.4/0.5", 0)).isEqualTo("1.4");
        assertThat(ExperimentCommand.skewPart("1.4/0.5", 1)).isEqualTo("0.5");
        assertThatThrownBy(() -> ExperimentCommand.skewPart("1.4", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ZIPF/WRITE_FRACTION");
        assertThatThrownBy(() -> ExperimentCommand.skewPart("high/0.5", 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBadPointIsRefusedBeforeAnyClusterStarts(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
        ExperimentCommand command = new ExperimentCommand();
        command.name = "skew";
        command.points = List.of("1.0");
        command.dir = tmp.resolve("cluster");
        assertThatThrownBy(command::call).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ZIPF/WRITE_FRACTION");
        assertThat(command.dir).doesNotExist();
        command.name = "keys-per-read";
        command.points = List.of("many");
        assertThatThrownBy(command::call).isInstanceOf(IllegalArgumentException.class);
        assertThat(command.dir).doesNotExist();
    }

    @Test
    void anExperimentWhoseRunsAllFailLeavesTheEarlierResultsInPlace(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path earlier = tmp.resolve("skew.csv");
        java.nio.file.Files.writeString(earlier, ExperimentCommand.CSV_HEADER + "\nearlier results\n");
        ExperimentCommand command = new ExperimentCommand();
        command.name = "skew";
        command.points = List.of("1.0/0.2");
        command.modes = List.of("fastccs");
        command.out = tmp;
        command.primeSeconds = 0;
        command.run.seconds = 1;
        command.run.warmup = 0;
        command.remoteNodes = List.of("127.0.0.254"); // nobody listens there
        assertThat(command.call()).isEqualTo(1);
        assertThat(java.nio.file.Files.readString(earlier)).contains("earlier results");
        assertThat(tmp.resolve("skew.csv.partial")).doesNotExist();
    }
}
