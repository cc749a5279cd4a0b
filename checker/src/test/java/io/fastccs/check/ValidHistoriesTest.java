package io.fastccs.check;

import static io.fastccs.check.Op.read;
import static io.fastccs.check.Op.write;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Histories that TCC allows; the checker must not report anything. */
class ValidHistoriesTest {

    static final long X = 1;
    static final long Y = 2;

    static void assertOk(History h) {
        CheckResult r = TccChecker.check(h);
        assertThat(r.anomalies()).as(r.summary()).isEmpty();
        assertThat(r.ok()).isTrue();
        assertThat(r.counts()).isEmpty();
    }

    @Test
    void emptyHistory() {
        CheckResult r = TccChecker.check(History.builder().build());
        assertThat(r.ok()).isTrue();
        assertThat(r.transactions()).isZero();
    }

    @Test
    void serialHistory() {
        History h = History.builder()
                .committed(1, 1, write(X, 1), write(Y, 1))
                .committed(2, 2, read(X, 1), read(Y, 1), write(X, 2))
                .committed(3, 1, read(X, 2), read(Y, 1))
                .committed(4, 3, read(X, 2), write(Y, 2), read(Y, 2))
                .committed(5, 2, read(Y, 2), read(X, 2))
                .build();
        assertOk(h);
        CheckResult r = TccChecker.check(h);
        assertThat(r.transactions()).isEqualTo(5);
        assertThat(r.reads()).isEqualTo(8);
        assertThat(r.writes()).isEqualTo(4);
    }

    @Test
    void readsOfInitialValuesAndOwnWrites() {
        assertOk(History.builder()
                .committed(1, 1, read(X, 0), write(X, 1), read(X, 1), write(X, 2), read(X, 2), read(X, 2))
                .committed(2, 2, read(X, 0), read(X, 0))
                .committed(3, 2, read(X, 2))
                .build());
    }

    @Test
    void longFork() {
        // Two writers, two readers that see them in opposite orders on different keys.
        assertOk(History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 2, write(Y, 1))
                .committed(3, 3, read(X, 1), read(Y, 0))
                .committed(4, 4, read(X, 0), read(Y, 1))
                .build());
    }

    @Test
    void writeSkew() {
        assertOk(History.builder()
                .committed(1, 1, read(X, 0), read(Y, 0), write(X, 1))
                .committed(2, 2, read(X, 0), read(Y, 0), write(Y, 1))
                .committed(3, 3, read(X, 1), read(Y, 1))
                .build());
    }

    @Test
    void lostUpdate() {
        assertOk(History.builder()
                .committed(1, 1, read(X, 0), write(X, 1))
                .committed(2, 2, read(X, 0), write(X, 2))
                .committed(3, 3, read(X, 2))
                .committed(4, 1, read(X, 1))
                .build());
    }

    @Test
    void concurrentWritesObservedInDifferentOrders() {
        // Causal memory's classic: C sees x before y, D sees y before x. Allowed by CC.
        assertOk(History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 2, write(Y, 1))
                .committed(3, 3, read(X, 1), read(Y, 0))
                .committed(4, 3, read(X, 1), read(Y, 1))
                .committed(5, 4, read(Y, 1), read(X, 0))
                .committed(6, 4, read(Y, 1), read(X, 1))
                .build());
    }

    @Test
    void concurrentWritesToOneKeySeenDifferentlyThenConverging() {
        // C and D see different concurrent writes of x, then both settle on x=2.
        assertOk(History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 2, write(X, 2))
                .committed(3, 3, read(X, 1))
                .committed(4, 4, read(X, 2))
                .committed(5, 3, read(X, 2))
                .committed(6, 4, read(X, 2))
                .committed(7, 9, read(X, 2))
                .committed(8, 10, read(X, 2))
                .finalSession(9).finalSession(10)
                .build());
    }

    @Test
    void finalSessionReadsEitherConcurrentWrite() {
        assertOk(History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 2, write(X, 2))
                .committed(3, 9, read(X, 1), read(Y, 0))
                .finalSession(9)
                .build());
    }

    @Test
    void abortedWritesThatNobodyReads() {
        assertOk(History.builder()
                .committed(1, 1, write(X, 1))
                .aborted(2, 1, write(X, 2), read(Y, 77))
                .committed(3, 2, read(X, 1))
                .build());
    }

    @Test
    void serializableHistoryWithManySessionsAndFinalReads() {
        History h = HistoryGen.serial(new java.util.Random(1),
                new HistoryGen.Params(2000, 300, 50, 4, 0.3, 0.05, false, 3, 20));
        assertOk(h);
    }
}
