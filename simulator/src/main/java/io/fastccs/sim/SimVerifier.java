package io.fastccs.sim;

import io.fastccs.check.FinalStateVerifier;
import io.fastccs.check.History;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.ReadValue;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Outside the system under test: hands the recorded transactions and the final read to the shared
 * {@link FinalStateVerifier} (every write has a known outcome; the newest committed write of each key, in the
 * arbitration order of commit clocks, is what the final read returned) and adds the one check only the simulator can
 * make: no honest client clock was ahead of a partition.
 */
final class SimVerifier {
    private SimVerifier() {
    }

    /** The history; every violation found goes to {@code violations}. */
    static History verify(HistoryLog log, Map<Long, ReadValue> finalValues, Comparator<Object> arbitration, long clientClocksAhead,
                          List<String> violations) {
        FinalStateVerifier<Object> verifier = new FinalStateVerifier<>(Simulation.FINAL_SESSION, arbitration);
        for (List<RecordedTxn> session : log.sessions())
            for (RecordedTxn r : session)
                verifier.add(r.txnId, r.session, r.write, r.outcome == Outcome.UNDECIDED ? null : r.outcome == Outcome.COMMITTED,
                        r.ops, r.commitStamp, r.acknowledged, "txn " + r.txnId);
        Map<Long, Long> values = new HashMap<>();
        finalValues.forEach((key, value) -> values.put(key, SimKeys.valueId(value)));
        FinalStateVerifier.Verdict verdict = verifier.verify(values, Long::toString, stamp -> "commit stamp " + stamp);
        violations.addAll(verdict.violations());
        if (clientClocksAhead > 0)
            violations.add(clientClocksAhead + " client clocks were ahead of a partition's settled prefix");
        return verdict.history();
    }
}
