package io.fastccs.it;

import com.datastax.oss.driver.api.core.CqlSession;
import io.fastccs.client.CausalSession;
import io.fastccs.client.CausalToken;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.InvalidRequestException;
import io.fastccs.client.PartitionUnavailableException;
import io.fastccs.client.ReadResult;
import io.fastccs.client.ScoredItem;
import io.fastccs.client.WriteOutcome;
import io.fastccs.client.WriteTimeoutException;
import io.fastccs.tools.cluster.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static io.fastccs.it.TestCluster.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Commutative operations (issue 15) on three real Cassandra nodes with the plugin, one node per partition (replication
 * factor 1), through the Java client: concurrent sessions add to one hot counter, put and add to a set; every
 * acknowledged add counts exactly once; a wrong-typed operation is refused with the node's message and changes
 * nothing; a set's remove removes what its session saw and a concurrent add wins; then the node owning the typed keys
 * is SIGKILLed and restarted, and every typed value reads the same (the store keeps each version's kind in its clock
 * blob, and garbage collection has folded old operations into a base by then). The tests run in order and share the
 * cluster and what was written.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TypedOperationsIT {
    private static final int SUBNET = 63;
    private static final int NODES = 3;
    private static final int THREADS = 8;
    private static final int TRANSACTIONS_PER_THREAD = 200;
    /** Distinct set elements per thread: transaction i adds "tT-(i mod this)". */
    private static final int ELEMENTS_PER_THREAD = 25;
    private static final int TOP_K = 3;

    private static SubnetCluster cluster;
    private static FastCcsClient client;
    /** The typed keys, all on one partition (the one whose node is restarted). */
    private static String hot;
    private static String set;
    private static String best;
    private static String top;
    private static int typedNode;
    /** The causal contexts of every session so far: a session resumed from their join sees everything acknowledged. */
    private static final List<CausalToken> tokens = Collections.synchronizedList(new ArrayList<>());

    /** What the tests wrote and expect, carried from one to the next. */
    private static long expectedCounter;
    private static Set<String> expectedSet;
    private static long expectedMax;
    private static List<String> expectedTop;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = SubnetCluster.start("typed", SUBNET, NODES, Map.of(LocalCluster.REPLICATION_FACTOR, "1"));
        client = cluster.newClient();
        hot = "typed:hot";
        int partition = cluster.view().ownerOf(hot);
        set = keyOn(partition, "typed:set-");
        best = keyOn(partition, "typed:best-");
        top = keyOn(partition, "typed:top-");
        typedNode = cluster.view().nodeOfPartition(partition);
        log("typed keys " + hot + ", " + set + ", " + best + ", " + top + " on partition " + partition + " (node " + typedNode + ")");
    }

    @AfterAll
    static void stopCluster() {
        try {
            if (client != null) client.close();
        } finally {
            if (cluster != null) cluster.close();
        }
    }

    private static String keyOn(int partition, String prefix) {
        for (int i = 0; ; i++) if (cluster.view().ownerOf(prefix + i) == partition) return prefix + i;
    }

    /** A session that has seen every session's acknowledged writes so far (their tokens joined). */
    private static CausalSession seeingEverything() {
        long[] clock = null;
        long time = 0, ring = 0;
        synchronized (tokens) {
            for (CausalToken t : tokens) {
                long[] c = t.clock();
                if (clock == null) clock = c;
                else for (int i = 0; i < c.length; i++) clock[i] = Math.max(clock[i], c[i]);
                time = Math.max(time, t.commitTime());
                ring = t.ringFingerprint();
            }
        }
        return clock == null ? client.session() : client.session(CausalToken.of(clock, time, ring));
    }

    private static void remember(CausalSession s) {
        tokens.add(s.exportToken());
    }

    /** Outcomes of the workload's writes. */
    private record Outcomes(long acknowledged, long committedUnconfirmed, long aborted, long unknown, Map<String, Long> errors) {
    }

    @Test
    @Order(1)
    void everyAcknowledgedAddOfConcurrentSessionsCountsOnce() throws Exception {
        AtomicLong acknowledged = new AtomicLong(), committedUnconfirmed = new AtomicLong(), aborted = new AtomicLong(),
                unknown = new AtomicLong();
        Map<String, Long> errors = new ConcurrentHashMap<>();
        // What the committed transactions (acknowledged, or known committed) wrote to the set, max and top-k.
        Set<String> added = ConcurrentHashMap.newKeySet();
        AtomicLong maxWritten = new AtomicLong(Long.MIN_VALUE);
        Map<String, Long> bestScores = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            Thread worker = new Thread(() -> {
                CausalSession s = client.session();
                for (int i = 0; i < TRANSACTIONS_PER_THREAD; i++) {
                    String element = "t" + thread + "-" + (i % ELEMENTS_PER_THREAD);
                    long value = (long) i * THREADS + thread;
                    var write = s.newWrite().add(hot, 1).put("typed:plain-" + thread, "v" + i).setAdd(set, element).max(best, value);
                    boolean insert = i % 10 == 0;
                    if (insert) write.topkInsert(top, TOP_K, "t" + thread, i);
                    boolean committed;
                    try {
                        write.execute();
                        acknowledged.incrementAndGet();
                        committed = true;
                    } catch (WriteTimeoutException e) {
                        committed = e.outcome() == WriteOutcome.COMMITTED_UNCONFIRMED;
                        (committed ? committedUnconfirmed : e.outcome() == WriteOutcome.ABORTED ? aborted : unknown).incrementAndGet();
                        errors.merge("WriteTimeoutException " + e.outcome(), 1L, Long::sum);
                        s.continueWithoutUnconfirmedWrite();
                    } catch (PartitionUnavailableException e) {
                        committed = false; // a participant never took it: aborted for sure
                        aborted.incrementAndGet();
                        errors.merge("PartitionUnavailableException", 1L, Long::sum);
                    } catch (RuntimeException e) {
                        unexpected.add(e);
                        return;
                    }
                    if (committed) {
                        added.add(element);
                        maxWritten.accumulateAndGet(value, Math::max);
                        if (insert) bestScores.merge("t" + thread, (long) i, Math::max);
                    }
                }
                remember(s);
            }, "typed-writer-" + t);
            threads.add(worker);
            worker.start();
        }
        for (Thread t : threads) t.join();
        double seconds = (System.nanoTime() - start) / 1e9;
        Outcomes o = new Outcomes(acknowledged.get(), committedUnconfirmed.get(), aborted.get(), unknown.get(), errors);
        log(String.format("%d threads x %d transactions (add 1 to %s, a put, a set add, a max, every 10th a top-%d insert) in "
                        + "%.1f s: %d acknowledged, %d committed unconfirmed, %d aborted, %d unknown; errors %s",
                THREADS, TRANSACTIONS_PER_THREAD, hot, TOP_K, seconds, o.acknowledged(), o.committedUnconfirmed(), o.aborted(),
                o.unknown(), o.errors()));
        assertThat(unexpected).as("unexpected failures").isEmpty();
        assertThat(o.unknown()).as("writes whose outcome the client could not learn (the counter could not be exact)").isZero();

        ReadResult r = seeingEverything().read(hot, set, best, top);
        expectedCounter = o.acknowledged() + o.committedUnconfirmed();
        expectedSet = new TreeSet<>(added);
        expectedMax = maxWritten.get();
        expectedTop = topOf(bestScores);
        log("read after the workload: counter " + r.counter(hot) + " (expected " + expectedCounter + "), set of "
                + r.set(set).size() + " elements (expected " + expectedSet.size() + "), max " + r.max(best) + ", top "
                + r.topk(top) + " in " + r.rounds() + " round(s)");
        assertThat(r.counter(hot)).as("the counter: every acknowledged add once").isEqualTo(expectedCounter);
        assertThat(new TreeSet<>(r.set(set))).isEqualTo(expectedSet);
        assertThat(r.max(best)).isEqualTo(OptionalLong.of(expectedMax));
        assertThat(r.topk(top)).extracting(ScoredItem::toString).containsExactlyElementsOf(expectedTop);
        assertThat(o.acknowledged()).as("most writes acknowledged on a healthy cluster").isGreaterThan(THREADS * TRANSACTIONS_PER_THREAD * 9L / 10);
    }

    /** The k best items as {@code item=score}, ties to the smaller item. */
    private static List<String> topOf(Map<String, Long> bestScores) {
        List<Map.Entry<String, Long>> entries = new ArrayList<>(bestScores.entrySet());
        entries.sort((a, b) -> a.getValue().equals(b.getValue()) ? a.getKey().compareTo(b.getKey()) : Long.compare(b.getValue(), a.getValue()));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(TOP_K, entries.size()); i++) out.add(entries.get(i).getKey() + "=" + entries.get(i).getValue());
        return out;
    }

    @Test
    @Order(2)
    void aWrongTypedOperationIsRefusedWithTheNodesMessageAndChangesNothing() {
        CausalSession s = seeingEverything();
        String untouched = keyOn((cluster.view().ownerOf(hot) + 1) % NODES, "typed:untouched-");
        assertThatThrownBy(() -> s.newWrite().put(hot, "5").put(untouched, "x").execute())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("INVALID_REQUEST")
                .hasMessageContaining("key " + hot + " is a counter (add): PUT refused (a key keeps the type of its first operation)")
                .satisfies(e -> log("a put on the counter: " + e.getMessage()));
        assertThatThrownBy(() -> s.newWrite().add(set, 1).execute()).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("key " + set + " is a set (set add and remove): ADD refused");
        assertThatThrownBy(() -> s.newWrite().topkInsert(top, TOP_K + 1, "x", 1).execute())
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("is a top-" + TOP_K);
        assertThatThrownBy(() -> s.newWrite().setAdd("typed:plain-0", "x").execute()).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("is a plain key (put): SET_ADD refused");
        assertThat(s.hasUnconfirmedWrite()).isFalse();

        ReadResult r = s.read(hot, untouched, set, "typed:plain-0");
        assertThat(r.counter(hot)).isEqualTo(expectedCounter);
        assertThat(r.exists(untouched)).as("the refused transaction's other put").isFalse();
        assertThat(new TreeSet<>(r.set(set))).isEqualTo(expectedSet);
        assertThat(r.type("typed:plain-0")).isEqualTo(io.fastccs.client.KeyType.REGISTER);
        remember(s);
    }

    @Test
    @Order(3)
    void aSetRemoveRemovesWhatItsSessionSawAndAConcurrentAddWins() {
        assertThat(expectedSet).contains("t0-0", "t0-1", "t0-2");
        // A session that has seen nothing removes t0-0: it saw none of its adds, so it removes none.
        CausalSession blind = client.session();
        blind.newWrite().setRemove(set, "t0-0").execute();
        remember(blind);
        // A session that read the set removes t0-1: every add of it it saw.
        CausalSession seer = seeingEverything();
        assertThat(seer.read(set).set(set)).contains("t0-1", "t0-2");
        seer.newWrite().setRemove(set, "t0-1").execute();
        // t0-2 is added again by another session after the seer read it; the seer's remove of it does not see that add.
        CausalSession adder = client.session();
        adder.newWrite().setAdd(set, "t0-2").execute();
        seer.newWrite().setRemove(set, "t0-2").execute();
        remember(seer);
        remember(adder);

        List<String> members = seeingEverything().read(set).set(set);
        assertThat(members).as("blind remove").contains("t0-0");
        assertThat(members).as("seen and removed").doesNotContain("t0-1");
        assertThat(members).as("added concurrently with its remove: the add wins").contains("t0-2");
        expectedSet.remove("t0-1");
        assertThat(new TreeSet<>(members)).isEqualTo(expectedSet);
        log("add-wins: a blind remove kept t0-0, a remove after reading took t0-1, a concurrent add kept t0-2; "
                + members.size() + " elements");
    }

    @Test
    @Order(4)
    void aRestartedNodeReadsEveryTypedValueTheSame() throws Exception {
        Thread.sleep(6_000); // two transaction timeouts and more: garbage collection folds the old operations meanwhile
        log("after " + expectedCounter + " adds and a pause: " + hot + " has " + storedCounter(hot) + ", " + set + " "
                + versionRows(set) + " version rows in fastccs.versions");
        // Fresh operations beside the folded base, too new to be folded when the node dies.
        CausalSession late = seeingEverything();
        for (int i = 0; i < 40; i++) late.newWrite().add(hot, 1).setAdd(set, "late-" + i).execute();
        remember(late);
        expectedCounter += 40;
        for (int i = 0; i < 40; i++) expectedSet.add("late-" + i);
        ReadResult before = seeingEverything().read(hot, set, best, top);
        assertThat(before.counter(hot)).isEqualTo(expectedCounter);
        assertThat(new TreeSet<>(before.set(set))).isEqualTo(expectedSet);
        log("at the kill: " + hot + " has " + storedCounter(hot) + " (a base and the latest adds)");

        cluster.local().kill(typedNode);
        log("SIGKILLed node " + typedNode);
        LocalCluster.StartReport restarted = cluster.restartKilled(typedNode);
        log(String.format("node %d restarted, serving %.1f s after its launch", typedNode, restarted.toServing().toMillis() / 1000.0));

        ReadResult after = retryingUnavailable(() -> seeingEverything().read(hot, set, best, top));
        log("after the restart: counter " + after.counter(hot) + ", set of " + after.set(set).size() + " elements, max "
                + after.max(best) + ", top " + after.topk(top) + "; " + hot + " has " + storedCounter(hot));
        assertThat(after.counter(hot)).as("the counter after the restart").isEqualTo(expectedCounter);
        assertThat(new TreeSet<>(after.set(set))).as("the set after the restart").isEqualTo(expectedSet);
        assertThat(after.max(best)).isEqualTo(OptionalLong.of(expectedMax));
        assertThat(after.topk(top)).extracting(ScoredItem::toString).containsExactlyElementsOf(expectedTop);
        assertThat(after.topk(top)).isEqualTo(before.topk(top));

        // Garbage collection after the restart folds the recovered operations into the base, once.
        Thread.sleep(6_000);
        ReadResult folded = seeingEverything().read(hot, set);
        StoredCounter stored = storedCounter(hot);
        log("after the restart and a pause: counter " + folded.counter(hot) + ", set of " + folded.set(set).size()
                + " elements; " + hot + " has " + stored);
        assertThat(folded.counter(hot)).isEqualTo(expectedCounter);
        assertThat(new TreeSet<>(folded.set(set))).isEqualTo(expectedSet);
        assertThat(stored.sum()).as("what the table's rows of %s fold to (%s)", hot, stored).isEqualTo(expectedCounter);

        // The keys keep their types, and new operations add to what was there.
        CausalSession s = seeingEverything();
        retryingUnavailable(() -> s.newWrite().add(hot, 1).setRemove(set, "t0-0").execute());
        assertThatThrownBy(() -> s.newWrite().put(hot, "x").execute()).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("is a counter (add): PUT refused");
        ReadResult last = s.read(hot, set);
        assertThat(last.counter(hot)).isEqualTo(expectedCounter + 1);
        assertThat(last.set(set)).doesNotContain("t0-0").hasSize(expectedSet.size() - 1);
        remember(s);
        expectedCounter += 1;
        expectedSet.remove("t0-0");

        // Once more, from what the table holds after the folds since the first restart.
        cluster.local().kill(typedNode);
        cluster.restartKilled(typedNode);
        ReadResult again = retryingUnavailable(() -> seeingEverything().read(hot, set, best, top));
        log("after a second restart: counter " + again.counter(hot) + ", set of " + again.set(set).size() + " elements; "
                + hot + " has " + storedCounter(hot));
        assertThat(again.counter(hot)).as("the counter after a second restart").isEqualTo(expectedCounter);
        assertThat(new TreeSet<>(again.set(set))).as("the set after a second restart").isEqualTo(expectedSet);
        assertThat(again.max(best)).isEqualTo(OptionalLong.of(expectedMax));
        assertThat(again.topk(top)).extracting(ScoredItem::toString).containsExactlyElementsOf(expectedTop);
    }

    /**
     * Retries, for up to a minute, what fails while a node comes back or the client reconnects to it: reads, and writes
     * that failed as {@link PartitionUnavailableException} (aborted for sure, so safe to run again).
     */
    private static <T> T retryingUnavailable(Supplier<T> attempt) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (true) {
            try {
                return attempt.get();
            } catch (PartitionUnavailableException | io.fastccs.client.ReadTimeoutException e) {
                if (System.nanoTime() > deadline) throw e;
                log("not yet: " + e.getMessage());
                Thread.sleep(500);
            }
        }
    }

    /** The rows of {@code key} in fastccs.versions, read through CQL. */
    private static long versionRows(String key) {
        return storedCounter(key).rows();
    }

    /**
     * What fastccs.versions holds for the counter {@code key}, read through CQL: its rows, and the sum their values
     * fold to (an add's operand is its 8-byte delta; a folded base is the counter's tag byte and the 8-byte sum), which
     * is what the node reads once its cache no longer holds the key.
     */
    private static StoredCounter storedCounter(String key) {
        try (CqlSession cql = CqlSession.builder().addContactPoint(cluster.view().cqlAddress(1))
                .withLocalDatacenter("datacenter1").build()) {
            long rows = 0, sum = 0;
            for (var row : cql.execute(cql.prepare("SELECT sequence, value FROM fastccs.versions WHERE key = ?")
                    .bind(ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8)))).all()) {
                ByteBuffer value = row.getByteBuffer("value");
                rows++;
                sum += value.remaining() == 8 ? value.getLong(value.position()) : value.getLong(value.position() + 1);
            }
            return new StoredCounter(rows, sum);
        }
    }

    private record StoredCounter(long rows, long sum) {
        @Override
        public String toString() {
            return rows + " version rows folding to " + sum;
        }
    }
}
