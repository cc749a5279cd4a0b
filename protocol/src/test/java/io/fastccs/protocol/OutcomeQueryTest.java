package io.fastccs.protocol;

import io.fastccs.protocol.TestCluster.ReplyBox;
import io.fastccs.protocol.TestCluster.Txn;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.Stabilize;
import org.junit.jupiter.api.Test;

import static io.fastccs.protocol.TestCluster.DECISION_RETENTION;
import static io.fastccs.protocol.TestCluster.GC_INTERVAL;
import static io.fastccs.protocol.TestCluster.TIMEOUT;
import static io.fastccs.protocol.TestCluster.clock;
import static io.fastccs.protocol.TestCluster.type;
import static org.assertj.core.api.Assertions.assertThat;

/** A client that lost track of a write asks the coordinator for the outcome. */
class OutcomeQueryTest {

    @Test
    void undecidedWhileTheCoordinatorIsCollectingVotes() {
        TestCluster c = new TestCluster(2);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t");
        t.sendTo(0);
        OutcomeReply r = c.queryOutcome(0, t.id).outcome();
        assertThat(r.txnId()).isEqualTo(t.id);
        assertThat(r.outcome()).isEqualTo(Outcome.UNDECIDED);
        assertThat(r.commitClock()).isNull();
        // Asking did not decide anything: the transaction can still commit.
        t.sendTo(1);
        c.deliverAll();
        assertThat(c.queryOutcome(0, t.id).outcome().outcome()).isEqualTo(Outcome.COMMITTED);
    }

    @Test
    void undecidedWhileTheCoordinatorHasOnlyAVoteAndNotItsOwnRequest() {
        TestCluster c = new TestCluster(2);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t");
        t.sendTo(1);
        c.deliverAll(type(Prepared.class));
        assertThat(c.queryOutcome(0, t.id).outcome().outcome()).isEqualTo(Outcome.UNDECIDED);
    }

    @Test
    void committedWithTheCommitClockAfterCommit() {
        TestCluster c = new TestCluster(3);
        Txn t = c.txn(2, c.key(0, 0), "t", c.key(2, 0), "t");
        ReplyBox at2 = t.sendTo(2);
        t.sendTo(0);
        c.deliverAll();
        OutcomeReply r = c.queryOutcome(2, t.id).outcome();
        assertThat(r.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(r.commitClock()).isEqualTo(clock(1, 0, 1)).isEqualTo(at2.write().commitClock());
    }

    @Test
    void abortedAfterACoordinatorTimeout() {
        TestCluster c = new TestCluster(2);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t");
        t.sendTo(0);
        c.advanceTo(TIMEOUT);
        c.tick(0);
        OutcomeReply r = c.queryOutcome(0, t.id).outcome();
        assertThat(r.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(r.commitClock()).isNull();
    }

    @Test
    void unknownTransactionIsPresumedAbortedAndCanNoLongerCommit() {
        TestCluster c = new TestCluster(2);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t");
        assertThat(c.queryOutcome(0, t.id).outcome().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(c.p(0).metrics().presumedAborts()).isEqualTo(1);
        assertThat(t.sendTo(0).write().outcome()).isEqualTo(Outcome.ABORTED);
        ReplyBox at1 = t.sendTo(1);
        c.deliverAll(type(Prepared.class));
        c.deliverAll(type(Abort.class));
        assertThat(at1.write().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(c.p(0).lastSequence()).isZero();
    }

    /** T commits at time 0 on partitions 0 (coordinator) and 1; everything is settled everywhere. */
    private static TestCluster committedAtZero(Txn[] out, boolean stabilizeFromParticipant) {
        TestCluster c = new TestCluster(2);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t");
        t.sendTo(0);
        t.sendTo(1);
        c.deliverAll();
        if (stabilizeFromParticipant) c.stabilize(1, 0);
        out[0] = t;
        return c;
    }

    @Test
    void commitDecisionIsKeptForAtLeastTheDecisionRetention() {
        Txn[] t = new Txn[1];
        TestCluster c = committedAtZero(t, true);
        c.tickUntil(DECISION_RETENTION - 1, GC_INTERVAL, 0);
        c.drop(type(Stabilize.class));
        OutcomeReply r = c.queryOutcome(0, t[0].id).outcome();
        assertThat(r.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(r.commitClock()).isEqualTo(clock(1, 1));
        assertThat(c.disks[0].decisionCount()).isEqualTo(1);
        // Once the retention passed and every participant reported it settled, the decision may go.
        c.tickUntil(DECISION_RETENTION + GC_INTERVAL, GC_INTERVAL, 0);
        assertThat(c.disks[0].decisionCount()).isZero();
    }

    @Test
    void commitDecisionOutlivesTheRetentionUntilEveryParticipantReportedItSettled() {
        Txn[] t = new Txn[1];
        TestCluster c = committedAtZero(t, false);
        c.tickUntil(3 * DECISION_RETENTION, GC_INTERVAL, 0);
        c.drop(type(Stabilize.class));
        assertThat(c.queryOutcome(0, t[0].id).outcome().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(c.disks[0].decisionCount()).isEqualTo(1);
        // A client clock saying partition 1 settled is not enough...
        c.read1(0, clock(0, 1), c.key(0, 0));
        c.advanceTo(c.now() + GC_INTERVAL);
        c.tick(0);
        assertThat(c.disks[0].decisionCount()).isEqualTo(1);
        // ...partition 1's own stabilization is.
        c.stabilize(1, 0);
        c.advanceTo(c.now() + GC_INTERVAL);
        c.tick(0);
        assertThat(c.disks[0].decisionCount()).isZero();
    }

    @Test
    void commitDecisionSurvivesACoordinatorRestart() {
        Txn[] t = new Txn[1];
        TestCluster c = committedAtZero(t, false);
        c.restart(0);
        OutcomeReply r = c.queryOutcome(0, t[0].id).outcome();
        assertThat(r.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(r.commitClock()).isEqualTo(clock(1, 1));
    }
}
