package io.fastccs.sim;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Every session's transactions in session order, and the ids that make each transaction and value unique. */
final class HistoryLog {
    private final Map<Long, List<RecordedTxn>> sessionLogs = new TreeMap<>();
    private long nextTxnId = 1;
    private long nextValueId = 1;

    void openSession(long session) {
        sessionLogs.put(session, new ArrayList<>());
    }

    void add(RecordedTxn txn) {
        sessionLogs.get(txn.session).add(txn);
    }

    long nextTxnId() {
        return nextTxnId++;
    }

    long nextValueId() {
        return nextValueId++;
    }

    /** The sessions' logs, in session id order. */
    Collection<List<RecordedTxn>> sessions() {
        return sessionLogs.values();
    }
}
