package io.fastccs.tools.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterStateTest {
    @TempDir
    Path dir;

    @Test
    void survivesASaveAndLoad() throws IOException {
        ClusterState state = new ClusterState(3, new Ports(0, 7000, 9042, 9142, 7199), true, "256M", "1G",
                Path.of("/jdk/bin/java"), Path.of("/b/cp.txt"), Path.of("/b/agent.jar"), Map.of(1, 100L, 3, 300L));
        Path file = dir.resolve(ClusterState.FILE_NAME);

        state.save(file);

        assertThat(ClusterState.load(file)).isEqualTo(state);
        assertThat(ClusterState.load(file).pid(2)).isZero();
    }

    @Test
    void nodeSettingsSurviveASaveAndLoadAndAPidChange() throws IOException {
        ClusterState state = new ClusterState(1, Ports.DEFAULT, true, "256M", "768M", Path.of("/j"), Path.of("/cp"),
                Path.of("/agent.jar"), Map.of(), Map.of("startup_timeout", "1s", "transaction_timeout", "3s"));
        Path file = dir.resolve(ClusterState.FILE_NAME);

        state.withPid(1, 7).save(file);

        assertThat(ClusterState.load(file).nodeSettings()).containsExactlyEntriesOf(
                new java.util.TreeMap<>(Map.of("startup_timeout", "1s", "transaction_timeout", "3s")));
    }

    @Test
    void aPendingReplacementSurvivesASaveAndLoadAndIsForgottenOnceServed() throws IOException {
        ClusterState state = new ClusterState(3, Ports.DEFAULT, true, "256M", "768M", Path.of("/j"), Path.of("/cp"),
                Path.of("/agent.jar"), Map.of(), Map.of()).withReplacing(2, true).withPid(2, 9);
        Path file = dir.resolve(ClusterState.FILE_NAME);

        state.save(file);
        ClusterState loaded = ClusterState.load(file);

        assertThat(loaded.replacing(2)).isTrue();
        assertThat(loaded.replacing(1)).isFalse();
        assertThat(loaded.withoutPid(2).replacing(2)).as("a kill does not end a replacement").isTrue();
        loaded.withReplacing(2, false).save(file);
        assertThat(ClusterState.load(file).replacing()).isEmpty();
        assertThatThrownBy(() -> state.withReplacing(4, true)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no node 4");
    }

    @Test
    void pidsComeAndGo() {
        ClusterState state = new ClusterState(2, Ports.DEFAULT, false, "256M", "768M", Path.of("/j"), Path.of("/cp"), null, Map.of());

        assertThat(state.withPid(2, 42).pid(2)).isEqualTo(42);
        assertThat(state.withPid(2, 42).withoutPid(2).pids()).isEmpty();
    }

    @Test
    void aDamagedFileSaysWhatIsMissing() throws IOException {
        Path file = dir.resolve(ClusterState.FILE_NAME);
        Files.writeString(file, "nodes=3\n");

        assertThatThrownBy(() -> ClusterState.load(file)).isInstanceOf(IOException.class).hasMessageContaining("no port.storage");
    }
}
