package io.fastccs.it;

import io.fastccs.testkit.CheckedWorkload;
import io.fastccs.tools.nemesis.NemesisRun;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** What a nemesis seed must show to pass, in every test that runs one. */
final class NemesisChecks {
    private NemesisChecks() {
    }

    /** Every fault in {@code expected} ran; the history is TCC; nothing acknowledged was lost or left unsettled. */
    static void assertClean(NemesisRun.Result r, Set<NemesisRun.Fault> expected) {
        CheckedWorkload.Result w = r.workload();
        for (NemesisRun.Fault f : expected)
            assertThat(r.faults().get(f)).as("faults of kind %s", f).isPositive();
        assertThat(w.check().ok()).as("TCC anomalies: %s", w.check().anomalies().stream().limit(20).toList()).isTrue();
        assertThat(w.violations()).as("lost, misplaced or unsettled writes").isEmpty();
        assertThat(w.lostAcknowledged()).isZero();
        assertThat(w.unknownUnsettled() + w.deadClientUnsettled()).as("writes whose outcome nobody could settle").isZero();
        assertThat(w.deadClientCommitted()).as("a write that reached only some participants committed").isZero();
        assertThat(w.writesAcknowledged()).isPositive();
        assertThat(w.readsOk()).isPositive();
    }
}
