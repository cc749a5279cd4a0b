package io.fastccs.sim;

import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.primitives.KeyType;

import io.fastccs.workload.KeyDistribution;
import io.fastccs.check.Op;
import io.fastccs.core.spi.ProtocolFactory;
import io.fastccs.core.spi.ProtocolSession;
import io.fastccs.core.spi.ReadResult;
import io.fastccs.core.spi.ReadStep;
import io.fastccs.core.spi.WriteStep;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.Outgoing;
import io.fastccs.core.api.Topology;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.ReadValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The clients: M closed-loop sessions running the real client state machines, each one transaction at a time, the
 * next as soon as the last ends, until the configured number of transactions was issued. Client c is network node
 * {@code partitions + c}. Every transaction goes to the {@link HistoryLog}.
 */
final class ClientWorkload {
    private static final long READ_TIMEOUT_MICROS = 1_000_000;

    private final SimConfig cfg;
    private final Topology topology;
    private final EventQueue events;
    private final SimPartitions partitions;
    private final FaultSchedule faults;
    private final OutcomeQueries outcomes;
    private final HistoryLog history;
    private final SimKeys keys;
    private final SimStats stats;
    private final SplittableRandom random, coordinatorRandom;
    private final KeyDistribution keySampler;
    private final ProtocolFactory protocol;
    private final Consumer<ProtocolSession> sessionHook;
    private final Runnable onWorkloadEnd;
    private final SimClient[] clients;
    private final TypedKeys typedKeys;
    private long nextSessionId = Simulation.FINAL_SESSION + 1;
    private long issued;
    private int busyClients;
    private long endedAt = -1;

    ClientWorkload(SimConfig cfg, Topology topology, EventQueue events, SimPartitions partitions, FaultSchedule faults,
                   OutcomeQueries outcomes, HistoryLog history, SimKeys keys, SimStats stats, SplittableRandom random,
                   SplittableRandom coordinatorRandom, ProtocolFactory protocol, Consumer<ProtocolSession> sessionHook,
                   Runnable onWorkloadEnd) {
        this.cfg = cfg;
        this.topology = topology;
        this.events = events;
        this.partitions = partitions;
        this.faults = faults;
        this.outcomes = outcomes;
        this.history = history;
        this.keys = keys;
        this.stats = stats;
        this.random = random;
        this.coordinatorRandom = coordinatorRandom;
        this.keySampler = cfg.keyDistribution();
        this.protocol = protocol;
        this.sessionHook = sessionHook;
        this.onWorkloadEnd = onWorkloadEnd;
        this.clients = new SimClient[cfg.clients()];
        this.typedKeys = new TypedKeys(cfg.typedFraction());
    }

    void start() {
        for (int c = 0; c < clients.length; c++) {
            clients[c] = new SimClient(c, cfg.partitions() + c);
            SimClient client = clients[c];
            busyClients++;
            events.schedule(random.nextLong(1000), client::startNext);
        }
    }

    /** When the last client stopped, or -1 while the workload runs. */
    long endedAt() {
        return endedAt;
    }

    String describe() {
        return "workload " + (endedAt < 0 ? "running" : "ended at " + endedAt + "us") + ", busy clients " + busyClients
                + ", issued " + issued;
    }

    /** A new causal session from the protocol's factory, logged in the history as {@code sessionId}; the tests' hook may break it on purpose. */
    ProtocolSession newSession(long sessionId, long clientId) {
        long[] ids = {0};
        ProtocolSession session = protocol.newSession(topology, clientId, () -> ++ids[0]);
        sessionHook.accept(session);
        history.openSession(sessionId);
        return session;
    }

    private List<Long> distinctKeys(int count) {
        TreeSet<Long> chosen = new TreeSet<>();
        while (chosen.size() < count) chosen.add(keySampler.next(random));
        List<Long> list = new ArrayList<>(chosen);
        // Shuffle so the transaction's key order does not depend on key order.
        for (int i = list.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Long t = list.get(i);
            list.set(i, list.get(j));
            list.set(j, t);
        }
        return list;
    }

    /** A closed-loop client: one session, one transaction at a time, the next one as soon as the last ends. */
    private final class SimClient {
        final int index;
        final int node;
        long clientId;
        long sessionId;
        ProtocolSession session;
        int incarnation;

        ReadStep read;
        List<Long> readKeys;
        WriteStep write;
        RecordedTxn writeRecord;
        /** Rounds of requests the write still sends before the client dies in the middle of the next one; 0: it lives. */
        int roundsToDeath;
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
            if (issued >= cfg.transactions() || endedAt >= 0) {
                busyClients--;
                if (busyClients == 0) {
                    endedAt = events.now();
                    onWorkloadEnd.run();
                }
                return;
            }
            issued++;
            opStartedAt = events.now();
            if (random.nextDouble() < cfg.writeFraction()) startWrite(distinctKeys(cfg.keysPerWrite()));
            else startRead(distinctKeys(cfg.keysPerRead()));
        }

        void startRead(List<Long> readKeys) {
            this.readKeys = readKeys;
            List<Key> ks = new ArrayList<>(readKeys.size());
            for (long k : readKeys) ks.add(keys.key(k));
            read = session.read(ks);
            ReadStep txn = read;
            long token = ++opToken;
            sendAll(txn.start(), txn::onResponse, () -> afterRead(txn), r -> { });
            events.schedule(READ_TIMEOUT_MICROS, () -> {
                if (opToken == token && read == txn && !txn.isFinished()) {
                    stats.readTimeouts++;
                    startNext(); // reads change nothing: abandon it, nothing to record
                }
            });
        }

        void afterRead(ReadStep txn) {
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
            ReadResult r = txn.result();
            RecordedTxn rec = new RecordedTxn(history.nextTxnId(), sessionId, false);
            for (Map.Entry<Key, ReadValue> e : r.values().entrySet()) {
                long k = SimKeys.keyIndex(e.getKey());
                rec.ops.add(typedKeys.typeOf(k) != KeyType.REGISTER ? typedKeys.read(sessionId, k, e.getValue())
                        : Op.read(k, SimKeys.valueId(e.getValue())));
            }
            rec.outcome = Outcome.COMMITTED;
            history.add(rec);
            stats.recordRead(r.rounds(), events.now() - opStartedAt, r.secondRoundPartitions());
            stats.staleness.read(rec.keys(), rec.values(), opStartedAt);
            events.schedule(0, this::startNext);
        }

        void startWrite(List<Long> writeKeys) {
            Map<Key, byte[]> writes = new LinkedHashMap<>();
            List<KeyValue> operations = new ArrayList<>();
            RecordedTxn rec = new RecordedTxn(history.nextTxnId(), sessionId, true);
            for (long k : writeKeys) {
                if (typedKeys.typeOf(k) != KeyType.REGISTER) {
                    operations.add(typedKeys.operation(sessionId, keys.key(k), k, history, random, rec.ops));
                    continue;
                }
                long id = history.nextValueId();
                writes.put(keys.key(k), keys.value(id));
                operations.add(new KeyValue(keys.key(k), keys.value(id)));
                rec.ops.add(Op.write(k, id));
            }
            write = writes.size() == operations.size() ? session.write(writes, coordinatorRandom)
                    : session.write(operations, coordinatorRandom);
            rec.transaction = write;
            writeRecord = rec;
            history.add(rec);
            WriteStep txn = write;
            List<Outgoing> out = txn.start();
            roundsToDeath = 0;
            if (faults.clientDiesMidWrite()) {
                // It dies while its writes are on their way: in the first round, or after the rounds before them.
                roundsToDeath = txn.roundsBeforeWrites();
                if (roundsToDeath == 0) {
                    crashMidWrite(txn, rec, out);
                    return;
                }
            }
            long token = ++opToken;
            sendAll(out, response -> writeResponse(txn, rec, response), () -> afterWrite(txn), rec.answers::add);
            long timeout = 2 * cfg.partition().transactionTimeoutMicros() + 2_000_000;
            events.schedule(timeout, () -> {
                if (opToken == token && write == txn && !txn.isFinished()) {
                    stats.writeTimeouts++;
                    lostTrack(rec);
                    startNext();
                }
            });
        }

        /** A response to the write: its next requests, unless the client dies while sending them. */
        List<Outgoing> writeResponse(WriteStep txn, RecordedTxn rec, ClientResponse response) {
            List<Outgoing> more = txn.onResponse(response);
            if (!more.isEmpty() && txn == write && roundsToDeath > 0 && --roundsToDeath == 0) {
                crashMidWrite(txn, rec, more);
                return List.of();
            }
            return more;
        }

        /** The client dies after sending these requests of its write to a random part of their partitions (maybe none, maybe all). */
        void crashMidWrite(WriteStep txn, RecordedTxn rec, List<Outgoing> out) {
            stats.clientCrashes++;
            SplittableRandom faultRandom = faults.random();
            List<Outgoing> reached = new ArrayList<>();
            for (Outgoing o : out) if (faultRandom.nextBoolean()) reached.add(o);
            sendAll(reached, r -> List.of(), () -> { }, rec.answers::add);
            lostTrack(rec);
            opToken++;
            read = null;
            write = null;
            events.schedule(1_000 + faultRandom.nextLong(20_000), this::startNext);
        }

        /** The client no longer knows the write's outcome: its session ends here; the client goes on with a new one. */
        void lostTrack(RecordedTxn rec) {
            if (rec.transaction.outcome() != Outcome.UNDECIDED) {
                rec.outcome = rec.transaction.outcome();
                rec.commitStamp = rec.transaction.commitStamp();
            }
            if (rec.outcome == Outcome.UNDECIDED) outcomes.ask(rec, 0);
            newIncarnation();
        }

        void afterWrite(WriteStep txn) {
            if (txn != write || !txn.isFinished()) return;
            write = null; // finished: a second reply at the same instant must not finish it twice
            RecordedTxn rec = writeRecord;
            rec.outcome = txn.outcome();
            rec.commitStamp = txn.commitStamp();
            if (txn.isConfirmed()) {
                rec.acknowledged = true;
                stats.recordWrite(true, events.now() - opStartedAt);
                stats.staleness.written(rec.keys(), rec.values(), opStartedAt, events.now());
            } else {
                if (txn.failure() != null) stats.unexpectedErrors.add("write: " + txn.failure());
                stats.recordWrite(false, events.now() - opStartedAt);
            }
            events.schedule(0, this::startNext);
        }

        /**
         * Sends requests; each response goes to {@code handler}, which may ask for more, then {@code after} runs.
         * {@code observer} sees every answer where the partition gives it, lost on the way back or not.
         */
        void sendAll(List<Outgoing> out, Function<ClientResponse, List<Outgoing>> handler, Runnable after,
                     Consumer<ClientResponse> observer) {
            int myIncarnation = incarnation;
            for (Outgoing o : out) sendRequest(o, myIncarnation, handler, after, observer);
        }

        void sendRequest(Outgoing o, int myIncarnation, Function<ClientResponse, List<Outgoing>> handler, Runnable after,
                         Consumer<ClientResponse> observer) {
            partitions.sendToPartition(node, o.partition(), o.request(), response -> {
                if (incarnation != myIncarnation) return; // the client died since: nobody listens
                for (Outgoing more : handler.apply(response)) sendRequest(more, myIncarnation, handler, after, observer);
                after.run();
            }, observer);
        }
    }
}
