package io.fastccs.it;

import io.fastccs.testkit.OutcomeResolver;
import io.fastccs.check.CheckResult;
import io.fastccs.check.History;
import io.fastccs.check.Op;
import io.fastccs.check.TccChecker;
import io.fastccs.check.Txn;
import io.fastccs.client.CausalSession;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.FastCcsException;
import io.fastccs.client.ReadResult;
import io.fastccs.client.WriteResult;
import io.fastccs.client.WriteTimeoutException;
import io.fastccs.protocol.VectorClock;
import io.fastccs.protocol.messages.Outcome;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A closed-loop workload of causal sessions over real clients that records a history for the TCC checker, in the
 * way the simulator does: values are unique per key (a global counter, never 0), reads record the values they
 * returned (0 for none), writes record their outcome. A write the client could not confirm is resolved from what
 * its {@link WriteTimeoutException} reports, or, when that is {@code UNKNOWN}, by asking its coordinator
 * ({@link OutcomeResolver}); its session then goes on after {@link CausalSession#continueWithoutUnconfirmedWrite()}
 * as a new session of the history, since its guarantees no longer cover the unconfirmed write.
 *
 * <p>Key {@code i} of the checker is the store key {@code "w:" + i}; value {@code v} is stored as its decimal text.
 */
final class Workload {
    static final long FINAL_SESSION = 0;
    private static final int FINAL_READ_BATCH = 60;

    /** One transaction as the history shows it. */
    static final class Recorded {
        final long txnId;
        final long session;
        final boolean write;
        final List<Op> ops = new ArrayList<>();
        volatile Outcome outcome; // null while unknown
        volatile long[] commitClock;
        volatile boolean acknowledged;
        volatile String transactionId;

        Recorded(long txnId, long session, boolean write) {
            this.txnId = txnId;
            this.session = session;
            this.write = write;
        }
    }

    /** What the workload and its checks found. */
    record Result(long readsAttempted, long readsOk, long twoRoundReads, long writesAttempted, long writesAcknowledged,
                  long writesCommittedUnconfirmed, long writesAborted, long writesResolvedByQuery, long historySessions,
                  long keysWritten, CheckResult check, List<String> violations, long lostAcknowledged) {
    }

    private final TestCluster cluster;
    private final List<FastCcsClient> clients;
    private final int sessions;
    private final int keyCount;
    private final int keysPerTxn;
    private final double writeFraction;
    private final long seed;
    private final int[] ownerOfKey;
    private final OutcomeResolver resolver;

    private final AtomicLong nextValue = new AtomicLong(1);
    private final AtomicLong nextTxn = new AtomicLong(1);
    private final AtomicLong nextSession = new AtomicLong(FINAL_SESSION + 1);
    private final Map<Long, List<Recorded>> logs = new ConcurrentHashMap<>();
    private final Map<String, ErrorStat> errors = new ConcurrentHashMap<>();
    private final ThreadLocal<long[]> txnStart = ThreadLocal.withInitial(() -> new long[1]);
    private final List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder readsAttempted = new LongAdder(), readsOk = new LongAdder(), twoRoundReads = new LongAdder();
    private final LongAdder writesAttempted = new LongAdder(), writesAcknowledged = new LongAdder();
    private final LongAdder writesCommittedUnconfirmed = new LongAdder(), writesAborted = new LongAdder();
    private final LongAdder writesResolvedByQuery = new LongAdder();
    private final Map<String, LongAdder> resolvedOutcomes = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> endOfInFlightAtKill = new ConcurrentHashMap<>();
    private volatile long killNanos;
    private final List<Thread> threads = new ArrayList<>();
    private volatile String phase = "before";
    private volatile boolean stop;
    private volatile int watchedPartition = -1;
    private volatile long watchSinceNanos;
    private final AtomicLong firstWatchedSuccessNanos = new AtomicLong();

    Workload(TestCluster cluster, List<FastCcsClient> clients, int sessions, int keyCount, int keysPerTxn,
             double writeFraction, long seed) {
        this.cluster = cluster;
        this.clients = clients;
        this.sessions = sessions;
        this.keyCount = keyCount;
        this.keysPerTxn = keysPerTxn;
        this.writeFraction = writeFraction;
        this.seed = seed;
        this.ownerOfKey = new int[keyCount];
        for (int k = 0; k < keyCount; k++) ownerOfKey[k] = cluster.ownerOf(key(k));
        this.resolver = new OutcomeResolver(cluster.view());
    }

    static String key(long k) {
        return "w:" + k;
    }

    void start() {
        for (int i = 0; i < sessions; i++) {
            int index = i;
            Thread t = new Thread(() -> runSession(index), "workload-session-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /** Names the phase errors are counted under from now on. */
    void phase(String name) {
        phase = name;
    }

    long transactionsAttempted() {
        return readsAttempted.sum() + writesAttempted.sum();
    }

    /** From now on, remembers when a transaction touching {@code partition} first succeeds. */
    void watchPartition(int partition, long sinceNanos) {
        firstWatchedSuccessNanos.set(0);
        watchSinceNanos = sinceNanos;
        watchedPartition = partition;
    }

    /** {@link System#nanoTime()} of the first success on the watched partition since watching began, 0 if none. */
    long firstWatchedSuccessNanos() {
        return firstWatchedSuccessNanos.get();
    }

    /** How often one kind of error came, and how long the failed transactions took. */
    static final class ErrorStat {
        final LongAdder count = new LongAdder();
        final LongAdder totalNanos = new LongAdder();
        final java.util.concurrent.atomic.LongAccumulator maxNanos = new java.util.concurrent.atomic.LongAccumulator(Math::max, 0);

        @Override
        public String toString() {
            long n = count.sum();
            return String.format("%d (failed after %.1f ms on average, %.0f ms at most)", n,
                    n == 0 ? 0 : totalNanos.sum() / 1e6 / n, maxNanos.get() / 1e6);
        }
    }

    /** Errors counted so far, by "phase: type". */
    SortedMap<String, ErrorStat> errors() {
        return new TreeMap<>(errors);
    }

    /**
     * Marks the moment a node is killed (call just before): returns the transactions in flight then, whose ends
     * {@link #endOfInFlightAtKill()} reports.
     */
    int markKill() {
        killNanos = System.nanoTime();
        return inFlight.get();
    }

    /** How the transactions in flight at {@link #markKill()} ended, by "read|write ok|error type". */
    SortedMap<String, Long> endOfInFlightAtKill() {
        return sums(endOfInFlightAtKill);
    }

    /** The outcomes learnt by asking coordinators, for writes the client reported UNKNOWN. */
    SortedMap<String, Long> resolvedOutcomes() {
        return sums(resolvedOutcomes);
    }

    private static SortedMap<String, Long> sums(Map<String, LongAdder> counters) {
        SortedMap<String, Long> out = new TreeMap<>();
        counters.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    List<Throwable> unexpected() {
        return List.copyOf(unexpected);
    }

    /** Stops the sessions after their current transaction. */
    void stop() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join(60_000);
            if (t.isAlive()) throw new IllegalStateException(t.getName() + " did not stop within 60 s");
        }
    }

    private long newSession() {
        long id = nextSession.getAndIncrement();
        logs.put(id, new ArrayList<>());
        return id;
    }

    private void runSession(int index) {
        FastCcsClient client = clients.get(index % clients.size());
        CausalSession session = client.session();
        long sessionId = newSession();
        SplittableRandom random = new SplittableRandom(seed * 31 + index);
        while (!stop) {
            long[] keys = pickKeys(random);
            boolean write = random.nextDouble() < writeFraction;
            long started = System.nanoTime();
            txnStart.get()[0] = started;
            inFlight.incrementAndGet();
            String end;
            try {
                if (write) {
                    end = "write " + write(session, sessionId, keys);
                    if (session.hasUnconfirmedWrite()) {
                        // The session's guarantees no longer cover that write: a new session of the history.
                        session.continueWithoutUnconfirmedWrite();
                        sessionId = newSession();
                    }
                } else {
                    end = "read " + read(session, sessionId, keys);
                }
            } catch (RuntimeException e) {
                unexpected.add(e);
                countError(e.getClass().getSimpleName() + " (unexpected)");
                end = "unexpected " + e.getClass().getSimpleName();
            } finally {
                inFlight.decrementAndGet();
            }
            long kill = killNanos;
            if (kill != 0 && started - kill < 0 && System.nanoTime() - kill >= 0)
                endOfInFlightAtKill.computeIfAbsent(end, x -> new LongAdder()).increment();
            if (!end.endsWith(" ok")) pause(20); // a partition is down: no hot loop on instant failures
        }
    }

    private long[] pickKeys(SplittableRandom random) {
        TreeSet<Long> chosen = new TreeSet<>();
        while (chosen.size() < keysPerTxn) chosen.add((long) random.nextInt(keyCount));
        List<Long> shuffled = new ArrayList<>(chosen);
        Collections.shuffle(shuffled, new java.util.Random(random.nextLong()));
        return shuffled.stream().mapToLong(Long::longValue).toArray();
    }

    /** Returns "ok" or the error's type. */
    private String read(CausalSession session, long sessionId, long[] keys) {
        readsAttempted.increment();
        List<String> names = new ArrayList<>(keys.length);
        for (long k : keys) names.add(key(k));
        ReadResult r;
        try {
            r = session.read(names);
        } catch (FastCcsException e) {
            countError(e.getClass().getSimpleName());
            return e.getClass().getSimpleName();
        }
        Recorded rec = new Recorded(nextTxn.getAndIncrement(), sessionId, false);
        for (long k : keys) {
            String v = r.getString(key(k));
            rec.ops.add(Op.read(k, v == null ? 0 : Long.parseLong(v)));
        }
        rec.outcome = Outcome.COMMITTED;
        logs.get(sessionId).add(rec);
        readsOk.increment();
        if (r.rounds() == 2) twoRoundReads.increment();
        succeeded(keys);
        return "ok";
    }

    /** Returns "ok" if the write was confirmed, else the error's type. */
    private String write(CausalSession session, long sessionId, long[] keys) {
        writesAttempted.increment();
        Recorded rec = new Recorded(nextTxn.getAndIncrement(), sessionId, true);
        Map<String, String> writes = new LinkedHashMap<>();
        for (long k : keys) {
            long v = nextValue.getAndIncrement();
            writes.put(key(k), Long.toString(v));
            rec.ops.add(Op.write(k, v));
        }
        logs.get(sessionId).add(rec);
        try {
            WriteResult w = session.write(writes);
            rec.transactionId = w.transactionId();
            rec.commitClock = w.commitClock();
            rec.acknowledged = true;
            rec.outcome = Outcome.COMMITTED;
            writesAcknowledged.increment();
            succeeded(keys);
            return "ok";
        } catch (WriteTimeoutException e) {
            String type = "WriteTimeoutException(" + e.outcome() + ")";
            countError(type);
            rec.transactionId = e.transactionId();
            switch (e.outcome()) {
                case ABORTED -> {
                    rec.outcome = Outcome.ABORTED;
                    writesAborted.increment();
                }
                case COMMITTED_UNCONFIRMED -> {
                    writesCommittedUnconfirmed.increment();
                    if (e.commitClock() != null) {
                        rec.commitClock = e.commitClock();
                        rec.outcome = Outcome.COMMITTED;
                    } else {
                        resolveLater(rec, e);
                    }
                }
                case UNKNOWN -> resolveLater(rec, e);
            }
            return type;
        } catch (FastCcsException e) {
            // Refused before it was sent, or by a participant before it prepared: aborted for sure (see the API).
            countError(e.getClass().getSimpleName());
            rec.outcome = Outcome.ABORTED;
            writesAborted.increment();
            return e.getClass().getSimpleName();
        }
    }

    private void resolveLater(Recorded rec, WriteTimeoutException e) {
        writesResolvedByQuery.increment();
        resolver.resolve(OutcomeResolver.parse(e.transactionId()), e.coordinator(), (outcome, clock) -> {
            rec.commitClock = clock;
            rec.outcome = outcome;
            resolvedOutcomes.computeIfAbsent(e.outcome() + " -> " + outcome, x -> new LongAdder()).increment();
        });
    }

    private void succeeded(long[] keys) {
        int p = watchedPartition;
        if (p < 0) return;
        long now = System.nanoTime();
        if (now - watchSinceNanos < 0) return;
        for (long k : keys) {
            if (ownerOfKey[(int) k] == p) {
                firstWatchedSuccessNanos.compareAndSet(0, now);
                return;
            }
        }
    }

    private void countError(String type) {
        ErrorStat stat = errors.computeIfAbsent(phase + ": " + type, x -> new ErrorStat());
        long took = System.nanoTime() - txnStart.get()[0];
        stat.count.increment();
        stat.totalNanos.add(took);
        stat.maxNanos.accumulate(took);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * After {@link #stop()}: waits for the unknown outcomes, lets the cluster settle, reads every written key from a
     * fresh session of {@code client} (the final session), checks the history with the TCC checker and checks that
     * the newest committed write of every key, by the arbitration order of commit clocks, is what the final read
     * returned (no acknowledged write lost).
     */
    Result finish(FastCcsClient client, Duration settle) throws InterruptedException {
        long left = resolver.awaitAll(Duration.ofSeconds(90));
        resolver.close();
        List<String> violations = new ArrayList<>();
        if (left > 0) violations.add(left + " writes still have no known outcome after 90 s of asking their coordinators");
        Thread.sleep(settle.toMillis());

        TreeSet<Long> written = new TreeSet<>();
        for (List<Recorded> log : logs.values())
            for (Recorded r : log)
                if (r.write) for (Op op : r.ops) written.add(op.key());
        List<Long> all = new ArrayList<>(written);
        CausalSession finalSession = client.session();
        List<Recorded> finalLog = new ArrayList<>();
        Map<Long, Long> finalValues = new HashMap<>();
        for (int from = 0; from < all.size(); from += FINAL_READ_BATCH) {
            List<Long> batch = all.subList(from, Math.min(all.size(), from + FINAL_READ_BATCH));
            List<String> names = batch.stream().map(Workload::key).toList();
            ReadResult r = null;
            for (int attempt = 1; r == null; attempt++) {
                try {
                    r = finalSession.read(names);
                } catch (FastCcsException e) {
                    if (attempt >= 10) throw e;
                    Thread.sleep(1_000);
                }
            }
            Recorded rec = new Recorded(nextTxn.getAndIncrement(), FINAL_SESSION, false);
            for (long k : batch) {
                String v = r.getString(key(k));
                long value = v == null ? 0 : Long.parseLong(v);
                rec.ops.add(Op.read(k, value));
                finalValues.put(k, value);
            }
            rec.outcome = Outcome.COMMITTED;
            finalLog.add(rec);
        }
        logs.put(FINAL_SESSION, finalLog);

        History.Builder history = History.builder().finalSession(FINAL_SESSION);
        Map<Long, Recorded> newestCommitted = new HashMap<>();
        for (List<Recorded> log : new TreeMap<>(logs).values()) {
            for (Recorded r : log) {
                Outcome outcome = r.outcome;
                if (r.write && outcome == null) {
                    violations.add("write " + r.transactionId + " (history txn " + r.txnId + ") has no known outcome");
                    outcome = Outcome.ABORTED;
                }
                boolean committed = outcome == Outcome.COMMITTED;
                history.add(new Txn(r.txnId, r.session, committed, r.ops));
                if (!r.write || !committed) continue;
                if (r.commitClock == null) {
                    violations.add("committed write " + r.transactionId + " without a commit clock");
                    continue;
                }
                for (Op op : r.ops) {
                    Recorded best = newestCommitted.get(op.key());
                    if (best == null || VectorClock.compareArbitration(VectorClock.of(best.commitClock),
                            VectorClock.of(r.commitClock)) < 0)
                        newestCommitted.put(op.key(), r);
                }
            }
        }
        long lostAcknowledged = 0;
        for (Map.Entry<Long, Recorded> e : new TreeMap<>(newestCommitted).entrySet()) {
            long k = e.getKey();
            Recorded w = e.getValue();
            long expected = 0;
            for (Op op : w.ops) if (op.key() == k) expected = op.value();
            long got = finalValues.getOrDefault(k, 0L);
            if (got != expected) {
                if (w.acknowledged) lostAcknowledged++;
                violations.add("key " + key(k) + ": the final read returned " + got + " but the newest committed write is "
                        + w.transactionId + " (clock " + VectorClock.of(w.commitClock) + ") with " + expected
                        + (w.acknowledged ? ": an acknowledged write was lost" : ""));
            }
        }
        CheckResult check = TccChecker.check(history.build());
        return new Result(readsAttempted.sum(), readsOk.sum(), twoRoundReads.sum(), writesAttempted.sum(),
                writesAcknowledged.sum(), writesCommittedUnconfirmed.sum(), writesAborted.sum(),
                writesResolvedByQuery.sum(), logs.size() - 1, written.size(), check, violations, lostAcknowledged);
    }
}
