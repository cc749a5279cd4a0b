package io.fastccs.server.config;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.primitives.Protocol;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FastCcsSettingsTest {
    @Test
    void defaultsAreTheDocumentedOnes() {
        FastCcsSettings s = FastCcsSettings.defaults();
        assertThat(s.port()).isEqualTo(9142);
        assertThat(s.partitions()).isZero();
        assertThat(s.ringSettleTime().toMicroseconds()).isEqualTo(10_000_000);
        assertThat(s.startupTimeout().toMilliseconds()).isEqualTo(600_000);
        assertThat(s.versionCacheKeys()).isEqualTo(100_000);
        assertThat(s.maxFrameSize().toBytes()).isEqualTo(16 << 20);
        assertThat(s.keyspace()).isEqualTo("fastccs");
        PartitionConfig c = s.partitionConfig();
        assertThat(c.transactionTimeoutMicros()).isEqualTo(2_000_000);
        assertThat(c.checkIntervalMicros()).isEqualTo(200_000);
        assertThat(c.stabilizationIntervalMicros()).isEqualTo(5_000);
        assertThat(c.gcIntervalMicros()).isEqualTo(500_000);
        assertThat(c.versionRetentionMicros()).isEqualTo(2_000_000);
        assertThat(c.decisionRetentionMicros()).isEqualTo(60_000_000);
        assertThat(c.maxKeysPerRequest()).isEqualTo(1024);
        assertThat(c.maxKeyBytes()).isEqualTo(65535);
        assertThat(c.maxValueBytes()).isEqualTo(1 << 20);
        assertThat(s.toString()).isEqualTo("defaults");
    }

    @Test
    void theProtocolIsFastCcsUnlessNamedAndTheComparedOnesRunAtReplicationFactorOne() {
        assertThat(FastCcsSettings.defaults().protocols()).containsExactly(Protocol.FASTCCS);
        assertThat(FastCcsSettings.of(Map.of("protocol", "Eiger")).protocols()).containsExactly(Protocol.EIGER);
        assertThat(FastCcsSettings.of(Map.of("protocol", "wren", "replication_factor", "1")).protocols()).containsExactly(Protocol.WREN);
        assertThat(FastCcsSettings.of(Map.of("protocol", "eventual, fastccs,eiger,wren")).protocols())
                .containsExactly(Protocol.FASTCCS, Protocol.EIGER, Protocol.WREN, Protocol.EVENTUAL);
        assertThat(FastCcsSettings.of(Map.of("protocol", "fastccs", "replication_factor", "3")).replicationFactor()).isEqualTo(3);
        assertThatThrownBy(() -> FastCcsSettings.of(Map.of("protocol", "fastccs,")))
                .hasMessageContaining("names no protocol");
        assertThatThrownBy(() -> FastCcsSettings.of(Map.of("protocol", "fastccs,wren", "replication_factor", "3")))
                .hasMessageContaining("protocol: wren: the compared protocols run at replication_factor 1 only");
        assertThatThrownBy(() -> FastCcsSettings.of(Map.of("protocol", "cops")))
                .hasMessage("FastCCS setting protocol: unknown protocol 'cops'; known: fastccs, eiger, wren, eventual");
        assertThatThrownBy(() -> FastCcsSettings.of(Map.of("protocol", "eventual", "replication_factor", "3")))
                .hasMessageContaining("eventual: the compared protocols run at replication_factor 1 only");
    }

    @Test
    void unitsAsInCassandraYaml() {
        FastCcsSettings s = FastCcsSettings.of(Map.of("transaction_timeout", "3s", "check_interval", "150ms",
                "stabilization_interval", "500us", "decision_retention", "2m", "max_value_size", "64KiB",
                "max_frame_size", "1MiB", "port", "0"));
        PartitionConfig c = s.partitionConfig();
        assertThat(c.transactionTimeoutMicros()).isEqualTo(3_000_000);
        assertThat(c.versionRetentionMicros()).as("follows the transaction timeout unless set").isEqualTo(3_000_000);
        assertThat(c.checkIntervalMicros()).isEqualTo(150_000);
        assertThat(c.stabilizationIntervalMicros()).isEqualTo(500);
        assertThat(c.decisionRetentionMicros()).isEqualTo(120_000_000);
        assertThat(c.maxValueBytes()).isEqualTo(64 << 10);
        assertThat(s.maxFrameSize().toBytes()).isEqualTo(1 << 20);
        assertThat(s.port()).isZero();
        assertThat(FastCcsSettings.of(Map.of("version_retention", "5s")).partitionConfig().versionRetentionMicros()).isEqualTo(5_000_000);
        assertThat(FastCcsSettings.defaults().partitionConfig().stabilizationFanout()).isEqualTo(32);
        assertThat(FastCcsSettings.of(Map.of("stabilization_fanout", "2")).partitionConfig().stabilizationFanout()).isEqualTo(2);
        assertThatThrownBy(() -> FastCcsSettings.of(Map.of("stabilization_fanout", "0"))).hasMessageContaining("stabilization_fanout");
    }

    @Test
    void theTestClockOffsetIsASignedDurationAndOpensItsControlOnlyWhenGiven() {
        assertThat(FastCcsSettings.defaults().testClockOffsetMicros()).isZero();
        assertThat(FastCcsSettings.defaults().testClockControl()).isFalse();
        FastCcsSettings behind = FastCcsSettings.of(Map.of("test_clock_offset", "-700ms"));
        assertThat(behind.testClockOffsetMicros()).isEqualTo(-700_000);
        assertThat(behind.testClockControl()).isTrue();
        assertThat(FastCcsSettings.of(Map.of("test_clock_offset", "+2s")).testClockOffsetMicros()).isEqualTo(2_000_000);
        assertThat(FastCcsSettings.of(Map.of("test_clock_offset", "250us")).testClockOffsetMicros()).isEqualTo(250);
        FastCcsSettings zero = FastCcsSettings.of(Map.of("test_clock_offset", "0ms"));
        assertThat(zero.testClockOffsetMicros()).isZero();
        assertThat(zero.testClockControl()).as("given, even as zero: the nemesis steps it later").isTrue();
        for (String bad : List.of("-", "2", "--2s", "+-2s", "2 s", "-2h"))
            assertThatThrownBy(() -> FastCcsSettings.of(Map.of("test_clock_offset", bad)))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("test_clock_offset");
    }

    @Test
    void theTestRaftCutOffIsAListOfAddressesAndOpensItsControlOnlyWhenGiven() {
        assertThat(FastCcsSettings.defaults().testRaftCutOff()).isEmpty();
        assertThat(FastCcsSettings.defaults().testRaftCutOffControl()).isFalse();
        FastCcsSettings none = FastCcsSettings.of(Map.of("test_raft_cut_off", "none"));
        assertThat(none.testRaftCutOff()).isEmpty();
        assertThat(none.testRaftCutOffControl()).as("given, even as none: the nemesis cuts later").isTrue();
        assertThat(FastCcsSettings.of(Map.of("test_raft_cut_off", "127.0.64.2, 127.0.64.3")).testRaftCutOff())
                .containsExactly("127.0.64.2", "127.0.64.3");
        for (String bad : List.of("node2", "127.0.0.1;127.0.0.2", "127.0.0", "127.0.0.1,,127.0.0.2"))
            assertThatThrownBy(() -> FastCcsSettings.of(Map.of("test_raft_cut_off", bad)))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("test_raft_cut_off");
    }

    @Test
    void badValuesNameTheirKey() {
        assertThatThrownBy(() -> FastCcsSettings.of(Map.of("transaction_timeout", "2 seconds")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("transaction_timeout");
        assertThatThrownBy(() -> FastCcsSettings.of(Map.of("max_value_size", "1MB")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max_value_size");
        assertThatThrownBy(() -> FastCcsSettings.of(Map.of("max_frame_size", "4GiB")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max_frame_size");
        assertThatThrownBy(() -> FastCcsSettings.of(Map.of("port", "70000")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port").hasMessageContaining("0..65535");
        assertThatThrownBy(() -> FastCcsSettings.of(Map.of("version_cache_keys", "many")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version_cache_keys");
        assertThatThrownBy(() -> FastCcsSettings.of(Map.of("transaction_timeot", "2s")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown FastCCS setting 'transaction_timeot'")
                .hasMessageContaining("transaction_timeout");
    }

    @Test
    void yamlFileWithOverrides() {
        Map<String, String> fromYaml = FastCcsSettings.parseYaml(new StringReader("port: 9200\ntransaction_timeout: 4s\n"), "fastccs.yaml");
        assertThat(FastCcsSettings.of(fromYaml).port()).isEqualTo(9200);
        assertThat(FastCcsSettings.of(fromYaml).toString()).contains("port=9200").contains("transaction_timeout=4s");
        assertThatThrownBy(() -> FastCcsSettings.parseYaml(new StringReader("prot: 1\n"), "fastccs.yaml"))
                .hasMessageContaining("fastccs.yaml").hasMessageContaining("prot");
        assertThatThrownBy(() -> FastCcsSettings.parseYaml(new StringReader("- a\n- b\n"), "fastccs.yaml"))
                .hasMessageContaining("expected a map");
    }

    @Test
    void everySettingHasAJvmPropertyAndItsDefaultParses() {
        for (FastCcsProperty p : FastCcsProperty.values()) {
            if (!p.isSetting) continue;
            assertThat(p.property).isEqualTo("fastccs." + p.key);
            if (p.defaultValue != null)
                assertThat(FastCcsSettings.of(Map.of(p.key, p.defaultValue))).as(p.key).isNotNull();
        }
    }

    /** Every JVM property goes through {@link FastCcsProperty}: no System.getProperty anywhere else in the plugin. */
    @Test
    void noJvmPropertyIsReadOutsideTheEnum() throws IOException {
        Path main = Path.of("src/main/java");
        List<String> offenders;
        try (Stream<Path> files = Files.walk(main)) {
            offenders = files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("FastCcsProperty.java"))
                    .filter(f -> {
                        try {
                            String text = Files.readString(f);
                            return text.contains("System.getProperty(") || text.contains("System.setProperty(")
                                    || text.contains("Integer.getInteger(") || text.contains("Long.getLong(")
                                    || text.contains("Boolean.getBoolean(");
                        } catch (IOException e) {
                            throw new RuntimeException(e);
                        }
                    }).map(Path::toString).toList();
        }
        assertThat(offenders).isEmpty();
    }
}
