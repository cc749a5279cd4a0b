package io.fastccs.tools.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds a java that Cassandra 5.0 runs on (JDK 11 or 17), in this order: {@code JAVA_HOME}, this JVM, the
 * {@code java} on the PATH, then the usual install directories of Debian, Red Hat and Temurin packages. A JDK's version
 * is read from its {@code release} file, so nothing is started to ask it.
 */
final class JavaRuntimes {
    private static final List<Path> WELL_KNOWN_HOMES = List.of(
            Path.of("/usr/lib/jvm/java-17-openjdk-amd64"), Path.of("/usr/lib/jvm/java-17-openjdk-arm64"),
            Path.of("/usr/lib/jvm/java-17-openjdk"), Path.of("/usr/lib/jvm/temurin-17-jdk-amd64"),
            Path.of("/usr/lib/jvm/temurin-17-jdk"), Path.of("/usr/lib/jvm/java-11-openjdk-amd64"),
            Path.of("/usr/lib/jvm/java-11-openjdk-arm64"), Path.of("/usr/lib/jvm/java-11-openjdk"));

    private JavaRuntimes() {
    }

    /** The first suitable java, or a clear error listing where it looked. */
    static Path find() {
        Set<Path> candidates = new LinkedHashSet<>();
        String javaHome = ToolProperty.Env.JAVA_HOME.get();
        if (javaHome != null && !javaHome.isBlank()) candidates.add(Path.of(javaHome, "bin", "java"));
        candidates.add(Path.of(ToolProperty.JAVA_HOME.get(), "bin", "java"));
        String path = ToolProperty.Env.PATH.get();
        if (path != null)
            for (String dir : path.split(java.io.File.pathSeparator))
                if (!dir.isBlank()) candidates.add(Path.of(dir, "java"));
        for (Path home : WELL_KNOWN_HOMES) candidates.add(home.resolve("bin").resolve("java"));
        List<String> rejected = new ArrayList<>();
        for (Path java : candidates) {
            if (!Files.isExecutable(java)) continue;
            Optional<Integer> feature = featureVersion(java);
            if (feature.isPresent() && (feature.get() == 11 || feature.get() == 17)) return java.toAbsolutePath().normalize();
            rejected.add(java + (feature.map(f -> " (JDK " + f + ")").orElse(" (version unknown)")));
        }
        throw new ClusterException("Cassandra 5.0 needs JDK 11 or 17 and none was found (JAVA_HOME, this JVM, the PATH, "
                + "/usr/lib/jvm); looked at " + (rejected.isEmpty() ? "no java at all" : String.join(", ", rejected))
                + ". Install JDK 17 or give one with --java");
    }

    /** {@code java} itself if it is an executable JDK 11 or 17 (or of unknown version), else a clear error. */
    static Path checked(Path java) {
        Path absolute = java.toAbsolutePath().normalize();
        if (!Files.isExecutable(absolute))
            throw new ClusterException(absolute + " is not an executable java");
        Optional<Integer> feature = featureVersion(absolute);
        if (feature.isPresent() && feature.get() != 11 && feature.get() != 17)
            throw new ClusterException(absolute + " is JDK " + feature.get() + "; Cassandra 5.0 runs on JDK 11 or 17 only");
        return absolute;
    }

    /** From the JDK's {@code release} file; empty when there is none. */
    static Optional<Integer> featureVersion(Path java) {
        try {
            Path release = java.toRealPath().getParent().getParent().resolve("release");
            for (String line : Files.readAllLines(release)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    String first = version.split("[.+-]")[0];
                    return Optional.of(Integer.parseInt(first.equals("1") ? version.split("\\.")[1] : first));
                }
            }
        } catch (IOException | RuntimeException e) {
            // No release file: nothing to check against.
        }
        return Optional.empty();
    }
}
