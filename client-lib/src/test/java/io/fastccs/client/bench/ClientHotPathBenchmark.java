package io.fastccs.client.bench;

import io.fastccs.protocol.ClientSession;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.Outgoing;
import io.fastccs.protocol.ReadTransaction;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.messages.RingMember;
import io.fastccs.core.ring.Murmur3Token;
import io.fastccs.core.ring.TokenRing;
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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client's CPU hot path, without I/O: routing a key (Murmur3 token and ring lookup), merging vector clocks, and
 * a whole read transaction's round-one check over 5 partitions fed with prepared replies.
 *
 * <p>Run from {@code client-lib} after {@code mvn test-compile}:
 * <pre>
 * mvn -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
 * java -cp target/test-classes:target/classes:$(cat target/test-classpath.txt) org.openjdk.jmh.Main ClientHotPath -f 1 -wi 2 -i 3
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ClientHotPathBenchmark {

    /** A 16-node ring (even tokens, as a local cluster has) and 1024 keys like "user:0000001234". */
    @State(Scope.Thread)
    public static class Routing {
        TokenRing ring;
        byte[][] keys;
        int next;

        @Setup
        public void setup() {
            List<RingMember> members = new ArrayList<>();
            long step = Long.divideUnsigned(-1L, 16);
            for (int p = 0; p < 16; p++) members.add(new RingMember(p, "10.0.0." + p, 9142, Long.MIN_VALUE + step * (p + 1), true));
            ring = TokenRing.of(members);
            keys = new byte[1024][];
            for (int i = 0; i < keys.length; i++) keys[i] = String.format("user:%010d", i * 7919).getBytes(StandardCharsets.UTF_8);
        }

        byte[] nextKey() {
            return keys[next++ & 1023];
        }
    }

    @Benchmark
    public long murmur3Token(Routing s) {
        return Murmur3Token.tokenOf(s.nextKey());
    }

    @Benchmark
    public int routeKey(Routing s) {
        return s.ring.ownerOf(Key.wrap(s.nextKey()));
    }

    /** Two clocks that each lead on half the entries, so the merge builds a new clock. */
    @State(Scope.Thread)
    public static class Clocks {
        @Param({"8", "64"})
        int partitions;
        VectorClock a;
        VectorClock b;
        VectorClock merged;

        @Setup
        public void setup() {
            SplittableRandom random = new SplittableRandom(1);
            long[] x = new long[partitions];
            long[] y = new long[partitions];
            for (int i = 0; i < partitions; i++) {
                long base = 1_000_000 + random.nextInt(1_000_000);
                x[i] = base + (i % 2 == 0 ? 5 : 0);
                y[i] = base + (i % 2 == 0 ? 0 : 5);
            }
            a = VectorClock.of(x);
            b = VectorClock.of(y);
            merged = a.max(b);
        }
    }

    @Benchmark
    public VectorClock clockMerge(Clocks s) {
        return s.a.max(s.b);
    }

    /** A full scan: every entry of {@code a} is within the merged clock. */
    @Benchmark
    public boolean clockCovers(Clocks s) {
        return s.a.leq(s.merged);
    }

    /**
     * A read of 10 keys on 5 of 8 partitions: replies whose snapshots cover every returned commit clock, so the
     * check passes and the read finishes in one round (the common case).
     */
    @State(Scope.Thread)
    public static class RoundOne {
        static final int PARTITIONS = 8;
        ClientSession session;
        List<Key> keys;
        final Map<Integer, List<ReadValue>> valuesByPartition = new HashMap<>();
        final Map<Integer, VectorClock> commitClockByPartition = new HashMap<>();
        VectorClock snapshot;

        @Setup(Level.Trial)
        public void setup() {
            List<RingMember> members = new ArrayList<>();
            long step = Long.divideUnsigned(-1L, PARTITIONS);
            for (int p = 0; p < PARTITIONS; p++) members.add(new RingMember(p, "h" + p, 1, Long.MIN_VALUE + step * (p + 1), true));
            TokenRing ring = TokenRing.of(members);
            AtomicLong ids = new AtomicLong();
            session = new ClientSession(ring, 42, VectorClock.zero(PARTITIONS), 0, ids::incrementAndGet);
            Map<Integer, Integer> perPartition = new HashMap<>();
            keys = new ArrayList<>();
            for (int i = 0; keys.size() < 10; i++) {
                Key k = Key.of("k" + i);
                int p = ring.ownerOf(k);
                if (p >= 5 || perPartition.getOrDefault(p, 0) == 2) continue;
                perPartition.merge(p, 1, Integer::sum);
                keys.add(k);
            }
            long[] svc = new long[PARTITIONS];
            for (int p = 0; p < PARTITIONS; p++) svc[p] = 1_000 + p;
            snapshot = VectorClock.of(svc);
            for (int p = 0; p < 5; p++) {
                long[] ctm = svc.clone();
                for (int q = 0; q < PARTITIONS; q++) ctm[q] -= (p + q) % 3; // different per partition, all within svc
                commitClockByPartition.put(p, VectorClock.of(ctm));
                valuesByPartition.put(p, new ArrayList<>());
            }
            for (Key k : keys) valuesByPartition.get(ring.ownerOf(k)).add(new ReadValue(k, new byte[16], 900));
            valuesByPartition.replaceAll((p, values) -> List.copyOf(values)); // as decoded replies are: no copy per reply
        }
    }

    @Benchmark
    public ReadTransaction.Result roundOneCheck(RoundOne s) {
        ReadTransaction txn = s.session.read(s.keys);
        List<Outgoing> requests = txn.start();
        for (Outgoing o : requests) {
            FirstRoundRead r = (FirstRoundRead) o.request();
            txn.onResponse(new ReadReply(r.requestId(), s.valuesByPartition.get(o.partition()), s.snapshot,
                    s.commitClockByPartition.get(o.partition()), 0, 0, List.of(), false));
        }
        return txn.result();
    }
}
