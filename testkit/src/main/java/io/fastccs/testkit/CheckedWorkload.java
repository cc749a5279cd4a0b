package io.fastccs.testkit;

import io.fastccs.check.CheckResult;
import io.fastccs.check.FinalStateVerifier;
import io.fastccs.check.Op;
import io.fastccs.check.PlumeText;
import io.fastccs.client.CausalSession;
import io.fastccs.client.CausalToken;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.FastCcsException;
import io.fastccs.client.ReadResult;
import io.fastccs.client.WriteResult;
import io.fastccs.client.WriteTimeoutException;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.protocol.primitives.CommitOrder;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.tools.cluster.ToolClock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Closed-loop causal sessions over real clients that record a history for the TCC checker, plus writes of "dead
 * clients" (a raw write request sent to a proper subset of its participants, then the connection closed). Values are
 * unique per key (one counter, never 0), reads record what they returned (0 for none), and every write ends in the
 * history as committed or aborted: confirmed writes as committed; writes the client could not confirm and dead
 * clients' writes are settled by asking their coordinator ({@link OutcomeResolver}) before the history is built, and
 * the final reads and the checker then show whether that answer was right. A session whose write was not confirmed
 * goes on as a new session of the history, since its guarantees no longer cover that write.
 *
 * <p>Key {@code i} of the history is the store key {@code prefix + i}; value {@code v} is stored as its decimal text.
 * The final checks are the shared {@link FinalStateVerifier} composed with the TCC checker. A {@link TxnObserver} sees
 * every session transaction start and end, for measurements around faults.
 */
public final class CheckedWorkload {
    public static final long FINAL_SESSION = 0;
    private static final int FINAL_READ_BATCH = 50;

    /** One transaction as the history shows it. */
    private static final class Recorded {
        final long txnId;
        final long session;
        final boolean write;
        final List<Op> ops = new ArrayList<>();
        volatile Outcome outcome; // null while unknown
        volatile CommitOrder commit;
        volatile boolean acknowledged;
        volatile String transactionId;
        /** For a write the client reported aborted: what it said (to explain a checker's finding). */
        volatile String abortedBecause;

        Recorded(long txnId, long session, boolean write) {
            this.txnId = txnId;
            this.session = session;
            this.write = write;
        }
    }

    /** The message of the session thread's last failed transaction, for {@link TxnObserver}. */
    private final ThreadLocal<String> lastFailure = new ThreadLocal<>();

    /** Sees the sessions' transactions start and end (on the session threads). */
    public interface TxnObserver {
        default void started() {
        }

        /**
         * @param keys         the history keys of the transaction ({@link #key(long)} names them in the store)
         * @param startedNanos {@link ToolClock#nanoTime()} when it started
         * @param error        null if it succeeded, else the error's type
         */
        default void ended(boolean write, long[] keys, long startedNanos, String error) {
        }

        /** As above, with the failure's message ({@code null} on success), for observers that explain failures. */
        default void ended(boolean write, long[] keys, long startedNanos, String error, String message) {
            ended(write, keys, startedNanos, error);
        }
    }

    /** What the run and its checks found. */
    public record Result(long readsAttempted, long readsOk, long readsInTwoRounds, long writesAttempted, long writesAcknowledged,
                         long writesAbortedKnown, long unknownCommitted, long unknownAborted, long unknownUnsettled,
                         long deadClientCommitted, long deadClientAborted, long deadClientUnsettled,
                         long historySessions, long keysWritten, CheckResult check, List<String> violations,
                         long lostAcknowledged, Map<String, Long> errors) {
        public long transactions() {
            return readsOk + writesAttempted;
        }

        public long unknown() {
            return unknownCommitted + unknownAborted + unknownUnsettled;
        }
    }

    private final ClusterView cluster;
    private final List<FastCcsClient> clients;
    private final String prefix;
    private final int sessions;
    private final int keyCount;
    private final int keysPerTxn;
    private final double writeFraction;
    private final long seed;
    private final OutcomeResolver resolver;

    private final AtomicLong nextValue = new AtomicLong(1);
    private final AtomicLong nextTxn = new AtomicLong(1);
    private final AtomicLong nextSession = new AtomicLong(FINAL_SESSION + 1);
    private final AtomicLong deadClientIds = new AtomicLong();
    private final long deadClientId;
    private final Map<Long, List<Recorded>> logs = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private final LongAdder readsAttempted = new LongAdder(), readsOk = new LongAdder(), readsInTwoRounds = new LongAdder();
    private final LongAdder writesAttempted = new LongAdder(), writesAcknowledged = new LongAdder(), writesAbortedKnown = new LongAdder();
    private final LongAdder unknownCommitted = new LongAdder(), unknownAborted = new LongAdder(), unknownSubmitted = new LongAdder();
    private final LongAdder unknownKnownClock = new LongAdder();
    private final LongAdder deadCommitted = new LongAdder(), deadAborted = new LongAdder(), deadSubmitted = new LongAdder();
    private final List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
    private final AtomicReference<TxnObserver> observer = new AtomicReference<>(new TxnObserver() {
    });
    private volatile boolean stop;

    public CheckedWorkload(ClusterView cluster, List<FastCcsClient> clients, String prefix, int sessions, int keyCount,
                           int keysPerTxn, double writeFraction, long seed) {
        this.cluster = cluster;
        this.clients = clients;
        this.prefix = prefix;
        this.sessions = sessions;
        this.keyCount = keyCount;
        this.keysPerTxn = Math.min(keysPerTxn, keyCount);
        this.writeFraction = writeFraction;
        this.seed = seed;
        this.resolver = new OutcomeResolver(cluster);
        this.deadClientId = new SplittableRandom(seed ^ 0x5DEECE66DL).nextLong() | 1L << 62;
    }

    public String key(long k) {
        return prefix + k;
    }

    /** Replaces the observer (by default none); call before {@link #start()}. */
    public void observe(TxnObserver o) {
        observer.set(o);
    }

    public void start() {
        for (int i = 0; i < sessions; i++) {
            int index = i;
            Thread t = new Thread(() -> runSession(index), "nemesis-session-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    public long transactionsAttempted() {
        return readsAttempted.sum() + writesAttempted.sum();
    }

    /** Stops the sessions after their current transaction. */
    public void stop() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join(60_000);
            if (t.isAlive()) throw new IllegalStateException(t.getName() + " did not stop within 60 s");
        }
    }

    private long newSession() {
        long id = nextSession.getAndIncrement();
        logs.put(id, Collections.synchronizedList(new ArrayList<>()));
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
            TxnObserver watch = observer.get();
            long started = ToolClock.nanoTime();
            watch.started();
            String error;
            try {
                if (write) {
                    error = write(session, sessionId, keys);
                    if (session.hasUnconfirmedWrite()) {
                        session.continueWithoutUnconfirmedWrite();
                        sessionId = newSession();
                    }
                } else {
                    error = read(session, sessionId, keys);
                }
            } catch (RuntimeException e) {
                unexpected.add(e.toString());
                error = e.getClass().getSimpleName() + " (unexpected)";
                lastFailure.set(e.getMessage());
                count(error);
            }
            watch.ended(write, keys, started, error, error == null ? null : lastFailure.get());
            if (error != null) pause(50); // a partition is down or paused: no hot loop on instant failures
        }
    }

    private long[] pickKeys(SplittableRandom random) {
        TreeSet<Long> chosen = new TreeSet<>();
        while (chosen.size() < keysPerTxn) chosen.add((long) random.nextInt(keyCount));
        List<Long> shuffled = new ArrayList<>(chosen);
        Collections.shuffle(shuffled, new java.util.Random(random.nextLong()));
        return shuffled.stream().mapToLong(Long::longValue).toArray();
    }

    /** Null if it succeeded, else the error's type. */
    private String read(CausalSession session, long sessionId, long[] keys) {
        readsAttempted.increment();
        List<String> names = new ArrayList<>(keys.length);
        for (long k : keys) names.add(key(k));
        ReadResult r;
        try {
            r = session.read(names);
        } catch (FastCcsException e) {
            count("read: " + e.getClass().getSimpleName());
            lastFailure.set(e.getMessage());
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
        if (r.rounds() == 2) readsInTwoRounds.increment();
        return null;
    }

    /** For reads of writes the client was told had aborted: logs what the client was told, once per write. */
    private void explainAbortedReads(CheckResult check, Consumer<String> log) {
        java.util.regex.Pattern abortedWriter = java.util.regex.Pattern.compile("written by aborted T(\\d+)");
        java.util.Set<Long> explained = new java.util.TreeSet<>();
        for (Object anomaly : check.anomalies()) {
            java.util.regex.Matcher m = abortedWriter.matcher(anomaly.toString());
            if (m.find()) explained.add(Long.parseLong(m.group(1)));
        }
        if (explained.isEmpty()) return;
        int shown = 0;
        for (List<Recorded> sessionLog : logs.values())
            synchronized (sessionLog) {
                for (Recorded r : sessionLog) {
                    if (!r.write || !explained.contains(r.txnId) || shown++ >= 10) continue;
                    log.accept("aborted write read by others: history txn " + r.txnId + ", transaction " + r.transactionId
                            + ", session " + r.session + ", values " + r.ops + "; the client was told: " + r.abortedBecause);
                }
            }
    }

    /** Null if the write was confirmed, else the error's type. */
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
            rec.commit = new CommitOrder(w.commitTime(), VectorClock.of(w.commitClock()));
            rec.acknowledged = true;
            rec.outcome = Outcome.COMMITTED;
            writesAcknowledged.increment();
            return null;
        } catch (WriteTimeoutException e) {
            String type = "WriteTimeoutException(" + e.outcome() + ")";
            count("write: " + type);
            rec.transactionId = e.transactionId();
            switch (e.outcome()) {
                case ABORTED -> {
                    rec.outcome = Outcome.ABORTED;
                    rec.abortedBecause = e.getMessage();
                    writesAbortedKnown.increment();
                }
                case COMMITTED_UNCONFIRMED, UNKNOWN -> {
                    // The client could not know the outcome (a known commit without its clock counts too: the
                    // clock is needed to check that no acknowledged write was lost): ask the coordinator.
                    if (e.commitClock() != null) {
                        rec.commit = new CommitOrder(e.commitTime(), VectorClock.of(e.commitClock()));
                        rec.outcome = Outcome.COMMITTED;
                        unknownCommitted.increment();
                        unknownKnownClock.increment();
                    } else {
                        unknownSubmitted.increment();
                        resolver.resolve(OutcomeResolver.parse(e.transactionId()), e.coordinator(), (outcome, commit) -> {
                            rec.commit = commit;
                            rec.outcome = outcome;
                            (outcome == Outcome.COMMITTED ? unknownCommitted : unknownAborted).increment();
                        });
                    }
                }
            }
            lastFailure.set(e.getMessage());
            return type;
        } catch (FastCcsException e) {
            // Refused before it was sent, or by a participant before it prepared: aborted for sure (see the API).
            count("write: " + e.getClass().getSimpleName());
            rec.outcome = Outcome.ABORTED;
            rec.abortedBecause = e.getClass().getSimpleName() + ": " + e.getMessage();
            writesAbortedKnown.increment();
            lastFailure.set(e.getMessage());
            return e.getClass().getSimpleName();
        }
    }

    /**
     * A client that dies in the middle of a write-only transaction: picks keys on at least two partitions, sends the
     * write request to a random non-empty proper subset of the participants, and closes its connections. Returns a
     * description, or null if the keys happened to fall on one partition (nothing sent).
     */
    public String deadClientWrite(SplittableRandom random) {
        int n = cluster.nodes();
        if (n < 2) return null;
        long[] keys = null;
        TreeMap<Integer, List<Long>> byPartition = new TreeMap<>();
        for (int attempt = 0; attempt < 20 && byPartition.size() < 2; attempt++) {
            keys = pickKeys(random);
            byPartition.clear();
            for (long k : keys) byPartition.computeIfAbsent(cluster.ownerOf(key(k)), x -> new ArrayList<>()).add(k);
        }
        if (byPartition.size() < 2) return null;
        List<Integer> participants = new ArrayList<>(byPartition.keySet());
        int coordinator = participants.get(random.nextInt(participants.size()));
        List<Integer> subset = new ArrayList<>();
        while (subset.isEmpty() || subset.size() == participants.size()) {
            subset.clear();
            for (int p : participants) if (random.nextBoolean()) subset.add(p);
        }
        TxnId txnId = new TxnId(deadClientId, deadClientIds.incrementAndGet());
        long session = newSession();
        Recorded rec = new Recorded(nextTxn.getAndIncrement(), session, true);
        Map<Long, Long> values = new HashMap<>();
        for (long k : keys) {
            long v = nextValue.getAndIncrement();
            values.put(k, v);
            rec.ops.add(Op.write(k, v));
        }
        rec.transactionId = txnId.toString();
        logs.get(session).add(rec);
        writesAttempted.increment();
        List<RawClient> open = new ArrayList<>();
        int sent = 0;
        try {
            for (int p : subset) {
                List<KeyValue> writes = new ArrayList<>();
                for (long k : byPartition.get(p))
                    writes.add(new KeyValue(Key.of(key(k)), Long.toString(values.get(k)).getBytes(StandardCharsets.UTF_8)));
                try {
                    RawClient c = cluster.connect(cluster.nodeOfPartition(p), Duration.ofSeconds(2));
                    open.add(c);
                    c.send(new WriteRequest(txnId.sequence(), txnId, coordinator, participants, writes, VectorClock.zero(n), 0));
                    sent++;
                } catch (IOException e) {
                    count("dead client: could not reach partition " + p);
                }
            }
            pause(30); // let the nodes read the requests before the client "dies"
        } finally {
            open.forEach(RawClient::close);
        }
        deadSubmitted.increment();
        resolver.resolve(txnId, coordinator, (outcome, commit) -> {
            rec.commit = commit;
            rec.outcome = outcome;
            (outcome == Outcome.COMMITTED ? deadCommitted : deadAborted).increment();
        });
        return "dead client " + txnId + ": participants " + participants + ", coordinator " + coordinator
                + ", request sent to " + subset + " (" + sent + " delivered)";
    }

    /**
     * Records a read made outside the sessions (a raw client's), as a session of its own, so the checker verifies that
     * it returned a committed value: never an aborted or pending one, never one nobody wrote.
     */
    public void recordForeignRead(long key, long value) {
        long session = newSession();
        Recorded rec = new Recorded(nextTxn.getAndIncrement(), session, false);
        rec.ops.add(Op.read(key, value));
        rec.outcome = Outcome.COMMITTED;
        logs.get(session).add(rec);
    }

    public int keyCount() {
        return keyCount;
    }

    private void count(String type) {
        errors.computeIfAbsent(type, x -> new LongAdder()).increment();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * After {@link #stop()} and once the cluster is whole again: waits for the unknown outcomes, reads every written key
     * from a session that has seen every committed write (the final session), checks the history with the TCC checker
     * and checks that the newest committed write of every key, by the arbitration order (commit time, then commit clock), is what the
     * final read returned.
     */
    public Result finish(FastCcsClient client, Duration settle, Path historyFile, Consumer<String> log)
            throws InterruptedException, IOException {
        long left = resolver.awaitAll(Duration.ofSeconds(120));
        resolver.close();
        List<String> violations = new ArrayList<>();
        if (left > 0) violations.add(left + " writes still have no known outcome after 120 s of asking their coordinators");
        if (!unexpected.isEmpty()) violations.add("unexpected exceptions: " + unexpected.subList(0, Math.min(5, unexpected.size())));
        Thread.sleep(settle.toMillis());

        FinalStateVerifier<CommitOrder> verifier = new FinalStateVerifier<>(FINAL_SESSION, CommitOrder::compareTo);
        CausalToken fresh = client.session().exportToken();
        // The final session's causal past: every write known to have committed (the entrywise maximum of their commit
        // clocks). A fresh session may legitimately be answered from a snapshot older than some of them while a
        // partition has not stabilized after the faults (seen when a group had no lasting leader for a minute after the
        // last fault). A write lost from storage still shows, since its partition answers at or after its clock, and a
        // partition that never stabilizes past it fails the final read instead of passing it.
        long[] pastEveryCommittedWrite = new long[fresh.partitions()];
        long latestCommitTime = 0;
        for (List<Recorded> log2 : new TreeMap<>(logs).values())
            synchronized (log2) {
                for (Recorded r : log2) {
                    CommitOrder commit = r.commit;
                    verifier.add(r.txnId, r.session, r.write, r.outcome == null ? null : r.outcome == Outcome.COMMITTED,
                            r.ops, commit, r.acknowledged,
                            r.write ? r.transactionId + " (history txn " + r.txnId + ")" : "read " + r.txnId);
                    if (r.write && r.outcome == Outcome.COMMITTED && commit != null) {
                        commit.clock().maxInto(pastEveryCommittedWrite);
                        latestCommitTime = Math.max(latestCommitTime, commit.time());
                    }
                }
            }
        List<Long> all = verifier.keysWritten();
        CausalSession finalSession = client.session(CausalToken.of(pastEveryCommittedWrite, latestCommitTime,
                fresh.ringFingerprint()));
        Map<Long, Long> finalValues = new HashMap<>();
        for (int from = 0; from < all.size(); from += FINAL_READ_BATCH) {
            List<Long> batch = all.subList(from, Math.min(all.size(), from + FINAL_READ_BATCH));
            List<String> names = batch.stream().map(this::key).toList();
            ReadResult r = null;
            for (int attempt = 1; r == null; attempt++) {
                try {
                    r = finalSession.read(names);
                } catch (FastCcsException e) {
                    if (attempt >= 60) throw e;
                    log.accept("final read: " + e.getClass().getSimpleName() + ", again in 1 s");
                    Thread.sleep(1_000);
                }
            }
            List<Op> ops = new ArrayList<>();
            for (long k : batch) {
                String v = r.getString(key(k));
                long value = v == null ? 0 : Long.parseLong(v);
                ops.add(Op.read(k, value));
                finalValues.put(k, value);
            }
            verifier.add(nextTxn.getAndIncrement(), FINAL_SESSION, false, true, ops, null, false, "final read");
        }
        FinalStateVerifier.Verdict verdict = verifier.verify(finalValues, this::key, clock -> "clock " + clock);
        violations.addAll(verdict.violations());
        if (historyFile != null) PlumeText.write(verdict.history(), historyFile);
        CheckResult check = verdict.check();
        explainAbortedReads(check, log);
        Map<String, Long> errorCounts = new TreeMap<>();
        errors.forEach((k, v) -> errorCounts.put(k, v.sum()));
        long unknownUnsettled = unknownSubmitted.sum() - (unknownCommitted.sum() - unknownKnownClock.sum() + unknownAborted.sum());
        return new Result(readsAttempted.sum(), readsOk.sum(), readsInTwoRounds.sum(), writesAttempted.sum(), writesAcknowledged.sum(),
                writesAbortedKnown.sum(), unknownCommitted.sum(), unknownAborted.sum(), Math.max(0, unknownUnsettled),
                deadCommitted.sum(), deadAborted.sum(), deadSubmitted.sum() - deadCommitted.sum() - deadAborted.sum(),
                logs.size(), verdict.keysWritten(), check, violations, verdict.lostAcknowledged(), errorCounts);
    }
}
