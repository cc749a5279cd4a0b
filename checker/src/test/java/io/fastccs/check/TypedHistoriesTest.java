package io.fastccs.check;

import static io.fastccs.check.Op.add;
import static io.fastccs.check.Op.max;
import static io.fastccs.check.Op.read;
import static io.fastccs.check.Op.readCounter;
import static io.fastccs.check.Op.readMax;
import static io.fastccs.check.Op.readSet;
import static io.fastccs.check.Op.setAdd;
import static io.fastccs.check.Op.setRemove;
import static io.fastccs.check.Op.topkInsert;
import static io.fastccs.check.Op.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.fastccs.check.Anomaly.Kind;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Hand-made histories with typed operations (counters, max registers, sets, top-k): clean ones and broken ones. */
class TypedHistoriesTest {

    static final long C = 1;
    static final long C2 = 2;
    static final long M = 3;
    static final long S = 4;
    static final long K = 5;
    static final long X = 6;
    static final long B = 7;

    static void assertOk(History h) {
        CheckResult r = TccChecker.check(h);
        assertThat(r.anomalies()).as(r.summary()).isEmpty();
        assertThat(r.ok()).isTrue();
    }

    static Anomaly only(History h, Kind kind) {
        CheckResult r = TccChecker.check(h);
        assertThat(r.counts()).as(r.anomalies().toString()).isEqualTo(Map.of(kind, 1));
        assertThat(r.anomalies()).hasSize(1);
        return r.anomalies().get(0);
    }

    static Op topk(long key, int k, long... itemScore) {
        long[] items = new long[itemScore.length / 2];
        long[] scores = new long[itemScore.length / 2];
        for (int i = 0; i < items.length; i++) {
            items[i] = itemScore[2 * i];
            scores[i] = itemScore[2 * i + 1];
        }
        return Op.readTopk(key, k, items, scores);
    }

    // ---------------------------------------------------------------- counters

    @Test
    void cleanCounterHistoryWithConcurrentAddsAndPartialFolds() {
        History h = History.builder()
                .committed(1, 1, add(C, 1), add(B, 5))
                .committed(2, 2, add(C, 2), add(B, -3))
                .committed(3, 3, readCounter(C, 1), readCounter(B, 5)) // sees T1 only
                .committed(4, 3, readCounter(C, 3), readCounter(B, 2)) // then both
                .committed(5, 1, add(C, 4), add(B, 5))
                .committed(6, 1, readCounter(C, 5), readCounter(B, 10)) // its session, not T2
                .committed(7, 4, readCounter(C, 0), readCounter(B, 0))
                .committed(8, 2, readCounter(C, 7), readCounter(B, 7))
                .committed(9, 9, readCounter(C, 7), readCounter(B, 7))
                .finalSession(9)
                .build();
        assertOk(h);
        assertThat(TccChecker.check(h).reads()).isEqualTo(12);
        assertThat(TccChecker.check(h).writes()).isEqualTo(6);
    }

    @Test
    void lostOwnAddIsReadYourWrites() {
        Anomaly a = only(History.builder()
                .committed(1, 1, add(C, 1))
                .committed(2, 1, readCounter(C, 0))
                .build(), Kind.READ_YOUR_WRITES);
        assertThat(a.txnIds()).containsExactly(1L, 2L);
        assertThat(a.key()).isEqualTo(OptionalLong.of(C));
        // Deltas that are not powers of two: only bounds, but this one is below them.
        only(History.builder()
                .committed(1, 1, add(C, 3))
                .committed(2, 2, add(C, 3))
                .committed(3, 1, readCounter(C, 0))
                .build(), Kind.READ_YOUR_WRITES);
    }

    @Test
    void addCountedTwice() {
        // 1 + 1 + 2 = 4: a bit no add has.
        Anomaly a = only(History.builder()
                .committed(1, 1, add(C, 1))
                .committed(2, 2, add(C, 2))
                .committed(3, 3, readCounter(C, 4))
                .build(), Kind.DOUBLE_COUNTED);
        assertThat(a.txnIds()).containsExactly(3L);
        // Bounded: more than every add together.
        only(History.builder()
                .committed(1, 1, add(C, 3))
                .committed(2, 2, add(C, 3))
                .committed(3, 3, readCounter(C, 9))
                .build(), Kind.DOUBLE_COUNTED);
    }

    @Test
    void boundedCounterAcceptsEveryValueSomeSubsetCouldGive() {
        assertOk(History.builder()
                .committed(1, 1, add(C, 3))
                .committed(2, 2, add(C, 3))
                .committed(3, 3, add(C, -5))
                .committed(4, 4, readCounter(C, 1), readCounter(C, 1))
                .committed(5, 1, readCounter(C, -2))
                .build());
    }

    @Test
    void readShowingATransactionOnOneKeyButNotAnotherIsFractured() {
        // Folding operations one by one instead of reading a snapshot.
        Anomaly a = only(History.builder()
                .committed(1, 1, add(C, 1), add(C2, 1))
                .committed(2, 2, readCounter(C, 1), readCounter(C2, 0))
                .build(), Kind.FRACTURED_READ);
        assertThat(a.key()).isEqualTo(OptionalLong.of(C2));
        assertThat(a.txnIds()).containsExactly(1L, 2L);
        // Typed and register keys: the counter shows T1, the register does not.
        Anomaly b = only(History.builder()
                .committed(1, 1, add(C, 1), write(X, 1))
                .committed(2, 2, read(X, 0), readCounter(C, 1))
                .build(), Kind.FRACTURED_READ);
        assertThat(b.key()).isEqualTo(OptionalLong.of(X));
        // And the other way round.
        Anomaly c = only(History.builder()
                .committed(1, 1, add(C, 1), write(X, 1))
                .committed(2, 2, read(X, 1), readCounter(C, 0))
                .build(), Kind.FRACTURED_READ);
        assertThat(c.key()).isEqualTo(OptionalLong.of(C));
    }

    @Test
    void partOfOneTransactionsAddsIsFractured() {
        only(History.builder()
                .committed(1, 1, add(C, 1), add(C, 2))
                .committed(2, 2, readCounter(C, 1))
                .build(), Kind.FRACTURED_READ);
    }

    @Test
    void visibilityPropagatesAlongCausality() {
        // T3 saw T1's add and then added; T4 sees T3's add, so it must see T1's too.
        Anomaly a = only(History.builder()
                .committed(1, 1, add(C, 1))
                .committed(2, 2, readCounter(C, 1))
                .committed(3, 2, add(C2, 1))
                .committed(4, 3, readCounter(C2, 1), readCounter(C, 0))
                .build(), Kind.CAUSAL_VIOLATION);
        assertThat(a.txnIds()).containsExactly(1L, 4L);
    }

    @Test
    void abortedAddFoldedIn() {
        Anomaly a = only(History.builder()
                .aborted(1, 1, add(C, 1))
                .committed(2, 2, readCounter(C, 1))
                .build(), Kind.ABORTED_READ);
        assertThat(a.txnIds()).containsExactly(1L, 2L);
        only(History.builder()
                .aborted(1, 1, setAdd(S, 7))
                .committed(2, 2, readSet(S, 7))
                .build(), Kind.ABORTED_READ);
    }

    @Test
    void finalReadsMustFoldInEveryCommittedOperation() {
        Anomaly a = only(History.builder()
                .committed(1, 1, add(C, 1))
                .committed(2, 2, add(C, 2))
                .committed(3, 9, readCounter(C, 2))
                .finalSession(9)
                .build(), Kind.NON_CONVERGENCE);
        assertThat(a.txnIds()).containsExactly(1L, 3L);
        only(History.builder()
                .committed(1, 1, setAdd(S, 1))
                .committed(2, 9, readSet(S))
                .finalSession(9)
                .build(), Kind.NON_CONVERGENCE);
    }

    @Test
    void seeingAnAddOfOwnSessionsFutureIsACycle() {
        only(History.builder()
                .committed(1, 1, readCounter(C, 1))
                .committed(2, 1, add(C, 1))
                .build(), Kind.CAUSAL_CYCLE);
    }

    // ---------------------------------------------------------------- inside one transaction

    @Test
    void ownOperationsInsideATransaction() {
        assertOk(History.builder()
                .committed(1, 1, add(C, 1))
                .committed(2, 2, add(C, 2), readCounter(C, 3), add(C, 4), readCounter(C, 7),
                        setAdd(S, 1), readSet(S, 1), setRemove(S, 1), readSet(S),
                        max(M, 5), readMax(M, 5), topkInsert(K, 1, 10), topk(K, 2, 1, 10))
                .build());
        only(History.builder().committed(1, 1, add(C, 1), readCounter(C, 0)).build(), Kind.NOT_MY_OWN_WRITE);
        only(History.builder().committed(1, 1, setAdd(S, 1), readSet(S)).build(), Kind.NOT_MY_OWN_WRITE);
        only(History.builder().committed(1, 1, readCounter(C, 0), add(C, 1), readCounter(C, 2)).build(),
                Kind.NOT_MY_OWN_WRITE);
        only(History.builder().committed(1, 1, readCounter(C, 1), add(C, 1)).build(), Kind.FUTURE_READ);
    }

    @Test
    void twoReadsWithoutOperationsBetweenMustAgree() {
        Anomaly a = only(History.builder()
                .committed(1, 1, add(C, 1))
                .committed(2, 2, readCounter(C, 0), readCounter(C, 1))
                .build(), Kind.NON_REPEATABLE_READ);
        assertThat(a.txnIds()).containsExactly(2L);
    }

    // ---------------------------------------------------------------- sets

    @Test
    void addWinsOverAConcurrentRemove() {
        // T2 removes 7 without having seen T1's add: the add survives.
        assertOk(History.builder()
                .committed(1, 1, setAdd(S, 7))
                .committed(2, 2, setRemove(S, 7))
                .committed(3, 3, readSet(S, 7))
                .committed(4, 2, readSet(S, 7))
                .build());
    }

    @Test
    void aConcurrentRemoveCannotExplainAnAbsentElement() {
        // Session 3 saw 7, then misses it; the only remove never saw the add.
        Anomaly a = only(History.builder()
                .committed(1, 1, setAdd(S, 7))
                .committed(2, 2, setRemove(S, 7))
                .committed(3, 3, readSet(S, 7))
                .committed(4, 3, readSet(S))
                .build(), Kind.MONOTONIC_READS);
        assertThat(a.txnIds()).containsExactly(1L, 4L);
        only(History.builder()
                .committed(1, 1, setAdd(S, 7))
                .committed(2, 2, setRemove(S, 7))
                .committed(3, 1, readSet(S))
                .build(), Kind.READ_YOUR_WRITES);
    }

    @Test
    void aRemoveAfterObservingTheAddExplainsAnAbsentElement() {
        History.Builder b = History.builder()
                .committed(1, 1, setAdd(S, 7), setAdd(S, 8))
                .committed(2, 2, readSet(S, 7, 8))
                .committed(3, 2, setRemove(S, 7));
        // The adder's session may see 7 removed (T3 saw the add), or not yet (T3 is concurrent to it).
        assertOk(b.committed(4, 1, readSet(S, 8)).committed(5, 1, readSet(S, 7, 8)).build());
    }

    @Test
    void aPresentElementWhoseRemoveSawTheAddAndIsVisibleIsALostRemove() {
        Anomaly a = only(History.builder()
                .committed(1, 1, setAdd(S, 7))
                .committed(2, 2, readSet(S, 7))
                .committed(3, 2, setRemove(S, 7))
                .committed(4, 2, readSet(S, 7))
                .build(), Kind.READ_YOUR_WRITES);
        assertThat(a.txnIds()).containsExactly(3L, 4L);
        // Visible through a register read of the remover.
        Anomaly b = only(History.builder()
                .committed(1, 1, setAdd(S, 7))
                .committed(2, 2, readSet(S, 7))
                .committed(3, 2, setRemove(S, 7), write(X, 1))
                .committed(4, 3, read(X, 1), readSet(S, 7))
                .build(), Kind.FRACTURED_READ);
        assertThat(b.txnIds()).containsExactly(3L, 4L);
    }

    @Test
    void setElementNeverAddedIsThinAirAndASecondAddIsMalformed() {
        only(History.builder().committed(1, 1, readSet(S, 3)).build(), Kind.THIN_AIR_READ);
        only(History.builder()
                .committed(1, 1, setAdd(S, 3))
                .committed(2, 2, setAdd(S, 3))
                .build(), Kind.DUPLICATE_WRITE);
    }

    // ---------------------------------------------------------------- max registers

    @Test
    void cleanMaxRegisterHistory() {
        assertOk(History.builder()
                .committed(1, 1, max(M, 5))
                .committed(2, 2, max(M, 9), max(M, 2))
                .committed(3, 3, readMax(M, 0))
                .committed(4, 3, readMax(M, 5))
                .committed(5, 3, readMax(M, 9))
                .committed(6, 1, readMax(M, 5))
                .committed(7, 9, readMax(M, 9))
                .finalSession(9)
                .build());
    }

    @Test
    void brokenMaxRegisters() {
        History.Builder base = History.builder()
                .committed(1, 1, max(M, 5))
                .committed(2, 2, max(M, 9))
                .committed(3, 3, readMax(M, 9));
        Anomaly a = only(base.committed(4, 3, readMax(M, 5)).build(), Kind.MONOTONIC_READS);
        assertThat(a.txnIds()).containsExactly(2L, 4L);
        only(History.builder().committed(1, 1, max(M, 5)).committed(2, 2, readMax(M, 7)).build(),
                Kind.THIN_AIR_READ);
        only(History.builder().committed(1, 1, max(M, 5)).committed(2, 1, readMax(M, 0)).build(),
                Kind.READ_YOUR_WRITES);
    }

    // ---------------------------------------------------------------- top-k

    @Test
    void cleanTopkHistory() {
        assertOk(History.builder()
                .committed(1, 1, topkInsert(K, 1, 50), topkInsert(K, 2, 30))
                .committed(2, 2, topkInsert(K, 3, 40), topkInsert(K, 2, 20))
                .committed(3, 3, topk(K, 2, 1, 50, 2, 30))
                .committed(4, 3, topk(K, 2, 1, 50, 3, 40))
                .committed(5, 3, topk(K, 1, 1, 50))
                .committed(6, 4, topk(K, 5))
                .committed(7, 9, topk(K, 3, 1, 50, 3, 40, 2, 30), topk(K, 5, 1, 50, 3, 40, 2, 30))
                .finalSession(9)
                .build());
    }

    @Test
    void brokenTopk() {
        History.Builder base = History.builder()
                .committed(1, 1, topkInsert(K, 1, 50), topkInsert(K, 2, 30))
                .committed(2, 2, topkInsert(K, 3, 40))
                .committed(3, 3, topk(K, 2, 1, 50, 3, 40));
        // T2's 3:40 was seen and must outrank 2:30.
        Anomaly a = only(base.committed(4, 3, topk(K, 2, 1, 50, 2, 30)).build(), Kind.MONOTONIC_READS);
        assertThat(a.txnIds()).containsExactly(2L, 4L);
        only(History.builder()
                .committed(1, 1, topkInsert(K, 1, 50), topkInsert(K, 2, 30))
                .committed(2, 2, topk(K, 2, 2, 30, 1, 50))
                .build(), Kind.DOUBLE_COUNTED);
        only(History.builder().committed(1, 1, topk(K, 1, 9, 99)).build(), Kind.THIN_AIR_READ);
        // A short list claims there is nothing else, but the session inserted 2:30.
        only(History.builder()
                .committed(1, 1, topkInsert(K, 1, 50))
                .committed(2, 1, topkInsert(K, 2, 30))
                .committed(3, 1, topk(K, 3, 1, 50))
                .build(), Kind.READ_YOUR_WRITES);
    }

    // ---------------------------------------------------------------- malformed input, registers

    @Test
    void aKeyWithTwoTypesIsReportedOnceAndNotChecked() {
        Anomaly a = only(History.builder()
                .committed(1, 1, add(C, 1))
                .committed(2, 2, setAdd(C, 3))
                .committed(3, 3, readCounter(C, 5), read(C, 4))
                .build(), Kind.MIXED_TYPES);
        assertThat(a.txnIds()).containsExactly(1L, 2L);
        only(History.builder()
                .committed(1, 1, write(X, 1))
                .committed(2, 2, add(X, 1))
                .committed(3, 3, read(X, 1))
                .build(), Kind.MIXED_TYPES);
    }

    @Test
    void typedKeysLeaveRegisterVerdictsAlone() {
        // The COPS example of AnomalousHistoriesTest, plus unrelated counter traffic.
        Anomaly a = only(History.builder()
                .committed(1, 1, write(10, 1), add(C, 1))
                .committed(2, 1, write(11, 1))
                .committed(3, 2, add(C, 2))
                .committed(4, 2, read(11, 1), read(10, 0))
                .build(), Kind.CAUSAL_VIOLATION);
        assertThat(a.key()).isEqualTo(OptionalLong.of(10));
        assertThat(a.txnIds()).containsExactly(1L, 4L);
    }
}
