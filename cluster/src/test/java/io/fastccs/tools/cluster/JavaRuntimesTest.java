package io.fastccs.tools.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JavaRuntimesTest {
    @TempDir
    Path tmp;

    @Test
    void findsAJdkCassandraRunsOn() {
        Path java = JavaRuntimes.find(); // the build itself runs on JDK 17 (or a JDK 17 is installed)
        assertThat(java).isExecutable();
        assertThat(JavaRuntimes.featureVersion(java)).hasValueSatisfying(v -> assertThat(v).isIn(11, 17));
    }

    @Test
    void refusesAJdkOfAnotherVersionAndANonExecutable() throws IOException {
        Path home = tmp.resolve("jdk-21");
        Files.createDirectories(home.resolve("bin"));
        Path java = Files.createFile(home.resolve("bin/java"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"21.0.2\"\n");
        assertThatThrownBy(() -> JavaRuntimes.checked(java)).isInstanceOf(ClusterException.class).hasMessageContaining("is not an executable java");
        assertThat(java.toFile().setExecutable(true)).isTrue();
        assertThatThrownBy(() -> JavaRuntimes.checked(java)).isInstanceOf(ClusterException.class).hasMessageContaining("JDK 21");
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"17.0.15\"\n");
        assertThat(JavaRuntimes.checked(java)).isEqualTo(java.toAbsolutePath().normalize());
    }
}
