package io.fastccs.replication;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What one replica group's log costs: a group of three real Ratis servers over gRPC on 127.0.70.k, in this JVM. One
 * append waited for (a FastCCS write needs three in a row: prepare, decision, outcome), {@code pipelined} appends in
 * flight at once (group commit), and a read barrier (every reply of a leader waits for one). The baseline for tuning
 * the consensus settings; compare runs on the same machine only.
 *
 * <p>Run from {@code replication} after {@code mvn test-compile}:
 * <pre>
 * mvn -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
 * java -cp target/test-classes:target/classes:$(cat target/test-classpath.txt) org.openjdk.jmh.Main ReplicatedLogBenchmark -f 1 -wi 2 -i 3
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class ReplicatedLogBenchmark {
    @Param({"300", "30000"})
    int entryBytes;

    private TestGroups groups;
    private ReplicatedLog leader;
    private byte[] entry;

    @Setup(Level.Trial)
    public void start() throws Exception {
        groups = new TestGroups(Files.createTempDirectory("replicated-log-bench"), 3, 1, TestGroups.FAST);
        leader = groups.log(groups.awaitLeader(0, Duration.ofSeconds(30)), 0);
        entry = new byte[entryBytes];
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        Path root = groups.root;
        groups.close();
        try (var files = Files.walk(root)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** One append, committed by a majority and applied here. */
    @Benchmark
    public long append() throws Exception {
        return leader.append(entry).get(30, TimeUnit.SECONDS);
    }

    /** Sixteen appends in flight at once: time per batch of sixteen. */
    @Benchmark
    public long pipelined16() throws Exception {
        CompletableFuture<?>[] inFlight = new CompletableFuture<?>[16];
        for (int i = 0; i < inFlight.length; i++) inFlight[i] = leader.append(entry);
        CompletableFuture.allOf(inFlight).get(30, TimeUnit.SECONDS);
        return inFlight.length;
    }

    /** A lease-checked read barrier at the leader. */
    @Benchmark
    public void readBarrier() throws Exception {
        leader.readBarrier().get(30, TimeUnit.SECONDS);
    }
}
