package io.fastccs.tools.stress;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StressOptionsTest {
    @Test
    void defaultsAreTable41() {
        StressOptions o = StressOptions.parse("mixed");
        assertThat(o.writeFraction).isEqualTo(0.05);
        assertThat(o.keysPerRead).isEqualTo(5);
        assertThat(o.keysPerWrite).isEqualTo(5);
        assertThat(o.valueSize).isEqualTo(128);
        assertThat(o.mode).isEqualTo(StressOptions.Mode.FASTCCS);
        assertThat(o.duration).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.fixedRate).isZero();
        assertThat(o.populate).isTrue();
        assertThat(o.consistency).isEqualTo(StressOptions.Consistency.ONE);
        assertThat(o.replicationFactor).isEqualTo(1);
    }

    @Test
    void cassandraStressSyntax() {
        StressOptions o = StressOptions.parse("mixed", "ratio(write=1,read=3)", "duration=20s", "-rate", "threads=8", "fixed=2000/s",
                "-pop", "dist=uniform(1..500)", "-node", "127.0.0.1,127.0.0.2", "-log", "interval=2s", "hdrfile=/tmp/x.hdr",
                "-warmup", "duration=500ms", "-txn", "keys-per-read=3", "keys-per-write=2", "value-size=64", "-mode", "cql",
                "-populate", "off", "-check", "--history", "/tmp/h.txt");
        assertThat(o.command).isEqualTo(StressOptions.Command.MIXED);
        assertThat(o.writeFraction).isEqualTo(0.25);
        assertThat(o.duration).isEqualTo(Duration.ofSeconds(20));
        assertThat(o.n).isEqualTo(-1);
        assertThat(o.threads).isEqualTo(8);
        assertThat(o.fixedRate).isEqualTo(2000);
        assertThat(o.population.min()).isEqualTo(1);
        assertThat(o.population.max()).isEqualTo(500);
        assertThat(o.population.toString()).startsWith("uniform");
        assertThat(o.nodes).isEqualTo(List.of("127.0.0.1", "127.0.0.2"));
        assertThat(o.logInterval).isEqualTo(Duration.ofSeconds(2));
        assertThat(o.hdrFile).isEqualTo(Path.of("/tmp/x.hdr"));
        assertThat(o.warmup).isEqualTo(Duration.ofMillis(500));
        assertThat(o.keysPerRead).isEqualTo(3);
        assertThat(o.keysPerWrite).isEqualTo(2);
        assertThat(o.valueSize).isEqualTo(64);
        assertThat(o.mode).isEqualTo(StressOptions.Mode.CQL);
        assertThat(o.populate).isFalse();
        assertThat(o.check).isTrue();
        assertThat(o.history).isEqualTo(Path.of("/tmp/h.txt"));
    }

    @Test
    void credentialsAndTlsInCassandraStressStyle() {
        StressOptions o = StressOptions.parse("mixed", "duration=5s", "-mode", "fastccs", "user=app", "password=secret",
                "-transport", "truststore=/tmp/t.p12", "truststore-password=fastccs");
        assertThat(o.mode).isEqualTo(StressOptions.Mode.FASTCCS);
        assertThat(o.user).isEqualTo("app");
        assertThat(o.password).isEqualTo("secret");
        assertThat(o.truststore).isEqualTo(Path.of("/tmp/t.p12"));
        assertThat(o.truststorePassword).isEqualTo("fastccs");
        StressOptions plain = StressOptions.parse("mixed", "-mode", "batch");
        assertThat(plain.user).isNull();
        assertThat(plain.truststore).isNull();
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-mode", "fastccs", "user=app"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("go together");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-mode", "fastccs", "role=app"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown 'role'");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-transport", "truststore-password=x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("truststore=FILE");
    }

    @Test
    void consistencyAndReplicationForPlainCassandraInCassandraStressSyntax() {
        StressOptions o = StressOptions.parse("mixed", "duration=5s", "cl=QUORUM", "-mode", "cql", "-schema", "replication(factor=3)");
        assertThat(o.consistency).isEqualTo(StressOptions.Consistency.QUORUM);
        assertThat(o.replicationFactor).isEqualTo(3);
        assertThat(o.describe()).contains("cl=QUORUM").contains("replication(factor=3)");
        assertThat(StressOptions.parse("write", "cl=local_quorum", "-mode", "batch").consistency).isEqualTo(StressOptions.Consistency.LOCAL_QUORUM);
        assertThat(StressOptions.parse("read", "cl=ALL", "-mode", "cql").consistency).isEqualTo(StressOptions.Consistency.ALL);
        StressOptions plain = StressOptions.parse("mixed", "-mode", "cql");
        assertThat(plain.describe()).contains("cl=ONE").contains("replication(factor=1)");
        // ONE is what FastCCS mode means anyway, so cassandra-stress command lines that name it still run.
        StressOptions fastccs = StressOptions.parse("mixed", "cl=ONE", "-mode", "fastccs");
        assertThat(fastccs.consistency).isEqualTo(StressOptions.Consistency.ONE);
        assertThat(fastccs.describe()).doesNotContain("cl=").doesNotContain("replication(");
    }

    @Test
    void fastccsRefusesAConsistencyLevelOrAKeyspaceFactor() {
        assertThatThrownBy(() -> StressOptions.parse("mixed", "cl=QUORUM"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("FastCCS has its own consistency");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "cl=ALL", "-mode", "fastccs"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("FastCCS has its own consistency");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-schema", "replication(factor=3)"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replication_factor");
    }

    @Test
    void modesAreTheProtocolsOnTheFastCcsPortPlusCqlAndBatch() {
        for (String word : List.of("fastccs", "eiger", "wren", "eventual")) {
            StressOptions o = StressOptions.parse("mixed", "-mode", word);
            assertThat(o.mode.word()).isEqualTo(word);
            assertThat(o.mode.protocol()).isEqualTo(io.fastccs.core.primitives.Protocol.parse(word));
            assertThat(o.mode.plainCassandra()).isFalse();
            assertThat(o.describe()).contains("mode=" + word).doesNotContain("cl=").doesNotContain("replication(");
        }
        for (String word : List.of("cql", "batch")) {
            StressOptions o = StressOptions.parse("mixed", "-mode", word);
            assertThat(o.mode.word()).isEqualTo(word);
            assertThat(o.mode.protocol()).isNull();
            assertThat(o.mode.plainCassandra()).isTrue();
            assertThat(o.describe()).contains("mode=" + word).contains("cl=ONE");
        }
        assertThat(StressOptions.parse("mixed", "-mode", "Wren", "user=app", "password=pw").mode).isEqualTo(StressOptions.Mode.WREN);
        // eventual is the eventual protocol now: a consistency level or a keyspace factor is refused, with the new name of plain Cassandra.
        assertThatThrownBy(() -> StressOptions.parse("mixed", "cl=QUORUM", "-mode", "eventual"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-mode cql and batch")
                .hasMessageContaining("eventual protocol").hasMessageContaining("that is -mode cql now");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-mode", "eventual", "-schema", "replication(factor=3)"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replication_factor").hasMessageContaining("-mode cql now");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "cl=ALL", "-mode", "eiger"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("eiger protocol on the FastCCS port");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-mode", "wren", "-schema", "replication(factor=3)"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-mode wren runs on the FastCCS port");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-mode")).hasMessageContaining("cql or batch: plain Cassandra");
    }

    @Test
    void rejectsBadConsistencyAndSchema() {
        assertThatThrownBy(() -> StressOptions.parse("mixed", "cl=TWO", "-mode", "cql")).hasMessageContaining("unknown consistency level 'TWO'");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-mode", "cql", "-schema")).hasMessageContaining("replication(factor=N)");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-mode", "cql", "-schema", "keyspace=x")).hasMessageContaining("unknown 'keyspace=x'");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-mode", "cql", "-schema", "replication(strategy=NetworkTopologyStrategy)"))
                .hasMessageContaining("unknown 'strategy'");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-mode", "cql", "-schema", "replication(factor=0)")).hasMessageContaining("positive");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-mode", "cql", "-schema", "replication(factor=three)"))
                .isInstanceOf(NumberFormatException.class);
    }

    @Test
    void aKeyspaceMadeWithAnotherFactorIsRefused() {
        CqlBackend.checkReplication(Map.of("class", "org.apache.cassandra.locator.SimpleStrategy", "replication_factor", "3"), 3);
        assertThatThrownBy(() -> CqlBackend.checkReplication(Map.of("class", "org.apache.cassandra.locator.SimpleStrategy", "replication_factor", "1"), 3))
                .hasMessageContaining("exists with replication").hasMessageContaining("factor 3").hasMessageContaining("DROP KEYSPACE stress_plain");
        assertThatThrownBy(() -> CqlBackend.checkReplication(Map.of("class", "org.apache.cassandra.locator.NetworkTopologyStrategy", "datacenter1", "3"), 3))
                .hasMessageContaining("exists with replication");
    }

    @Test
    void readWriteAndCounts() {
        assertThat(StressOptions.parse("read", "n=100k").writeFraction).isZero();
        assertThat(StressOptions.parse("read", "n=100k").n).isEqualTo(100_000);
        assertThat(StressOptions.parse("write", "n=2m").writeFraction).isEqualTo(1);
        assertThat(StressOptions.parse("write", "n=2m").duration).isNull();
        assertThat(StressOptions.parse("mixed", "-txn", "write-fraction=0.5").writeFraction).isEqualTo(0.5);
        assertThat(StressOptions.parse("mixed", "-mode", "BATCH").mode).isEqualTo(StressOptions.Mode.BATCH);
        assertThat(StressOptions.parseDuration("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(StressOptions.parseDuration("30")).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> StressOptions.parse("scan")).hasMessageContaining("unknown command");
        assertThatThrownBy(() -> StressOptions.parse("read", "ratio(write=1,read=1)")).hasMessageContaining("mixed");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-rate", "threads=0")).hasMessageContaining("threads");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-rate", "speed=3")).hasMessageContaining("unknown");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-mode", "quorum")).hasMessageContaining("unknown mode 'quorum'")
                .hasMessageContaining("fastccs, eiger, wren or eventual");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-pop", "dist=poisson(1..9)")).hasMessageContaining("bad distribution");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-pop", "dist=uniform(1..3)")).hasMessageContaining("fewer keys");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "duration=soon")).hasMessageContaining("bad duration");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-bogus")).hasMessageContaining("unknown option");
        assertThatThrownBy(() -> StressOptions.parse("mixed", "-txn", "value-size=4")).hasMessageContaining("value-size");
    }
}
