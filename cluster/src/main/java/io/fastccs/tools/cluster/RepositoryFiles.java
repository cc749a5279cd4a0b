package io.fastccs.tools.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** What the tool takes from the FastCCS repository by default: where it is, and what its build made for the nodes. */
final class RepositoryFiles {
    private RepositoryFiles() {
    }

    /**
     * The repository root: {@code -Dfastccs.root}, else the first directory above this class's jar (or the
     * working directory) that holds a pom.xml and a server-patch module.
     */
    static Optional<Path> repoRoot() {
        String property = ToolProperty.REPOSITORY_ROOT.get();
        if (property != null)
            return Optional.of(Path.of(property).toAbsolutePath().normalize());
        List<Path> starts = new ArrayList<>();
        try {
            starts.add(Path.of(RepositoryFiles.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (Exception e) {
            // No code location (unusual class loader): the working directory is the only hint left.
        }
        starts.add(Path.of("").toAbsolutePath());
        for (Path start : starts)
            for (Path p = start.toAbsolutePath().normalize(); p != null; p = p.getParent())
                if (Files.isRegularFile(p.resolve("pom.xml")) && Files.isDirectory(p.resolve("server-patch")))
                    return Optional.of(p);
        return Optional.empty();
    }

    /** {@code <repo>/.cluster}. */
    static Path defaultDir() {
        return requireRepoRoot("the cluster directory (give one with --dir)").resolve(".cluster");
    }

    static Path defaultNodeClasspathFile() {
        return requireRepoRoot("the node classpath").resolve("server-patch/target/node-classpath.txt");
    }

    /** The server-patch module's agent jar, whatever the project version; the expected name when none is built. */
    static Path defaultAgentJar() {
        Path target = requireRepoRoot("the agent jar").resolve("server-patch/target");
        try (Stream<Path> jars = Files.list(target)) {
            List<Path> agents = jars.filter(p -> p.getFileName().toString().matches("fastccs-server-patch-.*-agent\\.jar")).toList();
            if (agents.size() == 1)
                return agents.get(0);
        } catch (IOException e) {
            // Not built yet: start reports the expected path as missing.
        }
        return target.resolve("fastccs-server-patch-0.1.0-SNAPSHOT-agent.jar");
    }

    private static Path requireRepoRoot(String forWhat) {
        return repoRoot().orElseThrow(() -> new ClusterException("cannot find the FastCCS repository, which locates "
                + forWhat + "; run from inside it or pass -Dfastccs.root=DIR"));
    }

    /** The nodes' classpath from {@code file}, every jar it names checked to exist. */
    static String readNodeClasspath(Path file) {
        if (!Files.isRegularFile(file))
            throw new ClusterException("the node classpath " + file + " is missing: run mvn -B -DskipTests package first (bin/fastccs builds by itself)");
        try {
            String classpath = Files.readString(file).trim();
            for (String jar : classpath.split(File.pathSeparator))
                if (!Files.exists(Path.of(jar)))
                    throw new ClusterException("the node classpath " + file + " names " + jar
                            + ", which is missing: run mvn -B -DskipTests package first (bin/fastccs builds by itself)");
            return classpath;
        } catch (IOException e) {
            throw new ClusterException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
