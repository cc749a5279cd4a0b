package io.fastccs.check;

import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class FinalStateVerifierTest {
    private static final long FINAL = 0;

    private static FinalStateVerifier<Long> twoWritesOfKey1() {
        return new FinalStateVerifier<Long>(FINAL, Comparator.naturalOrder())
                .add(1, 1, true, true, List.of(Op.write(1, 10), Op.write(2, 20)), 5L, true, "w1")
                .add(2, 2, true, true, List.of(Op.write(1, 11)), 7L, true, "w2")
                .add(3, 2, true, false, List.of(Op.write(3, 30)), null, false, "w3");
    }

    @Test
    void aFinalReadOfTheNewestCommittedWritesIsClean() {
        FinalStateVerifier<Long> v = twoWritesOfKey1();
        assertThat(v.keysWritten()).containsExactly(1L, 2L, 3L);
        v.add(4, FINAL, false, true, List.of(Op.read(1, 11), Op.read(2, 20), Op.read(3, 0)), null, false, "final");
        FinalStateVerifier.Verdict verdict = v.verify(Map.of(1L, 11L, 2L, 20L), k -> "k" + k, String::valueOf);
        assertThat(verdict.violations()).isEmpty();
        assertThat(verdict.lostAcknowledged()).isZero();
        assertThat(verdict.keysWritten()).isEqualTo(3);
        assertThat(verdict.check().ok()).isTrue();
        assertThat(verdict.history().transactions()).hasSize(4);
    }

    @Test
    void aFinalReadOfAnOlderWriteIsALostAcknowledgedWrite() {
        FinalStateVerifier<Long> v = twoWritesOfKey1();
        FinalStateVerifier.Verdict verdict = v.verify(Map.of(1L, 10L, 2L, 20L), k -> "k" + k, o -> "order " + o);
        assertThat(verdict.lostAcknowledged()).isEqualTo(1);
        assertThat(verdict.violations()).containsExactly(
                "key k1: the final read returned 10 but the newest committed write is w2 (order 7) with 11: an acknowledged write was lost");
    }

    @Test
    void theNewestIsChosenByTheArbitrationOrderNotByTheOrderOfRecording() {
        FinalStateVerifier<Long> v = new FinalStateVerifier<Long>(FINAL, Comparator.naturalOrder())
                .add(1, 1, true, true, List.of(Op.write(1, 11)), 9L, false, "late")
                .add(2, 2, true, true, List.of(Op.write(1, 10)), 3L, false, "early");
        assertThat(v.verify(Map.of(1L, 11L), k -> "k" + k, String::valueOf).violations()).isEmpty();
        FinalStateVerifier.Verdict wrong = v.verify(Map.of(1L, 10L), k -> "k" + k, String::valueOf);
        assertThat(wrong.violations()).hasSize(1);
        assertThat(wrong.lostAcknowledged()).as("the newest write was never acknowledged").isZero();
    }

    @Test
    void unknownOutcomesAndCommittedWritesWithoutOrderAreViolations() {
        FinalStateVerifier<Long> v = new FinalStateVerifier<Long>(FINAL, Comparator.naturalOrder())
                .add(1, 1, true, null, List.of(Op.write(1, 10)), null, false, "pending")
                .add(2, 1, true, true, List.of(Op.write(2, 20)), null, true, "orderless");
        FinalStateVerifier.Verdict verdict = v.verify(Map.of(), k -> "k" + k, String::valueOf);
        assertThat(verdict.violations()).containsExactly("write pending has no known outcome",
                "committed write orderless without a commit order");
        assertThat(verdict.history().transactions().get(0).committed()).as("an unknown outcome counts as aborted").isFalse();
    }

    @Test
    void typedKeysAreListedApartAndTheirFinalReadsCheckedByTheChecker() {
        FinalStateVerifier<Long> v = new FinalStateVerifier<Long>(FINAL, Comparator.naturalOrder())
                .add(1, 1, true, true, List.of(Op.write(1, 10), Op.add(5, 1), Op.setAdd(6, 3)), 5L, true, "w1")
                .add(2, 2, true, true, List.of(Op.add(5, 2)), 7L, true, "w2")
                .add(3, 2, true, false, List.of(Op.topkInsert(7, 1, 9)), null, false, "w3");
        assertThat(v.keysWritten()).containsExactly(1L);
        assertThat(v.typedKeysWritten()).containsExactly(Map.entry(5L, Op.DataType.COUNTER),
                Map.entry(6L, Op.DataType.SET), Map.entry(7L, Op.DataType.TOP_K));
        v.add(4, FINAL, false, true, List.of(Op.read(1, 10), Op.readCounter(5, 3), Op.readSet(6, 3),
                Op.readTopk(7, 2, new long[0], new long[0])), null, false, "final");
        FinalStateVerifier.Verdict ok = v.verify(Map.of(1L, 10L), k -> "k" + k, String::valueOf);
        assertThat(ok.violations()).isEmpty();
        assertThat(ok.keysWritten()).isEqualTo(4);
        assertThat(ok.check().ok()).as("%s", ok.check().anomalies()).isTrue();

        FinalStateVerifier<Long> lost = new FinalStateVerifier<Long>(FINAL, Comparator.naturalOrder())
                .add(1, 1, true, true, List.of(Op.add(5, 1)), 5L, true, "w1")
                .add(2, FINAL, false, true, List.of(Op.readCounter(5, 0)), null, false, "final");
        FinalStateVerifier.Verdict verdict = lost.verify(Map.of(), k -> "k" + k, String::valueOf);
        assertThat(verdict.violations()).isEmpty();
        assertThat(verdict.check().counts()).isEqualTo(Map.of(Anomaly.Kind.NON_CONVERGENCE, 1));
    }
}
