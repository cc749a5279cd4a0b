package io.fastccs.client;

import io.fastccs.check.CheckResult;
import io.fastccs.check.History;
import io.fastccs.check.Op;
import io.fastccs.check.TccChecker;
import io.fastccs.check.Txn;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.ring.TokenRing;
import io.fastccs.server.node.InProcessCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The client against real FastCCS nodes (in-process, real sockets, in-memory stores) of a 3-partition cluster. */
class InProcessClusterEndToEndTest {
    private static final int PARTITIONS = 3;
    private static InProcessCluster cluster;
    private static FastCcsClient client;

    @BeforeAll
    static void start() throws Exception {
        cluster = InProcessCluster.start(PARTITIONS);
        client = FastCcsClient.builder().addContactPoints(cluster.contactPoints()).build();
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
        if (cluster != null) cluster.close();
    }

    /** {@code n} keys with the given prefix on each partition. */
    private static List<String> keysPerPartition(String prefix, int n) {
        TokenRing ring = TokenRing.of(cluster.node(0).ring().members());
        List<List<String>> byPartition = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) byPartition.add(new ArrayList<>());
        for (int i = 0; byPartition.stream().anyMatch(l -> l.size() < n); i++) {
            String k = prefix + i;
            List<String> l = byPartition.get(ring.ownerOf(Key.of(k)));
            if (l.size() < n) l.add(k);
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) for (List<String> l : byPartition) out.add(l.get(i));
        return out;
    }

    @Test
    void readsItsOwnWritesAcrossPartitions() {
        CausalSession s = client.session();
        List<String> keys = keysPerPartition("ryw-", 2);
        Map<String, String> writes = new LinkedHashMap<>();
        for (String k : keys) writes.put(k, "v1-" + k);
        WriteResult w = s.write(writes);
        assertThat(w.partitionsTouched()).isEqualTo(PARTITIONS);
        assertThat(w.size()).isEqualTo(keys.size());

        ReadResult r = s.read(keys);
        for (String k : keys) assertThat(r.getString(k)).isEqualTo("v1-" + k);
        assertThat(r.partitionsTouched()).isEqualTo(PARTITIONS);

        s.write(Map.of(keys.get(0), "v2"));
        assertThat(s.read(keys.get(0), "never-written").getString(keys.get(0))).isEqualTo("v2");
        assertThat(s.read("never-written").exists("never-written")).isFalse();
        long[] clock = s.exportToken().clock();
        for (int p = 0; p < PARTITIONS; p++) assertThat(clock[p]).isPositive();
    }

    @Test
    void exportedTokenCarriesCausalityToAnotherProcess() throws Exception {
        List<String> keys = keysPerPartition("token-", 1);
        CausalSession alice = client.session();
        alice.write(Map.of(keys.get(0), "from-alice"));
        String token = alice.exportToken().toString();

        // Another process: its own client, a session resumed from the token.
        try (FastCcsClient other = FastCcsClient.builder().addContactPoint(cluster.contactPoints().get(2)).build()) {
            CausalSession bob = other.session(CausalToken.parse(token));
            assertThat(bob.read(keys.get(0)).getString(keys.get(0))).isEqualTo("from-alice");
            bob.write(Map.of(keys.get(1), "from-bob-after-alice"));
            CausalSession carol = client.session(bob.exportToken());
            ReadResult r = carol.read(keys.get(0), keys.get(1));
            assertThat(r.getString(keys.get(0))).isEqualTo("from-alice");
            assertThat(r.getString(keys.get(1))).isEqualTo("from-bob-after-alice");
        }
        CausalToken foreign = CausalToken.of(new long[PARTITIONS], 42);
        assertThatThrownBy(() -> client.session(foreign)).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void badInputIsRefusedByTheClientOrTheNodes() throws Exception {
        CausalSession s = client.session();
        assertThatThrownBy(() -> s.read(List.of())).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> s.read("")).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> s.read("a", "a")).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> s.write(Map.of("k", ""))).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> s.write(Map.of("k", "x".repeat((1 << 20) + 1)))).isInstanceOf(InvalidRequestException.class);
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 1025; i++) many.add("k" + i);
        assertThatThrownBy(() -> s.read(many)).isInstanceOf(InvalidRequestException.class);

        // A client whose limits exceed the nodes': the node refuses, the write is aborted, the session goes on.
        try (FastCcsClient lax = FastCcsClient.builder().addContactPoints(cluster.contactPoints())
                .withMaxValueSize(32 << 20).build()) {
            CausalSession t = lax.session();
            assertThatThrownBy(() -> t.write(Map.of("big", "x".repeat(2 << 20))))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("refused");
            assertThatThrownBy(() -> t.write(Map.of("huge", "x".repeat(17 << 20))))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("frame");
            assertThat(t.hasUnconfirmedWrite()).isFalse();
            t.write(Map.of("small", "ok"));
            assertThat(t.read("small").getString("small")).isEqualTo("ok");
        }
    }

    /**
     * Writers write keys in pairs on different partitions (always together) and random subsets of all keys;
     * readers read random subsets concurrently. Every read must see both or neither of a pair's write, and the
     * whole history must be transactionally causally consistent.
     */
    @Test
    void concurrentMultiPartitionWritesAreAtomicAndTheHistoryIsCausal() throws Exception {
        List<String> keys = keysPerPartition("acct-", 2); // 6 keys, two per partition
        String pairA = keys.get(0), pairB = keys.get(1);   // on partitions 0 and 1, only ever written together
        List<String> unpaired = keys.subList(2, keys.size());
        AtomicLong ids = new AtomicLong();
        List<List<Txn>> sessions = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            long sessionId = 100 + w;
            long seed = w;
            threads.add(new Thread(() -> {
                List<Txn> history = new ArrayList<>();
                sessions.add(history);
                SplittableRandom random = new SplittableRandom(seed);
                CausalSession s = client.session();
                try {
                    for (int i = 0; i < 40; i++) {
                        long value = ids.incrementAndGet();
                        List<String> subset = i % 2 == 0 ? List.of(pairA, pairB) : randomSubset(unpaired, random);
                        Map<String, String> writes = new LinkedHashMap<>();
                        List<Op> ops = new ArrayList<>();
                        for (String k : subset) {
                            writes.put(k, Long.toString(value));
                            ops.add(Op.write(keys.indexOf(k), value));
                        }
                        s.write(writes);
                        history.add(new Txn(value, sessionId, true, ops));
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }, "writer-" + w));
        }
        for (int r = 0; r < 2; r++) {
            long sessionId = 200 + r;
            long seed = 10 + r;
            threads.add(new Thread(() -> {
                List<Txn> history = new ArrayList<>();
                sessions.add(history);
                SplittableRandom random = new SplittableRandom(seed);
                CausalSession s = client.session();
                try {
                    for (int i = 0; i < 80; i++) {
                        List<String> subset = i % 2 == 0 ? List.of(pairA, pairB) : randomSubset(keys, random);
                        ReadResult result = s.read(subset);
                        if (i % 2 == 0)
                            assertThat(result.getString(pairA)).as("pair read %d", i).isEqualTo(result.getString(pairB));
                        List<Op> ops = new ArrayList<>();
                        for (String k : subset) ops.add(Op.read(keys.indexOf(k), valueOf(result.getString(k))));
                        history.add(new Txn(ids.incrementAndGet(), sessionId, true, ops));
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }, "reader-" + r));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) t.join(60_000);
        assertThat(failures).isEmpty();

        // Convergence: once quiet, a fresh session reads everything.
        Thread.sleep(500);
        ReadResult last = client.session().read(keys);
        List<Op> finalOps = new ArrayList<>();
        for (String k : keys) finalOps.add(Op.read(keys.indexOf(k), valueOf(last.getString(k))));

        History.Builder h = History.builder();
        for (List<Txn> session : sessions) session.forEach(h::add);
        h.add(new Txn(ids.incrementAndGet(), 999, true, finalOps)).finalSession(999);
        CheckResult check = TccChecker.check(h.build());
        assertThat(check.ok()).as(check.summary()).isTrue();
        assertThat(check.committedTransactions()).isEqualTo(2 * 40 + 2 * 80 + 1);
    }

    private static List<String> randomSubset(List<String> keys, SplittableRandom random) {
        List<String> shuffled = new ArrayList<>(keys);
        Collections.shuffle(shuffled, new java.util.Random(random.nextLong()));
        return shuffled.subList(0, 1 + random.nextInt(keys.size()));
    }

    private static long valueOf(String s) {
        return s == null ? 0 : Long.parseLong(s);
    }

    @Test
    void clientRecoversByItselfWhenANodeRestartsMidWork() throws Exception {
        try (InProcessCluster own = InProcessCluster.start(PARTITIONS);
             FastCcsClient c = FastCcsClient.builder().addContactPoints(own.contactPoints())
                     .withRequestTimeout(Duration.ofSeconds(1))
                     .withReconnectDelay(Duration.ofMillis(50), Duration.ofMillis(400))
                     .build()) {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 9; i++) keys.add("restart-" + i);
            Map<String, Long> confirmed = new HashMap<>();
            Set<String> errors = Collections.synchronizedSet(new HashSet<>());
            CausalSession s = c.session();
            AtomicLong counter = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            Thread worker = new Thread(() -> {
                while (!stop.get()) {
                    long v = counter.incrementAndGet();
                    Map<String, String> writes = new LinkedHashMap<>();
                    for (String k : keys) writes.put(k, Long.toString(v));
                    try {
                        s.write(writes);
                        synchronized (confirmed) {
                            for (String k : keys) confirmed.put(k, v);
                        }
                        ReadResult r = s.read(keys);
                        synchronized (confirmed) {
                            for (String k : keys)
                                if (Long.parseLong(r.getString(k)) < confirmed.get(k)) errors.add("went back on " + k);
                        }
                    } catch (SessionInDoubtException e) {
                        s.continueWithoutUnconfirmedWrite();
                    } catch (FastCcsException e) {
                        errors.add(e.getClass().getSimpleName());
                        try {
                            Thread.sleep(20);
                        } catch (InterruptedException ie) {
                            return;
                        }
                    }
                }
            }, "restart-worker");
            worker.start();
            Eventually.within(Duration.ofSeconds(10), () -> counter.get() > 20);

            own.stop(1);
            Thread.sleep(1_000);
            long duringOutage = counter.get();
            own.restart(1);
            Eventually.within(Duration.ofSeconds(15), () -> c.metrics().connectedPartitions() == PARTITIONS);
            long afterRestart = c.metrics().writes().successes();
            Eventually.within(Duration.ofSeconds(15), () -> c.metrics().writes().successes() > afterRestart + 10);
            stop.set(true);
            worker.join(10_000);

            assertThat(errors).doesNotContain("went back on " + keys.get(0));
            assertThat(errors).allMatch(e -> e.equals("PartitionUnavailableException") || e.equals("WriteTimeoutException")
                    || e.equals("ReadTimeoutException"), "only outage errors");
            assertThat(errors).isNotEmpty(); // the outage was noticed
            assertThat(duringOutage).isPositive();
            assertThat(c.metrics().reconnects()).isGreaterThanOrEqualTo(1);
            // Every confirmed write survived the restart and is seen by the session.
            ReadResult r = s.read(keys);
            for (String k : keys) assertThat(Long.parseLong(r.getString(k))).isGreaterThanOrEqualTo(confirmed.get(k));
        }
    }
}
