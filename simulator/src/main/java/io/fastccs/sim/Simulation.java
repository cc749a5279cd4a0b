package io.fastccs.sim;

import io.fastccs.check.History;
import io.fastccs.check.Op;
import io.fastccs.check.Txn;
import io.fastccs.protocol.ClientSession;
import io.fastccs.protocol.Key;
import io.fastccs.protocol.Outgoing;
import io.fastccs.protocol.Partition;
import io.fastccs.protocol.ReadTransaction;
import io.fastccs.protocol.VectorClock;
import io.fastccs.protocol.WriteTransaction;
import io.fastccs.protocol.api.PeerSink;
import io.fastccs.protocol.api.Topology;
import io.fastccs.protocol.impl.HashTopology;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.protocol.messages.ClientRequest;
import io.fastccs.protocol.messages.ClientResponse;
import io.fastccs.protocol.messages.ErrorCode;
import io.fastccs.protocol.messages.ErrorReply;
import io.fastccs.protocol.messages.Message;
import io.fastccs.protocol.messages.Outcome;
import io.fastccs.protocol.messages.PeerMessage;
import io.fastccs.protocol.messages.ReadValue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A deterministic simulation of a FastCCS cluster: N real {@link Partition}s and M closed-loop client sessions
 * running the real client state machines, over a simulated network, all on one thread in simulated time. One seed
 * decides everything (workload, delays, faults), so a run replays exactly.
 *
 * <p>After the workload, faults stop, the cluster quiesces, clients that lost track of a write ask its coordinator
 * for the outcome, and a final session reads every written key. The recorded history then goes to the TCC checker,
 * and the run checks what the checker cannot know: every acknowledged write survives as the newest version of
 * its keys, every partition settled everything, and no honest client ever sent a clock ahead of a partition.
 */
public final class Simulation {
    /** The session id of the convergence reads. */
    public static final long FINAL_SESSION = 0;

    private static final long READ_TIMEOUT_MICROS = 1_000_000;
    private static final long MAX_SIM_MICROS = 3_600_000_000L;

    private final SimConfig cfg;
    private final long seed;
    private final Consumer<ClientSession> sessionHook;
    private final Topology topology;
    private final SplittableRandom netRandom, workloadRandom, faultRandom, coordinatorRandom;
    private final KeyDistribution.Sampler keySampler;
    private final MessageSizes sizes = new MessageSizes();

    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long now;
    private long eventSequence;
    private boolean stopped;

    private final int nodeCount;
    private final long[] nicFreeAt;
    private final Map<Long, Long> linkLastDelivery = new HashMap<>();

    private final InMemoryPartitionStore[] stores;
    private final Partition[] partitions;
    private final int[] epochs;
    private final boolean[] down;

    private final SimClient[] clients;
    private final int resolverNode;
    private final Map<Long, List<Recorded>> sessionLogs = new TreeMap<>();
    private final Map<Long, Key> keyObjects = new HashMap<>();
    private long nextSessionId = FINAL_SESSION + 1;
    private long nextTxnId = 1;
    private long nextValueId = 1;
    private long issued;
    private int busyClients;
    private boolean faultsActive;
    private long workloadEndedAt = -1;

    private final SimStats stats = new SimStats();

    /** One transaction as the history will show it. */
    static final class Recorded {
        final long txnId;
        final long session;
        final boolean write;
        final List<Op> ops = new ArrayList<>();
        Outcome outcome = Outcome.UNDECIDED;
        VectorClock commitClock;
        WriteTransaction transaction;
        boolean acknowledged;

        Recorded(long txnId, long session, boolean write) {
            this.txnId = txnId;
            this.session = session;
            this.write = write;
        }
    }

    private record Event(long at, long sequence, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            return at != o.at ? Long.compare(at, o.at) : Long.compare(sequence, o.sequence);
        }
    }

    public Simulation(SimConfig cfg, long seed) {
        this(cfg, seed, s -> { });
    }

    /** @param sessionHook applied to every new client session; tests use it to break the client on purpose */
    public Simulation(SimConfig cfg, long seed, Consumer<ClientSession> sessionHook) {
        this.cfg = cfg;
        this.seed = seed;
        this.sessionHook = sessionHook;
        SplittableRandom root = new SplittableRandom(seed);
        this.netRandom = root.split();
        this.workloadRandom = root.split();
        this.faultRandom = root.split();
        this.coordinatorRandom = root.split();
        this.topology = new HashTopology(cfg.partitions());
        this.keySampler = cfg.distribution().sampler(cfg.keys());
        int n = cfg.partitions();
        this.nodeCount = n + cfg.clients() + 1;
        this.resolverNode = nodeCount - 1;
        this.nicFreeAt = new long[nodeCount];
        this.stores = new InMemoryPartitionStore[n];
        this.partitions = new Partition[n];
        this.epochs = new int[n];
        this.down = new boolean[n];
        this.clients = new SimClient[cfg.clients()];
    }

    /** Runs the whole simulation once and returns what it measured and found. */
    public SimResult run() {
        if (!queue.isEmpty() || now != 0) throw new IllegalStateException("a Simulation runs once");
        for (int p = 0; p < cfg.partitions(); p++) {
            stores[p] = new InMemoryPartitionStore();
            startPartition(p);
        }
        faultsActive = cfg.faults().any();
        if (cfg.faults().partitionCrashesPerSecond() > 0) scheduleNextCrash();
        for (int c = 0; c < clients.length; c++) {
            clients[c] = new SimClient(c, cfg.partitions() + c);
            SimClient client = clients[c];
            busyClients++;
            schedule(workloadRandom.nextLong(1000), client::startNext);
        }
        while (!stopped) {
            Event e = queue.poll();
            if (e == null) throw new IllegalStateException("simulation ran dry at " + now + "us (seed " + seed + ")");
            now = e.at();
            if (now > MAX_SIM_MICROS)
                throw new IllegalStateException("simulation exceeded an hour of simulated time (seed " + seed + "): " + diagnostics());
            e.action().run();
        }
        return finish();
    }

    /** Where a run that does not finish is stuck. */
    private String diagnostics() {
        StringBuilder sb = new StringBuilder();
        sb.append("workload ").append(workloadEndedAt < 0 ? "running" : "ended at " + workloadEndedAt + "us")
                .append(", busy clients ").append(busyClients).append(", issued ").append(issued);
        long undecided = 0;
        for (List<Recorded> log : sessionLogs.values())
            for (Recorded r : log)
                if (r.write && r.outcome == Outcome.UNDECIDED) {
                    if (undecided++ < 5)
                        sb.append("\n  undecided write ").append(r.txnId).append(r.transaction == null ? " (never started)"
                                : " " + r.transaction.txnId() + " coordinator " + r.transaction.coordinator() + " participants "
                                + r.transaction.participants() + " known outcome " + r.transaction.outcome());
                }
        sb.append(", writes without outcome ").append(undecided).append(", final reads ").append(finalValues.size());
        for (int p = 0; p < partitions.length; p++) {
            Partition part = partitions[p];
            sb.append("\n  partition ").append(p).append(down[p] ? " DOWN" : part == null ? " null" : " " + part + " pending="
                    + part.pendingCount() + " svc=" + part.snapshot());
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------------------------------------ scheduling

    private void schedule(long delay, Runnable action) {
        queue.add(new Event(now + Math.max(0, delay), eventSequence++, action));
    }

    // ------------------------------------------------------------------------------------------------ partitions

    private void startPartition(int p) {
        int epoch = ++epochs[p];
        down[p] = false;
        PeerSink sink = (to, message) -> sendFromPartition(p, to, message);
        partitions[p] = Partition.start(p, cfg.partition(), topology, stores[p], sink, () -> now);
        long tick = Math.min(cfg.partition().stabilizationIntervalMicros(), 5_000);
        schedule(faultRandom.nextLong(tick) + 1, () -> tick(p, epoch, tick));
    }

    private void tick(int p, int epoch, long interval) {
        if (down[p] || epochs[p] != epoch) return;
        partitions[p].tick();
        schedule(interval, () -> tick(p, epoch, interval));
    }

    private void scheduleNextCrash() {
        double rate = cfg.faults().partitionCrashesPerSecond();
        long gap = (long) (-Math.log(1 - faultRandom.nextDouble()) / rate * 1_000_000);
        schedule(gap, () -> {
            if (!faultsActive) return;
            int p = faultRandom.nextInt(cfg.partitions());
            if (!down[p]) crash(p, 1 + faultRandom.nextLong(cfg.faults().maxDowntimeMicros()));
            scheduleNextCrash();
        });
    }

    /** The process dies: volatile state and in-flight connections are gone, the store is what survives. */
    private void crash(int p, long downtime) {
        down[p] = true;
        epochs[p]++;
        partitions[p] = null;
        stats.partitionCrashes++;
        int epoch = epochs[p];
        schedule(downtime, () -> {
            if (down[p] && epochs[p] == epoch) restart(p);
        });
    }

    private void restart(int p) {
        startPartition(p);
        stats.partitionRestarts++;
    }

    // ------------------------------------------------------------------------------------------------ network

    private void sendFromPartition(int from, int to, PeerMessage message) {
        int toEpoch = epochs[to];
        transmit(from, to, message, () -> {
            if (!down[to] && epochs[to] == toEpoch) partitions[to].onPeerMessage(from, message);
        });
    }

    private void sendToPartition(int fromNode, int partition, ClientRequest request, Consumer<ClientResponse> onReply) {
        int epoch = epochs[partition];
        transmit(fromNode, partition, request, () -> {
            if (down[partition] || epochs[partition] != epoch) return;
            partitions[partition].onClientRequest(response -> {
                if (epochs[partition] == epoch) transmit(partition, fromNode, response, () -> onReply.accept(response));
            }, request);
        });
    }

    /**
     * One message over the wire: serialized on the sender's NIC at the configured bandwidth, then delayed by an
     * exponentially distributed latency; links keep FIFO order unless the run reorders.
     */
    private void transmit(int from, int to, Message message, Runnable deliver) {
        int bytes = sizes.size(message);
        stats.messages++;
        stats.bytes += bytes;
        stats.payloadBytes += MessageSizes.payload(message);
        boolean faulty = faultsActive && cfg.faults().any();
        if (faulty && cfg.faults().messageLoss() > 0 && netRandom.nextDouble() < cfg.faults().messageLoss()) {
            stats.messagesLost++;
            return;
        }
        long start = Math.max(now, nicFreeAt[from]);
        nicFreeAt[from] = start + (long) Math.ceil(bytes * 8 / cfg.bandwidthBitsPerMicro());
        long delay = (long) (-Math.log(1 - netRandom.nextDouble()) * cfg.meanDelayMicros());
        if (faulty && cfg.faults().delaySpikeProbability() > 0 && netRandom.nextDouble() < cfg.faults().delaySpikeProbability()) {
            delay += netRandom.nextLong(cfg.faults().delaySpikeMaxMicros() + 1);
            stats.delaySpikes++;
        }
        long at = nicFreeAt[from] + delay;
        if (cfg.fifo()) {
            long link = (long) from * nodeCount + to;
            Long last = linkLastDelivery.get(link);
            if (last != null && last > at) at = last;
            linkLastDelivery.put(link, at);
        }
        schedule(at - now, deliver);
    }

    // ------------------------------------------------------------------------------------------------ clients

    private Key key(long k) {
        return keyObjects.computeIfAbsent(k, x -> Key.of(Long.toString(x)));
    }

    private static long keyIndex(Key key) {
        return Long.parseLong(key.toString());
    }

    /** Values carry their id in the first 8 bytes, so a read names the write it saw; shorter values grow to 8 bytes. */
    private byte[] value(long id) {
        return ByteBuffer.allocate(Math.max(8, cfg.valueSize())).putLong(0, id).array();
    }

    private static long valueId(ReadValue v) {
        return v == null || v.value() == null ? 0 : ByteBuffer.wrap(v.value()).getLong(0);
    }

    private ClientSession newSession(long sessionId, long clientId) {
        long[] ids = {0};
        ClientSession s = new ClientSession(topology, clientId, VectorClock.zero(cfg.partitions()), () -> ++ids[0]);
        sessionHook.accept(s);
        sessionLogs.put(sessionId, new ArrayList<>());
        return s;
    }

    private List<Long> distinctKeys(int count) {
        TreeSet<Long> chosen = new TreeSet<>();
        while (chosen.size() < count) chosen.add(keySampler.next(workloadRandom));
        List<Long> keys = new ArrayList<>(chosen);
        // Shuffle so the transaction's key order does not depend on key order.
        for (int i = keys.size() - 1; i > 0; i--) {
            int j = workloadRandom.nextInt(i + 1);
            Long t = keys.get(i);
            keys.set(i, keys.get(j));
            keys.set(j, t);
        }
        return keys;
    }

    /** A closed-loop client: one session, one transaction at a time, the next one as soon as the last ends. */
    private final class SimClient {
        final int index;
        final int node;
        long clientId;
        long sessionId;
        ClientSession session;
        int incarnation;

        ReadTransaction read;
        List<Long> readKeys;
        WriteTransaction write;
        Recorded writeRecord;
        long opStartedAt;
        long opToken;

        SimClient(int index, int node) {
            this.index = index;
            this.node = node;
            newIncarnation();
        }

        void newIncarnation() {
            incarnation++;
            clientId = ((long) index << 32) | incarnation;
            sessionId = nextSessionId++;
            session = newSession(sessionId, clientId);
        }

        void startNext() {
            read = null;
            write = null;
            if (issued >= cfg.transactions() || workloadEndedAt >= 0) {
                busyClients--;
                if (busyClients == 0) endWorkload();
                return;
            }
            issued++;
            opStartedAt = now;
            if (workloadRandom.nextDouble() < cfg.writeFraction()) startWrite(distinctKeys(cfg.keysPerWrite()));
            else startRead(distinctKeys(cfg.keysPerRead()));
        }

        void startRead(List<Long> keys) {
            readKeys = keys;
            List<Key> ks = new ArrayList<>(keys.size());
            for (long k : keys) ks.add(key(k));
            read = session.read(ks);
            ReadTransaction txn = read;
            long token = ++opToken;
            sendAll(txn.start(), txn::onResponse, () -> afterRead(txn));
            schedule(READ_TIMEOUT_MICROS, () -> {
                if (opToken == token && read == txn && !txn.isFinished()) {
                    stats.readTimeouts++;
                    startNext(); // reads change nothing: abandon it, nothing to record
                }
            });
        }

        void afterRead(ReadTransaction txn) {
            if (txn != read || !txn.isFinished()) return;
            if (!txn.succeeded()) {
                read = null;
                ErrorReply e = txn.failure();
                if (e.code() == ErrorCode.SNAPSHOT_EXPIRED) {
                    stats.snapshotExpiredRetries++;
                    startRead(readKeys);
                } else {
                    stats.unexpectedErrors.add("read: " + e);
                    startNext();
                }
                return;
            }
            read = null; // finished: later responses must not finish it twice
            ReadTransaction.Result r = txn.result();
            Recorded rec = new Recorded(nextTxnId++, sessionId, false);
            for (Map.Entry<Key, ReadValue> e : r.values().entrySet())
                rec.ops.add(Op.read(keyIndex(e.getKey()), valueId(e.getValue())));
            rec.outcome = Outcome.COMMITTED;
            sessionLogs.get(sessionId).add(rec);
            stats.recordRead(r.rounds(), now - opStartedAt, r.secondRoundPartitions());
            schedule(0, this::startNext);
        }

        void startWrite(List<Long> keys) {
            Map<Key, byte[]> writes = new LinkedHashMap<>();
            Recorded rec = new Recorded(nextTxnId++, sessionId, true);
            for (long k : keys) {
                long id = nextValueId++;
                writes.put(key(k), value(id));
                rec.ops.add(Op.write(k, id));
            }
            write = session.write(writes, coordinatorRandom);
            rec.transaction = write;
            writeRecord = rec;
            sessionLogs.get(sessionId).add(rec);
            WriteTransaction txn = write;
            List<Outgoing> out = txn.start();
            if (faultsActive && faultRandom.nextDouble() < cfg.faults().clientCrashPerWrite()) {
                crashMidWrite(txn, rec, out);
                return;
            }
            long token = ++opToken;
            sendAll(out, r -> {
                txn.onResponse(r);
                return List.of();
            }, () -> afterWrite(txn));
            long timeout = 2 * cfg.partition().transactionTimeoutMicros() + 2_000_000;
            schedule(timeout, () -> {
                if (opToken == token && write == txn && !txn.isFinished()) {
                    stats.writeTimeouts++;
                    lostTrack(rec);
                    startNext();
                }
            });
        }

        /** The client dies after sending its write to a random part of the participants (maybe none, maybe all). */
        void crashMidWrite(WriteTransaction txn, Recorded rec, List<Outgoing> out) {
            stats.clientCrashes++;
            List<Outgoing> reached = new ArrayList<>();
            for (Outgoing o : out) if (faultRandom.nextBoolean()) reached.add(o);
            sendAll(reached, r -> List.of(), () -> { });
            lostTrack(rec);
            opToken++;
            read = null;
            write = null;
            schedule(1_000 + faultRandom.nextLong(20_000), this::startNext);
        }

        /** The client no longer knows the write's outcome: its session ends here; the client goes on with a new one. */
        void lostTrack(Recorded rec) {
            if (rec.transaction.outcome() != Outcome.UNDECIDED) {
                rec.outcome = rec.transaction.outcome();
                rec.commitClock = rec.transaction.commitClock();
            }
            if (rec.outcome == Outcome.UNDECIDED) askOutcome(rec, 0);
            newIncarnation();
        }

        void afterWrite(WriteTransaction txn) {
            if (txn != write || !txn.isFinished()) return;
            write = null; // finished: a second reply at the same instant must not finish it twice
            Recorded rec = writeRecord;
            rec.outcome = txn.outcome();
            rec.commitClock = txn.commitClock();
            if (txn.isConfirmed()) {
                rec.acknowledged = true;
                stats.recordWrite(true, now - opStartedAt);
            } else {
                if (txn.failure() != null) stats.unexpectedErrors.add("write: " + txn.failure());
                stats.recordWrite(false, now - opStartedAt);
            }
            schedule(0, this::startNext);
        }

        /** Sends requests; each response goes to {@code handler}, which may ask for more, then {@code after} runs. */
        void sendAll(List<Outgoing> out, Function<ClientResponse, List<Outgoing>> handler, Runnable after) {
            int myIncarnation = incarnation;
            for (Outgoing o : out) sendRequest(o, myIncarnation, handler, after);
        }

        void sendRequest(Outgoing o, int myIncarnation, Function<ClientResponse, List<Outgoing>> handler, Runnable after) {
            sendToPartition(node, o.partition(), o.request(), response -> {
                if (incarnation != myIncarnation) return; // the client died since: nobody listens
                for (Outgoing more : handler.apply(response)) sendRequest(more, myIncarnation, handler, after);
                after.run();
            });
        }
    }

    // ------------------------------------------------------------------------------------------------ endgame

    private void endWorkload() {
        workloadEndedAt = now;
        faultsActive = false;
        for (int p = 0; p < cfg.partitions(); p++) if (down[p]) restart(p);
        // Long enough for every coordinator to time out, every participant to check, and stabilization to spread.
        long quiesce = 2 * cfg.partition().transactionTimeoutMicros() + 5 * cfg.partition().checkIntervalMicros()
                + 20 * cfg.partition().stabilizationIntervalMicros() + cfg.partition().stabilizationHeartbeatMicros();
        schedule(quiesce, this::resolveUnknownOutcomes);
    }

    /**
     * A client that lost track of a write asks its coordinator (as the restarted client would, at once and then
     * every 200 ms) until the outcome is decided; coordinators keep decisions long enough for that.
     */
    private void askOutcome(Recorded rec, long delay) {
        schedule(delay, () -> {
            if (rec.outcome != Outcome.UNDECIDED) return;
            Outgoing q = rec.transaction.queryOutcome();
            sendToPartition(resolverNode, q.partition(), q.request(), response -> {
                rec.transaction.onResponse(response);
                if (rec.outcome == Outcome.UNDECIDED && rec.transaction.outcome() != Outcome.UNDECIDED) {
                    rec.outcome = rec.transaction.outcome();
                    rec.commitClock = rec.transaction.commitClock();
                    stats.outcomesResolved.merge(rec.outcome, 1L, Long::sum);
                }
            });
            askOutcome(rec, 200_000);
        });
    }

    private void resolveUnknownOutcomes() {
        for (List<Recorded> log : sessionLogs.values())
            for (Recorded r : log)
                if (r.write && r.outcome == Outcome.UNDECIDED) {
                    schedule(500_000, this::resolveUnknownOutcomes); // still asking; wait for the answers
                    return;
                }
        finalReads();
    }

    /** A fresh session reads every key ever written, in batches, after everything settled. */
    private void finalReads() {
        for (Partition p : partitions)
            if (p.unsettledCount() > 0)
                stats.invariantViolations.add("partition " + p.self() + " still has " + p.unsettledCount()
                        + " unsettled transactions after quiescence");
        TreeSet<Long> written = new TreeSet<>();
        for (List<Recorded> log : sessionLogs.values())
            for (Recorded r : log)
                if (r.write) for (Op op : r.ops) written.add(op.key());
        List<Long> all = new ArrayList<>(written);
        ClientSession session = newSession(FINAL_SESSION, -1);
        int batch = Math.min(64, cfg.partition().maxKeysPerRequest());
        finalBatch(session, all, 0, batch);
    }

    private void finalBatch(ClientSession session, List<Long> keys, int from, int batch) {
        if (from >= keys.size()) {
            stopped = true;
            return;
        }
        List<Long> part = keys.subList(from, Math.min(keys.size(), from + batch));
        List<Key> ks = new ArrayList<>();
        for (long k : part) ks.add(key(k));
        ReadTransaction txn = session.read(ks);
        Runnable[] step = new Runnable[1];
        Consumer<Outgoing> send = new Consumer<>() {
            @Override
            public void accept(Outgoing o) {
                sendToPartition(resolverNode, o.partition(), o.request(), response -> {
                    for (Outgoing m : txn.onResponse(response)) this.accept(m);
                    step[0].run();
                });
            }
        };
        step[0] = () -> {
            if (!txn.isFinished()) return;
            if (!txn.succeeded()) {
                stats.invariantViolations.add("final read failed: " + txn.failure());
                finalBatch(session, keys, from + batch, batch);
                return;
            }
            Recorded rec = new Recorded(nextTxnId++, FINAL_SESSION, false);
            for (Map.Entry<Key, ReadValue> e : txn.result().values().entrySet()) {
                rec.ops.add(Op.read(keyIndex(e.getKey()), valueId(e.getValue())));
                finalValues.put(keyIndex(e.getKey()), e.getValue());
            }
            rec.outcome = Outcome.COMMITTED;
            sessionLogs.get(FINAL_SESSION).add(rec);
            finalBatch(session, keys, from + batch, batch);
        };
        for (Outgoing o : txn.start()) send.accept(o);
    }

    private final Map<Long, ReadValue> finalValues = new HashMap<>();

    private SimResult finish() {
        History.Builder history = History.builder().finalSession(FINAL_SESSION);
        Map<Long, Recorded> newestCommitted = new HashMap<>();
        for (List<Recorded> log : sessionLogs.values()) {
            for (Recorded r : log) {
                boolean committed = r.outcome == Outcome.COMMITTED;
                if (r.write && r.outcome == Outcome.UNDECIDED)
                    stats.invariantViolations.add("write txn " + r.txnId + " has no known outcome after quiescence");
                history.add(new Txn(r.txnId, r.session, committed, r.ops));
                if (!r.write || !committed) continue;
                if (r.commitClock == null) {
                    stats.invariantViolations.add("committed write txn " + r.txnId + " without a commit clock");
                    continue;
                }
                for (Op op : r.ops) {
                    Recorded best = newestCommitted.get(op.key());
                    if (best == null || VectorClock.compareArbitration(best.commitClock, r.commitClock) < 0)
                        newestCommitted.put(op.key(), r);
                }
            }
        }
        // What the checker cannot know: which committed write of each key is the newest, in the arbitration order.
        for (Map.Entry<Long, Recorded> e : newestCommitted.entrySet()) {
            long k = e.getKey();
            Recorded w = e.getValue();
            long expected = 0;
            for (Op op : w.ops) if (op.key() == k) expected = op.value();
            ReadValue got = finalValues.get(k);
            if (valueId(got) != expected)
                stats.invariantViolations.add("key " + k + ": final read returned value " + valueId(got) + " (sequence "
                        + (got == null ? 0 : got.sequence()) + ") but the newest committed write is txn " + w.txnId + " value "
                        + expected + " (sequence " + w.commitClock.get(topology.ownerOf(key(k))) + ")"
                        + (w.acknowledged ? ": an acknowledged write was lost" : ""));
        }
        long clockAhead = 0;
        for (Partition p : partitions) clockAhead += p.metrics().clockAhead();
        if (clockAhead > 0)
            stats.invariantViolations.add(clockAhead + " client clocks were ahead of a partition's settled prefix");
        for (InMemoryPartitionStore s : stores) stats.versionsStored += s.versionCount();
        stats.workloadMicros = workloadEndedAt;
        stats.totalMicros = now;
        List<io.fastccs.protocol.PartitionMetrics> metrics = new ArrayList<>();
        for (Partition p : partitions) metrics.add(p.metrics());
        return new SimResult(cfg, seed, history.build(), stats, metrics);
    }
}
