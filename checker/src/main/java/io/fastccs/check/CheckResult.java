package io.fastccs.check;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Outcome of {@link TccChecker#check(History)}: exact anomaly counts per kind and the first anomalies
 * found (the stored list is capped; {@link #totalAnomalies()} is exact).
 */
public final class CheckResult {

    private final List<Anomaly> anomalies;
    private final Map<Anomaly.Kind, Integer> counts;
    private final int totalAnomalies;
    private final int transactions;
    private final int committed;
    private final int reads;
    private final int writes;

    CheckResult(List<Anomaly> anomalies, EnumMap<Anomaly.Kind, Integer> counts, int transactions,
                int committed, int reads, int writes) {
        this.anomalies = List.copyOf(anomalies);
        this.counts = Collections.unmodifiableMap(new EnumMap<>(counts));
        this.totalAnomalies = counts.values().stream().mapToInt(Integer::intValue).sum();
        this.transactions = transactions;
        this.committed = committed;
        this.reads = reads;
        this.writes = writes;
    }

    /** Whether no anomaly was found. */
    public boolean ok() {
        return totalAnomalies == 0;
    }

    /** The anomalies found, in detection order, at most the cap given to the checker. */
    public List<Anomaly> anomalies() {
        return anomalies;
    }

    /** Exact number of anomalies per kind; kinds that did not occur are absent. */
    public Map<Anomaly.Kind, Integer> counts() {
        return counts;
    }

    /** Exact number of anomalies, including those not kept in {@link #anomalies()}. */
    public int totalAnomalies() {
        return totalAnomalies;
    }

    /** Number of transactions in the history, committed and aborted. */
    public int transactions() {
        return transactions;
    }

    /** Number of committed transactions. */
    public int committedTransactions() {
        return committed;
    }

    /** Number of read operations in the history. */
    public int reads() {
        return reads;
    }

    /** Number of write operations in the history. */
    public int writes() {
        return writes;
    }

    /** A one-line summary, e.g. {@code "TCC OK: 10 transactions (9 committed), 30 reads, 5 writes"}. */
    public String summary() {
        StringBuilder sb = new StringBuilder(ok() ? "TCC OK" : "TCC VIOLATED");
        sb.append(": ").append(transactions).append(" transactions (").append(committed).append(" committed), ")
                .append(reads).append(" reads, ").append(writes).append(" writes");
        if (!ok()) {
            sb.append("; ").append(totalAnomalies).append(totalAnomalies == 1 ? " anomaly " : " anomalies ")
                    .append(counts);
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return summary();
    }
}
