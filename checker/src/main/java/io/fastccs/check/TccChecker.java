package io.fastccs.check;

import java.util.Objects;

/**
 * Checks a {@link History} for transactional causal consistency: Causal Consistency (CC) as defined
 * by Biswas and Enea, "On the complexity of checking transactional consistency" (OOPSLA 2019), plus
 * the per-read and per-transaction rules every isolation level needs, plus convergence of final
 * sessions. See the package documentation for the exact rules.
 *
 * <p>Runs in roughly O(ops + reads × writer-sessions-per-key × log + txns × sessions) time, with
 * vector clocks kept only while some reader still needs them.
 */
public final class TccChecker {

    /** Anomalies kept in {@link CheckResult#anomalies()} by {@link #check(History)}; counts stay exact. */
    public static final int DEFAULT_MAX_STORED = 1000;

    private TccChecker() {
    }

    /** Checks {@code h}, keeping at most {@value #DEFAULT_MAX_STORED} anomalies in the result. */
    public static CheckResult check(History h) {
        return check(h, DEFAULT_MAX_STORED);
    }

    /** Checks {@code h}, keeping at most {@code maxStored} anomalies in the result (counts stay exact). */
    public static CheckResult check(History h, int maxStored) {
        Objects.requireNonNull(h, "h");
        if (maxStored < 0) {
            throw new IllegalArgumentException("maxStored < 0");
        }
        return new CheckRun(h, maxStored).run();
    }
}
