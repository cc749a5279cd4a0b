package io.fastccs.check;

import static io.fastccs.check.Op.read;
import static io.fastccs.check.Op.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.fastccs.check.Anomaly.Kind;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Hand-written anomalous histories, mostly from the literature; each must yield exactly the named anomaly. */
class AnomalousHistoriesTest {

    static final long X = 1;
    static final long Y = 2;
    static final long ACL = 10;
    static final long PHOTO = 11;
    static final long POST = 20;
    static final long COMMENT = 21;

    static Anomaly only(History h, Kind kind) {
        CheckResult r = TccChecker.check(h);
        assertThat(r.counts()).as(r.anomalies().toString()).isEqualTo(Map.of(kind, 1));
        assertThat(r.ok()).isFalse();
        assertThat(r.anomalies()).hasSize(1);
        return r.anomalies().get(0);
    }

    @Test
    void fracturedReadFromInitialState() {
        // RAMP (Bailis et al., SIGMOD 2014): T2 sees T1's write of x but not its write of y.
        History h = History.builder()
                .committed(1, 1, write(X, 1), write(Y, 1))
                .committed(2, 2, read(X, 1), read(Y, 0))
                .build();
        Anomaly a = only(h, Kind.FRACTURED_READ);
        assertThat(a.key()).isEqualTo(OptionalLong.of(Y));
        assertThat(a.txnIds()).containsExactly(1L, 2L);
    }

    @Test
    void fracturedReadOfOlderVersion() {
        History h = History.builder()
                .committed(1, 1, write(X, 1), write(Y, 1))
                .committed(2, 1, write(X, 2), write(Y, 2))
                .committed(3, 2, read(Y, 1), read(X, 2))
                .build();
        Anomaly a = only(h, Kind.FRACTURED_READ);
        assertThat(a.key()).isEqualTo(OptionalLong.of(Y));
        assertThat(a.txnIds()).containsExactly(1L, 2L, 3L);
    }

    @Test
    void fracturedReadAcrossConcurrentWritersIsACycle() {
        // T3 reads x from T2 and y from T1, concurrent writers of both keys: no commit order works.
        History h = History.builder()
                .committed(1, 1, write(X, 1), write(Y, 1))
                .committed(2, 2, write(X, 2), write(Y, 2))
                .committed(3, 3, read(X, 2), read(Y, 1))
                .build();
        Anomaly a = only(h, Kind.CAUSAL_VIOLATION);
        assertThat(a.txnIds()).containsExactlyInAnyOrder(1L, 2L);
    }

    @Test
    void copsAclExample() {
        // COPS (Lloyd et al., SOSP 2011): Alice removes her boss from the ACL, then posts a photo;
        // the boss must not see the photo with the old ACL.
        History h = History.builder()
                .committed(1, 1, write(ACL, 1))
                .committed(2, 1, write(PHOTO, 1))
                .committed(3, 2, read(PHOTO, 1), read(ACL, 0))
                .build();
        Anomaly a = only(h, Kind.CAUSAL_VIOLATION);
        assertThat(a.key()).isEqualTo(OptionalLong.of(ACL));
        assertThat(a.txnIds()).containsExactly(1L, 3L);
    }

    @Test
    void copsAclExampleInSeparateTransactions() {
        History h = History.builder()
                .committed(1, 1, write(ACL, 1))
                .committed(2, 1, write(PHOTO, 1))
                .committed(3, 2, read(PHOTO, 1))
                .committed(4, 2, read(ACL, 0))
                .build();
        Anomaly a = only(h, Kind.CAUSAL_VIOLATION);
        assertThat(a.txnIds()).containsExactly(1L, 4L);
    }

    @Test
    void writesFollowReadsViolation() {
        // Eiger-style: Bob comments after reading Alice's post; Carol sees the comment but not the post.
        History h = History.builder()
                .committed(1, 1, write(POST, 1))
                .committed(2, 2, read(POST, 1), write(COMMENT, 1))
                .committed(3, 3, read(COMMENT, 1), read(POST, 0))
                .build();
        Anomaly a = only(h, Kind.CAUSAL_VIOLATION);
        assertThat(a.key()).isEqualTo(OptionalLong.of(POST));
        assertThat(a.txnIds()).containsExactly(1L, 3L);
    }

    @Test
    void readYourWritesViolation() {
        History h = History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 1, read(X, 0))
                .build();
        Anomaly a = only(h, Kind.READ_YOUR_WRITES);
        assertThat(a.txnIds()).containsExactly(1L, 2L);
    }

    @Test
    void readYourWritesViolationWithOlderVersion() {
        History h = History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 1, write(X, 2))
                .committed(3, 1, read(X, 1))
                .build();
        Anomaly a = only(h, Kind.READ_YOUR_WRITES);
        assertThat(a.txnIds()).containsExactly(1L, 2L, 3L);
    }

    @Test
    void monotonicReadsViolation() {
        History h = History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 2, read(X, 1))
                .committed(3, 2, read(X, 0))
                .build();
        Anomaly a = only(h, Kind.MONOTONIC_READS);
        assertThat(a.txnIds()).containsExactly(1L, 3L);
    }

    @Test
    void monotonicReadsViolationWithVersions() {
        History h = History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 1, write(X, 2))
                .committed(3, 2, read(X, 2))
                .committed(4, 2, read(X, 1))
                .build();
        Anomaly a = only(h, Kind.MONOTONIC_READS);
        assertThat(a.txnIds()).containsExactly(1L, 2L, 4L);
    }

    @Test
    void thinAirRead() {
        History h = History.builder().committed(1, 1, read(X, 7)).build();
        assertThat(only(h, Kind.THIN_AIR_READ).key()).isEqualTo(OptionalLong.of(X));
    }

    @Test
    void abortedRead() {
        History h = History.builder()
                .aborted(1, 1, write(X, 1))
                .committed(2, 2, read(X, 1))
                .build();
        assertThat(only(h, Kind.ABORTED_READ).txnIds()).containsExactly(1L, 2L);
    }

    @Test
    void intermediateRead() {
        History h = History.builder()
                .committed(1, 1, write(X, 1), write(X, 2))
                .committed(2, 2, read(X, 1))
                .build();
        assertThat(only(h, Kind.INTERMEDIATE_READ).txnIds()).containsExactly(1L, 2L);
    }

    @Test
    void nonRepeatableRead() {
        History h = History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 2, write(X, 2))
                .committed(3, 3, read(X, 1), read(X, 2))
                .build();
        assertThat(only(h, Kind.NON_REPEATABLE_READ).txnIds()).containsExactly(3L);
    }

    @Test
    void notMyOwnWrite() {
        History h = History.builder()
                .committed(1, 1, write(X, 1), read(X, 0))
                .build();
        only(h, Kind.NOT_MY_OWN_WRITE);
        History h2 = History.builder()
                .committed(1, 1, write(X, 1), write(X, 2), read(X, 1))
                .build();
        only(h2, Kind.NOT_MY_OWN_WRITE);
    }

    @Test
    void futureRead() {
        History h = History.builder()
                .committed(1, 1, read(X, 1), write(X, 1))
                .build();
        only(h, Kind.FUTURE_READ);
    }

    @Test
    void duplicateWrite() {
        History h = History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 2, write(X, 1))
                .build();
        assertThat(only(h, Kind.DUPLICATE_WRITE).txnIds()).containsExactly(1L, 2L);
        History zero = History.builder().committed(1, 1, write(X, 0)).build();
        only(zero, Kind.DUPLICATE_WRITE);
    }

    @Test
    void causalCycle() {
        // Each session reads the write that the other session makes only later.
        History h = History.builder()
                .committed(1, 1, read(Y, 1))
                .committed(2, 1, write(X, 1))
                .committed(3, 2, read(X, 1))
                .committed(4, 2, write(Y, 1))
                .build();
        Anomaly a = only(h, Kind.CAUSAL_CYCLE);
        assertThat(a.txnIds()).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
    }

    @Test
    void causalCycleInsideOneTransactionPair() {
        History h = History.builder()
                .committed(1, 1, read(Y, 1), write(X, 1))
                .committed(2, 2, read(X, 1), write(Y, 1))
                .build();
        only(h, Kind.CAUSAL_CYCLE);
    }

    @Test
    void nonConvergenceFinalSessionsDisagree() {
        History h = History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 2, write(X, 2))
                .committed(3, 3, read(X, 1))
                .committed(4, 4, read(X, 2))
                .finalSession(3).finalSession(4)
                .build();
        Anomaly a = only(h, Kind.NON_CONVERGENCE);
        assertThat(a.txnIds()).containsExactly(3L, 4L);
    }

    @Test
    void nonConvergenceStaleFinalRead() {
        History h = History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 1, write(X, 2))
                .committed(3, 9, read(X, 1))
                .finalSession(9)
                .build();
        assertThat(only(h, Kind.NON_CONVERGENCE).txnIds()).containsExactly(1L, 2L, 3L);
        History lost = History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 9, read(X, 0))
                .finalSession(9)
                .build();
        only(lost, Kind.NON_CONVERGENCE);
    }

    @Test
    void nonConvergenceInOneFinalSessionFlipFlopping() {
        History h = History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 2, write(X, 2))
                .committed(3, 9, read(X, 1))
                .committed(4, 9, read(X, 2))
                .finalSession(9)
                .build();
        only(h, Kind.NON_CONVERGENCE);
    }

    @Test
    void sameKeyConcurrentWritesSeenInOppositeOrdersIsNotCc() {
        // CC of Biswas & Enea has one commit order: C sees 1 then 2, D sees 2 then 1 -> no such order.
        History h = History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 2, write(X, 2))
                .committed(3, 3, read(X, 1))
                .committed(4, 3, read(X, 2))
                .committed(5, 4, read(X, 2))
                .committed(6, 4, read(X, 1))
                .build();
        Anomaly a = only(h, Kind.CAUSAL_VIOLATION);
        assertThat(a.txnIds()).containsExactlyInAnyOrder(1L, 2L);
    }

    @Test
    void everyAnomalyIsReportedAndCountsStayExactBeyondTheCap() {
        History.Builder b = History.builder();
        for (int i = 1; i <= 50; i++) {
            b.committed(i, i, read(i, 5));
        }
        CheckResult r = TccChecker.check(b.build(), 10);
        assertThat(r.counts()).isEqualTo(Map.of(Kind.THIN_AIR_READ, 50));
        assertThat(r.totalAnomalies()).isEqualTo(50);
        assertThat(r.anomalies()).hasSize(10);
        assertThat(r.summary()).contains("50 anomalies");
    }
}
