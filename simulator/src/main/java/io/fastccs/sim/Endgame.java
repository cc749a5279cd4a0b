package io.fastccs.sim;

import io.fastccs.core.primitives.KeyType;

import io.fastccs.check.Op;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.Outgoing;
import io.fastccs.core.spi.PartitionServer;
import io.fastccs.core.spi.ProtocolSession;
import io.fastccs.core.spi.ReadStep;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.ReadValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * After the workload: faults stop and downed partitions restart, the cluster quiesces, every write whose outcome its
 * client lost is settled by asking its coordinator, and a fresh session reads every key ever written.
 */
final class Endgame {
    private final SimConfig cfg;
    private final EventQueue events;
    private final SimPartitions partitions;
    private final FaultSchedule faults;
    private final HistoryLog history;
    private final SimKeys keys;
    private final SimStats stats;
    private final int node;
    private final Runnable onDone;
    private ClientWorkload workload;
    private final Map<Long, ReadValue> finalValues = new HashMap<>();
    private final TypedKeys typedKeys;
    /** How long after quiescence the endgame waits for outcomes still being asked for. */
    private static final long OUTCOME_WAIT_MICROS = 600_000_000;

    /** @param node the network node the final reads come from; {@code onDone} runs after the last of them */
    Endgame(SimConfig cfg, EventQueue events, SimPartitions partitions, FaultSchedule faults, HistoryLog history, SimKeys keys,
            SimStats stats, int node, Runnable onDone) {
        this.typedKeys = new TypedKeys(cfg.typedFraction());
        this.cfg = cfg;
        this.events = events;
        this.partitions = partitions;
        this.faults = faults;
        this.history = history;
        this.keys = keys;
        this.stats = stats;
        this.node = node;
        this.onDone = onDone;
    }

    /** The workload whose sessions the final reads join (it also starts this endgame when it ends). */
    void workload(ClientWorkload workload) {
        this.workload = workload;
    }

    /** What each written key's final read returned. */
    Map<Long, ReadValue> finalValues() {
        return finalValues;
    }

    void begin() {
        faults.stop();
        partitions.healAll();
        for (int p = 0; p < partitions.count(); p++) if (partitions.isDown(p)) partitions.restart(p);
        // Long enough for every coordinator to time out, every participant to check, and stabilization to spread.
        long quiesce = 2 * cfg.partition().transactionTimeoutMicros() + 5 * cfg.partition().checkIntervalMicros()
                + 20 * cfg.partition().stabilizationIntervalMicros() + cfg.partition().stabilizationHeartbeatMicros();
        events.schedule(quiesce, this::resolveUnknownOutcomes);
    }

    private void resolveUnknownOutcomes() {
        for (List<RecordedTxn> log : history.sessions())
            for (RecordedTxn r : log)
                if (r.write && r.outcome == Outcome.UNDECIDED && r.transaction != null
                        && r.transaction.settleFromAnswers(r.answers)) {
                    // A protocol without atomic commit: what its participants did is its outcome.
                    r.outcome = r.transaction.outcome();
                    r.commitStamp = r.transaction.commitStamp();
                    stats.outcomesResolved.merge(r.outcome, 1L, Long::sum);
                }
        waitForOutcomes(events.now() + OUTCOME_WAIT_MICROS);
    }

    /**
     * Waits while clients still ask for outcomes, up to {@code until}; then the final reads go ahead, and the verifier
     * reports every write still without an outcome (a protocol that never settles one fails the run, it does not hang).
     */
    private void waitForOutcomes(long until) {
        if (events.now() < until)
            for (List<RecordedTxn> log : history.sessions())
                for (RecordedTxn r : log)
                    if (r.write && r.outcome == Outcome.UNDECIDED) {
                        events.schedule(500_000, () -> waitForOutcomes(until)); // still asking; wait for the answers
                        return;
                    }
        finalReads();
    }

    /** A fresh session reads every key ever written, in batches, after everything settled. */
    private void finalReads() {
        for (int i = 0; i < partitions.count(); i++) {
            PartitionServer server = partitions.partition(i);
            if (server != null && server.unsettledCount() > 0)
                stats.invariantViolations.add("partition " + server.self() + " still has " + server.unsettledCount()
                        + " unsettled transactions after quiescence");
        }
        TreeSet<Long> written = new TreeSet<>();
        for (List<RecordedTxn> log : history.sessions())
            for (RecordedTxn r : log)
                if (r.write) for (Op op : r.ops) written.add(op.key());
        List<Long> all = new ArrayList<>(written);
        ProtocolSession session = workload.newSession(Simulation.FINAL_SESSION, -1);
        int batch = Math.min(64, cfg.partition().maxKeysPerRequest());
        finalBatch(session, all, 0, batch);
    }

    private void finalBatch(ProtocolSession session, List<Long> all, int from, int batch) {
        if (from >= all.size()) {
            onDone.run();
            return;
        }
        List<Long> part = all.subList(from, Math.min(all.size(), from + batch));
        List<Key> ks = new ArrayList<>();
        for (long k : part) ks.add(keys.key(k));
        ReadStep txn = session.read(ks);
        Runnable[] step = new Runnable[1];
        Consumer<Outgoing> send = new Consumer<>() {
            @Override
            public void accept(Outgoing o) {
                partitions.sendToPartition(node, o.partition(), o.request(), response -> {
                    for (Outgoing m : txn.onResponse(response)) this.accept(m);
                    step[0].run();
                });
            }
        };
        step[0] = () -> {
            if (!txn.isFinished()) return;
            if (!txn.succeeded()) {
                stats.invariantViolations.add("final read failed: " + txn.failure());
                finalBatch(session, all, from + batch, batch);
                return;
            }
            RecordedTxn rec = new RecordedTxn(history.nextTxnId(), Simulation.FINAL_SESSION, false);
            for (Map.Entry<Key, ReadValue> e : txn.result().values().entrySet()) {
                long k = SimKeys.keyIndex(e.getKey());
                if (typedKeys.typeOf(k) != KeyType.REGISTER) { // the checker folds these: every committed operation
                    rec.ops.add(typedKeys.read(k, e.getValue()));
                    continue;
                }
                rec.ops.add(Op.read(k, SimKeys.valueId(e.getValue())));
                finalValues.put(k, e.getValue());
            }
            rec.outcome = Outcome.COMMITTED;
            history.add(rec);
            finalBatch(session, all, from + batch, batch);
        };
        for (Outgoing o : txn.start()) send.accept(o);
    }
}
