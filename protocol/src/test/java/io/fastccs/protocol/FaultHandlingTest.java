package io.fastccs.protocol;

import io.fastccs.protocol.partition.PartitionInternals;
import io.fastccs.protocol.partition.Partition;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.TestCluster.Envelope;
import io.fastccs.protocol.TestCluster.ReplyBox;
import io.fastccs.protocol.TestCluster.Txn;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.WriteReply;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fastccs.protocol.TestCluster.CHECK_INTERVAL;
import static io.fastccs.protocol.TestCluster.TIMEOUT;
import static io.fastccs.protocol.TestCluster.about;
import static io.fastccs.protocol.TestCluster.clock;
import static io.fastccs.protocol.TestCluster.str;
import static io.fastccs.protocol.TestCluster.to;
import static io.fastccs.protocol.TestCluster.type;
import static org.assertj.core.api.Assertions.assertThat;

/** Section 3.8: coordinator timeouts, participants' check-commit, presumed abort, early aborts. */
class FaultHandlingTest {

    @Test
    void coordinatorAbortsAfterTheTimeoutWhenAVoteIsMissingAndEveryParticipantSkipsTheSequenceNumber() {
        TestCluster c = new TestCluster(3);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t", c.key(2, 0), "t");
        ReplyBox at0 = t.sendTo(0);
        ReplyBox at1 = t.sendTo(1);
        c.deliverAll(about(t.id)); // partition 1's vote; partition 2 never got its request
        assertThat(c.p(0).pendingCount()).isEqualTo(1);

        c.advanceTo(TIMEOUT - 1);
        c.tick(0);
        assertThat(c.inFlight(type(Abort.class))).as("not before the timeout").isEmpty();
        assertThat(at0.responses).isEmpty();

        c.advanceTo(TIMEOUT);
        c.tick(0);
        assertThat(c.inFlight(type(Abort.class))).extracting(Envelope::to).containsExactlyInAnyOrder(1, 2);
        assertThat(c.p(0).metrics().coordinatorTimeouts()).isEqualTo(1);
        assertThat(at0.write().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(c.p(0).snapshot().get(0)).as("coordinator skipped its own sn").isEqualTo(1);

        c.deliverAll(type(Abort.class).and(to(1)));
        assertThat(at1.write().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(c.p(1).snapshot().get(1)).isEqualTo(1);
        assertThat(c.p(1).pendingCount()).isZero();

        // Partition 2 learns the abort before the request: the request is refused without preparing.
        c.deliverAll(type(Abort.class).and(to(2)));
        ReplyBox at2 = t.sendTo(2);
        assertThat(at2.write().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(c.p(2).lastSequence()).isZero();

        // The skipped sequence numbers do not stop anything.
        Txn next = c.txn(1, c.key(0, 1), "n", c.key(1, 1), "n");
        ReplyBox n0 = next.sendTo(0), n1 = next.sendTo(1);
        c.deliverAll(about(next.id));
        assertThat(n0.write().commitClock()).isEqualTo(clock(2, 2, 0));
        assertThat(n1.write().commitClock()).isEqualTo(clock(2, 2, 0));
        c.stabilizeAll();
        assertThat(str(c.readNow(0, c.key(0, 0)))).isNull();
        assertThat(str(c.readNow(0, c.key(0, 1)))).isEqualTo("n");
    }

    @Test
    void abortArrivingBeforeTheWriteRequestMakesItAnswerAbortedWithoutPreparing() {
        TestCluster c = new TestCluster(2);
        Txn t = c.txn(1, c.key(0, 0), "t", c.key(1, 0), "t");
        c.p(0).onPeerMessage(1, new Abort(t.id));
        ReplyBox box = t.sendTo(0);
        assertThat(box.write().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(box.write().commitClock()).isNull();
        assertThat(c.p(0).lastSequence()).isZero();
        assertThat(c.p(0).pendingCount()).isZero();
        assertThat(c.disks[0].transactionRecordCount()).isZero();
        assertThat(c.inFlight(type(Prepared.class))).as("no vote sent").isEmpty();
        // The next write gets sequence number 1.
        assertThat(c.writeLocal(c.key(0, 1), "ok").write().commitClock()).isEqualTo(clock(1, 0));
    }

    @Test
    void participantAsksTheCoordinatorAfterTheTimeoutAndThenEveryCheckInterval() {
        TestCluster c = new TestCluster(2);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t");
        t.sendTo(1);
        assertThat(c.drop(type(Prepared.class))).as("the vote is lost").isEqualTo(1);

        c.tickUntil(TIMEOUT - 1, 10, 1);
        assertThat(c.inFlight(type(CheckCommit.class))).isEmpty();
        c.advanceTo(TIMEOUT);
        c.tick(1);
        assertThat(c.inFlight(type(CheckCommit.class))).extracting(Envelope::to, Envelope::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, new CheckCommit(t.id, 1)));
        c.tickUntil(TIMEOUT + CHECK_INTERVAL - 1, 10, 1);
        assertThat(c.inFlight(type(CheckCommit.class))).hasSize(1);
        c.advanceTo(TIMEOUT + CHECK_INTERVAL);
        c.tick(1);
        assertThat(c.inFlight(type(CheckCommit.class))).hasSize(2);
        c.advanceTo(TIMEOUT + 2 * CHECK_INTERVAL);
        c.tick(1);
        assertThat(c.inFlight(type(CheckCommit.class))).hasSize(3);
        assertThat(c.p(1).metrics().checkCommitsSent()).isEqualTo(3);
    }

    @Test
    void coordinatorAnswersCheckCommitWithItsCommitDecision() {
        TestCluster c = new TestCluster(2);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t");
        ReplyBox at0 = t.sendTo(0), at1 = t.sendTo(1);
        c.deliverAll(type(Prepared.class));
        assertThat(at0.write().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(c.drop(type(Commit.class))).as("the commit is lost").isEqualTo(1);

        c.advanceTo(TIMEOUT);
        c.tick(1);
        c.deliverAll(type(CheckCommit.class));
        assertThat(c.inFlight(type(Commit.class))).extracting(Envelope::message)
                .containsExactly(new Commit(t.id, at0.write().commitClock(), at0.write().commitTime()));
        c.deliverAll(type(Commit.class));
        assertThat(at1.write().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(at1.write().commitClock()).isEqualTo(at0.write().commitClock()).isEqualTo(clock(1, 1));
        assertThat(c.p(1).snapshot().get(1)).isEqualTo(1);
        // No more questions once settled.
        c.advanceTo(TIMEOUT + 5 * CHECK_INTERVAL);
        c.tick(1);
        assertThat(c.inFlight(type(CheckCommit.class))).isEmpty();
    }

    @Test
    void coordinatorAnswersCheckCommitWithItsAbortDecision() {
        TestCluster c = new TestCluster(3);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t", c.key(2, 0), "t");
        t.sendTo(0);
        ReplyBox at1 = t.sendTo(1);
        c.deliverAll(type(Prepared.class));
        c.advanceTo(TIMEOUT);
        c.tick(0); // aborts: partition 2 never voted
        assertThat(c.drop(type(Abort.class))).as("the aborts are lost").isEqualTo(2);

        c.tick(1); // partition 1 prepared at 0, so it asks now
        c.deliverAll(type(CheckCommit.class));
        assertThat(c.inFlight(type(Abort.class))).extracting(Envelope::to, Envelope::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1, new Abort(t.id)));
        c.deliverAll(type(Abort.class));
        assertThat(at1.write().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(c.p(1).snapshot().get(1)).isEqualTo(1);
    }

    @Test
    void coordinatorThatNeverSawTheTransactionPresumesAbortAndRefusesTheLateWriteRequest() {
        TestCluster c = new TestCluster(2);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t");
        ReplyBox at1 = t.sendTo(1);
        List<Envelope> vote = c.inFlight(type(Prepared.class));
        c.drop(type(Prepared.class)); // held back: it arrives much later

        c.advanceTo(TIMEOUT);
        c.tick(1);
        c.deliverAll(type(CheckCommit.class));
        assertThat(c.p(0).metrics().presumedAborts()).isEqualTo(1);
        c.deliverAll(type(Abort.class));
        assertThat(at1.write().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(c.p(1).snapshot().get(1)).isEqualTo(1);

        ReplyBox late = t.sendTo(0);
        assertThat(late.write().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(c.p(0).lastSequence()).as("the late request was not prepared").isZero();

        // The held-back vote arrives after the decision: it is answered with the decision.
        c.inFlight.addAll(vote);
        c.deliverAll(type(Prepared.class));
        assertThat(c.inFlight(type(Abort.class))).extracting(Envelope::to).containsExactly(1);
        c.deliverAll();
        assertThat(c.p(1).snapshot().get(1)).isEqualTo(1);
        assertThat(c.p(1).pendingCount()).isZero();
    }

    @Test
    void latePreparedAfterACommitDecisionIsAnsweredWithTheCommit() {
        TestCluster c = new TestCluster(3);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t", c.key(2, 0), "t");
        for (int p = 0; p < 3; p++) t.sendTo(p);
        List<Envelope> votes = c.inFlight(type(Prepared.class));
        c.deliverAll();
        VectorClock ct = clock(1, 1, 1);
        assertThat(c.p(0).snapshot().get(0)).isEqualTo(1);
        // A repeated vote from partition 2.
        c.inFlight.add(votes.stream().filter(e -> e.from() == 2).findFirst().orElseThrow());
        c.deliverAll(type(Prepared.class));
        long commitTime = PartitionInternals.decisionOf(c.p(0), t.id).commitTime();
        assertThat(commitTime).isPositive();
        assertThat(c.inFlight).extracting(Envelope::to, Envelope::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(2, new Commit(t.id, ct, commitTime)));
        c.deliverAll();
        assertThat(c.p(2).snapshot().get(2)).isEqualTo(1);
        assertThat(c.p(2).lastSequence()).isEqualTo(1);
    }

    @Test
    void checkCommitWhileTheCoordinatorIsStillCollectingGetsNoAnswerUntilTheCoordinatorTimesOut() {
        TestCluster c = new TestCluster(2);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t");
        ReplyBox at1 = t.sendTo(1);         // participant prepares at 0
        c.advanceTo(TIMEOUT / 2);
        c.deliverAll(type(Prepared.class)); // coordinator first hears of it at TIMEOUT/2; its client request never comes
        c.advanceTo(TIMEOUT);
        c.tick(1);
        c.deliverAll(type(CheckCommit.class));
        assertThat(c.inFlight(type(Abort.class).or(type(Commit.class)))).as("still collecting: no answer").isEmpty();
        assertThat(at1.responses).isEmpty();

        c.advanceTo(TIMEOUT / 2 + TIMEOUT);
        c.tick(0);
        c.deliverAll(type(Abort.class));
        assertThat(at1.write().outcome()).isEqualTo(Outcome.ABORTED);
    }

    @Test
    void checkCommitClaimingAnotherSenderIsIgnored() {
        TestCluster c = new TestCluster(3);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t");
        c.p(0).onPeerMessage(2, new CheckCommit(t.id, 1));
        assertThat(c.inFlight).isEmpty();
        assertThat(c.p(0).metrics().presumedAborts()).isZero();
    }

    @Test
    void malformedVotesAreIgnored() {
        TestCluster c = new TestCluster(3);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t");
        ReplyBox at0 = t.sendTo(0);
        Partition p0 = c.p(0);
        p0.onPeerMessage(2, new Prepared(t.id, 1, 1, List.of(0, 1), 1));   // claims another sender
        p0.onPeerMessage(2, new Prepared(t.id, 2, 1, List.of(0, 1), 1));   // sender not among the participants
        p0.onPeerMessage(1, new Prepared(t.id, 1, 0, List.of(0, 1), 1));   // sequence numbers start at 1
        p0.onPeerMessage(1, new Prepared(t.id, 1, 1, List.of(1, 2), 1));   // coordinator not among the participants
        p0.onPeerMessage(1, new Prepared(t.id, 1, 1, List.of(0, 1, 1), 1)); // duplicated participant
        assertThat(at0.responses).isEmpty();
        assertThat(c.inFlight).isEmpty();
        p0.onPeerMessage(1, new Prepared(t.id, 1, 1, List.of(0, 1), 1));
        assertThat(at0.write().outcome()).isEqualTo(Outcome.COMMITTED);
    }

    @Test
    void coordinatorCommitsNoMatterWhetherVotesOrItsOwnRequestComeFirst() {
        for (boolean ownFirst : new boolean[]{true, false}) {
            TestCluster c = new TestCluster(3);
            Txn t = c.txn(1, c.key(0, 0), "t", c.key(1, 0), "t", c.key(2, 0), "t");
            ReplyBox own = null;
            if (ownFirst) own = t.sendTo(1);
            ReplyBox at2 = t.sendTo(2), at0 = t.sendTo(0);
            c.deliverAll(type(Prepared.class));
            if (!ownFirst) {
                assertThat(c.inFlight(type(Commit.class))).as("own request first=%s", ownFirst).isEmpty();
                own = t.sendTo(1);
            }
            c.deliverAll();
            for (ReplyBox b : List.of(own, at0, at2)) {
                WriteReply r = b.write();
                assertThat(r.outcome()).as("own request first=%s", ownFirst).isEqualTo(Outcome.COMMITTED);
                assertThat(r.commitClock()).isEqualTo(clock(1, 1, 1));
            }
        }
    }
}
