package io.fastccs.sim;

import io.fastccs.check.History;
import io.fastccs.check.Op;
import io.fastccs.check.Txn;
import io.fastccs.protocol.VectorClock;
import io.fastccs.protocol.api.Topology;
import io.fastccs.protocol.messages.Outcome;
import io.fastccs.protocol.messages.ReadValue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Outside the system under test: builds the history for the TCC checker and checks what the checker cannot know.
 * Every write has a known outcome; the newest committed write of each key, in the arbitration order of commit clocks,
 * is what the final read returned (no acknowledged write lost); no honest client clock was ahead of a partition.
 */
final class SimVerifier {
    private SimVerifier() {
    }

    /** The history; every violation found goes to {@code violations}. */
    static History verify(HistoryLog log, Map<Long, ReadValue> finalValues, Topology topology, SimKeys keys,
                          long clientClocksAhead, List<String> violations) {
        History.Builder history = History.builder().finalSession(Simulation.FINAL_SESSION);
        Map<Long, RecordedTxn> newestCommitted = new HashMap<>();
        for (List<RecordedTxn> session : log.sessions()) {
            for (RecordedTxn r : session) {
                boolean committed = r.outcome == Outcome.COMMITTED;
                if (r.write && r.outcome == Outcome.UNDECIDED)
                    violations.add("write txn " + r.txnId + " has no known outcome after quiescence");
                history.add(new Txn(r.txnId, r.session, committed, r.ops));
                if (!r.write || !committed) continue;
                if (r.commitClock == null) {
                    violations.add("committed write txn " + r.txnId + " without a commit clock");
                    continue;
                }
                for (Op op : r.ops) {
                    RecordedTxn best = newestCommitted.get(op.key());
                    if (best == null || VectorClock.compareArbitration(best.commitClock, r.commitClock) < 0)
                        newestCommitted.put(op.key(), r);
                }
            }
        }
        for (Map.Entry<Long, RecordedTxn> e : newestCommitted.entrySet()) {
            long k = e.getKey();
            RecordedTxn w = e.getValue();
            long expected = 0;
            for (Op op : w.ops) if (op.key() == k) expected = op.value();
            ReadValue got = finalValues.get(k);
            if (SimKeys.valueId(got) != expected)
                violations.add("key " + k + ": final read returned value " + SimKeys.valueId(got) + " (sequence "
                        + (got == null ? 0 : got.sequence()) + ") but the newest committed write is txn " + w.txnId + " value "
                        + expected + " (sequence " + w.commitClock.get(topology.ownerOf(keys.key(k))) + ")"
                        + (w.acknowledged ? ": an acknowledged write was lost" : ""));
        }
        if (clientClocksAhead > 0)
            violations.add(clientClocksAhead + " client clocks were ahead of a partition's settled prefix");
        return history.build();
    }
}
