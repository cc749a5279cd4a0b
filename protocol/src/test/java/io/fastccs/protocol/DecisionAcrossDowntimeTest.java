package io.fastccs.protocol;

import io.fastccs.protocol.TestCluster.Txn;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeReply;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that lost track of a write asks its coordinator at once, but the coordinator may be down then (the whole
 * cluster restarted, issue 7's nemesis). A commit decision must still be known when the coordinator is back: its
 * retention counts from the restart, not from before the outage. Found on the real cluster: after a restart of every
 * node that lasted longer than decision_retention, a coordinator forgot a commit at its first GC tick and answered the
 * client's OutcomeQuery with a presumed abort, while the versions were visible.
 */
class DecisionAcrossDowntimeTest {

    @Test
    void aCommitIsStillKnownAfterADowntimeLongerThanTheRetention() {
        TestCluster c = new TestCluster(2);
        Txn t = c.txn(0, c.key(0, 0), "v", c.key(1, 0), "v");
        t.sendTo(0);
        t.sendTo(1);
        c.deliverAll();
        c.stabilizeAll(); // every participant settled it: after the retention the decision may go

        // The coordinator is down for longer than the retention, then back; its peers report what they settled.
        c.advanceTo(c.now() + TestCluster.DECISION_RETENTION + 5_000_000);
        c.restart(0);
        c.stabilizeAll();
        c.tick(0);

        OutcomeReply r = c.queryOutcome(0, t.id).outcome();
        assertThat(r.outcome()).as("the outcome of a committed write asked right after its coordinator came back")
                .isEqualTo(Outcome.COMMITTED);

        // A full retention after the restart it may be forgotten, as before.
        c.advanceTo(c.now() + TestCluster.DECISION_RETENTION + 1);
        c.stabilizeAll();
        c.tick(0);
        assertThat(c.p(0).metrics().presumedAborts()).isZero();
    }
}
