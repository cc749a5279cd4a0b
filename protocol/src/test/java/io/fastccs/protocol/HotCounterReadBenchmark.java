package io.fastccs.protocol;

import io.fastccs.core.messages.KeyValue;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.primitives.WriteKind;
import io.fastccs.core.typed.Operands;
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
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * A read's work on one hot counter holding {@code operations} unfolded adds (all within one retention, so garbage
 * collection cannot fold them yet): round one, which starts from the partition's running fold (RunningFolds), against
 * a round two at a clock older than that fold, which folds every operation one by one.
 *
 * <p>Run from {@code protocol} after {@code mvn test-compile}:
 * <pre>
 * mvn -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
 * java -cp target/test-classes:target/classes:$(cat target/test-classpath.txt) org.openjdk.jmh.Main HotCounterRead -f 1 -wi 2 -i 3
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class HotCounterReadBenchmark {
    @Param({"100", "1000", "10000"})
    int operations;

    private TestCluster c;
    private Key k;
    private VectorClock olderClock;
    private long firstRoundTime;

    @Setup(Level.Trial)
    public void setUp() {
        c = new TestCluster(2, TestCluster.defaultConfig().toBuilder().versionRetentionMicros(Long.MAX_VALUE / 4).build());
        k = c.key(0, 0);
        Random random = new Random(1);
        // Another session writes partition 1 once, so svc's entry for it is 1 while the adds' clocks say 0.
        c.runWrite(c.session(2).write(List.of(new KeyValue(c.key(1, 0), new byte[]{1})), random));
        ClientSession s = c.session(1);
        for (int i = 0; i < operations; i++) {
            c.advanceTo(c.now() + 10); // commit times stay near the partition's clock
            c.runWrite(s.write(List.of(new KeyValue(k, Operands.number(1), WriteKind.ADD)), random));
            c.stabilizeAll();
        }
        ReadReply first = c.read1(0, VectorClock.zero(2), k).read(); // builds the running fold, at svc
        firstRoundTime = first.serverTime();
        // Every add is within this clock, which is below the running fold's (partition 1's entry): the slow path.
        olderClock = VectorClock.of(new long[]{first.snapshot().get(0), 0});
        if (Operands.number(java.util.Arrays.copyOfRange(roundTwoFoldingEveryOperation().values().get(0).value(), 1, 9)) != operations)
            throw new IllegalStateException("round two does not fold every operation");
    }

    @Benchmark
    public ReadReply roundOneFromTheRunningFold() {
        return c.read1(0, VectorClock.zero(2), k).read();
    }

    @Benchmark
    public ReadReply roundTwoFoldingEveryOperation() {
        return c.read2(0, olderClock, firstRoundTime, k).read();
    }
}
