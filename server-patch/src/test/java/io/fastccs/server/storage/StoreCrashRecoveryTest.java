package io.fastccs.server.storage;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node crashes right after the store's writes are durable, before any memtable is flushed, and restarts: the
 * store's records and versions must come back from commit log replay alone. Each node runs in a child JVM
 * ({@link StoreCrashProbe}), since Cassandra cannot restart inside one JVM.
 */
class StoreCrashRecoveryTest {

    @Test
    void everythingDurableSurvivesACrashThroughCommitLogReplay() throws Exception {
        Path dir = newNodeDirectory();
        runProbe("write", dir);
        assertThat(sstablesOf(dir, StorageSchema.LOCAL_KEYSPACE)).as("nothing flushed before the crash").isEmpty();
        runProbe("read", dir);
        String expected = Files.readString(dir.resolve(StoreCrashProbe.EXPECTED));
        assertThat(expected).contains("record ", "decision ", "version ");
        assertThat(Files.readString(dir.resolve(StoreCrashProbe.ACTUAL))).isEqualTo(expected);
    }

    /**
     * Why {@link StorageStartupHook} exists: registered only after replay, the local keyspace's unflushed records
     * are skipped by replay and lost, while the versions (a replicated-schema table, known at replay) survive.
     */
    @Test
    void withoutTheStartupHookReplaySkipsTheLocalRecords() throws Exception {
        Path dir = newNodeDirectory();
        runProbe("write", dir);
        runProbe("read-without-hook", dir);
        String actual = Files.readString(dir.resolve(StoreCrashProbe.ACTUAL));
        assertThat(actual).startsWith("snapshot null\n").doesNotContain("record ", "decision ").contains("version ");
    }

    private static Path newNodeDirectory() throws IOException {
        Path base = Paths.get("target", "embedded-cassandra").toAbsolutePath();
        Files.createDirectories(base);
        return Files.createTempDirectory(base, "crash-");
    }

    private static void runProbe(String mode, Path dir) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
            if (!arg.startsWith("-Dfastccs.test.log") && !arg.startsWith("-agentlib") && !arg.startsWith("-javaagent")) command.add(arg);
        command.add("-Dfastccs.test.log=" + dir.resolve("child-" + mode + ".log"));
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(StoreCrashProbe.class.getName());
        command.add(mode);
        command.add(dir.toString());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("child-" + mode + ".out").toFile())
                .start();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("probe " + mode + " did not finish; see " + dir);
        }
        assertThat(process.exitValue()).as("probe %s exit status; output in %s", mode, dir).isZero();
    }

    private static List<Path> sstablesOf(Path dir, String keyspace) throws IOException {
        Path data = dir.resolve("data").resolve(keyspace);
        if (!Files.exists(data)) return List.of();
        try (Stream<Path> files = Files.walk(data)) {
            return files.filter(p -> p.getFileName().toString().endsWith("-Data.db")).toList();
        }
    }
}
