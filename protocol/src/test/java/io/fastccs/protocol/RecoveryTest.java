package io.fastccs.protocol;

import io.fastccs.protocol.partition.PartitionInternals;
import io.fastccs.protocol.partition.Partition;
import io.fastccs.core.primitives.Key;
import io.fastccs.protocol.TestCluster.Envelope;
import io.fastccs.protocol.TestCluster.ReplyBox;
import io.fastccs.protocol.TestCluster.Txn;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.Refused;
import io.fastccs.protocol.messages.StatusQuery;
import io.fastccs.protocol.messages.Stabilize;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fastccs.protocol.TestCluster.CHECK_INTERVAL;
import static io.fastccs.protocol.TestCluster.TIMEOUT;
import static io.fastccs.protocol.TestCluster.about;
import static io.fastccs.protocol.TestCluster.clock;
import static io.fastccs.protocol.TestCluster.from;
import static io.fastccs.protocol.TestCluster.str;
import static io.fastccs.protocol.TestCluster.to;
import static io.fastccs.protocol.TestCluster.type;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pitfall 4: atomicity across a crash. A crash drops the Partition object; a new one starts on the same store.
 */
class RecoveryTest {

    @Test
    void preparedParticipantStillHoldsItsPendingWriteAfterARestartAsksAtOnceAndCommitsWhenTold() {
        TestCluster c = new TestCluster(2);
        Key a = c.key(0, 0), b = c.key(1, 0);
        Txn t = c.txn(0, a, "t", b, "t");
        ReplyBox at0 = t.sendTo(0);
        t.sendTo(1);
        c.deliverAll(type(Prepared.class));
        assertThat(at0.write().outcome()).isEqualTo(Outcome.COMMITTED);
        c.drop(type(Commit.class)); // partition 1 goes down before the commit reaches it

        c.advanceTo(50); // well within the transaction timeout
        Partition restarted = c.restart(1);
        assertThat(restarted.pendingCount()).isEqualTo(1);
        assertThat(restarted.unsettledCount()).isEqualTo(1);
        assertThat(restarted.lastSequence()).isEqualTo(1);
        assertThat(restarted.snapshot().get(1)).isZero();
        assertThat(restarted.metrics().recoveries()).isEqualTo(1);

        c.tick(1);
        assertThat(c.inFlight(type(CheckCommit.class))).as("asks on its first tick, not after the timeout")
                .extracting(Envelope::to, Envelope::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, new CheckCommit(t.id, 1)));
        c.deliverAll(type(CheckCommit.class).or(type(Commit.class)));
        assertThat(restarted.pendingCount()).isZero();
        assertThat(restarted.snapshot().get(1)).isEqualTo(1);
        c.stabilizeAll();
        assertThat(str(c.readNow(1, b))).isEqualTo("t");
        assertThat(str(c.readNow(0, a))).isEqualTo("t");
        // The sequence number is not reused.
        assertThat(c.writeLocal(c.key(1, 1), "next").write().commitClock().get(1)).isEqualTo(2);
    }

    /**
     * Coordinator 0 dies right after its commit decision for T is durable and no local outcome saved. A commit is told
     * before it is recorded, so the Commit was sent; here it is lost with the crash.
     */
    private static final class CoordinatorDiesAfterDeciding {
        final TestCluster c = new TestCluster(2);
        final Key a = c.key(0, 0), b = c.key(1, 0);
        final Txn t = c.txn(0, a, "t", b, "t");
        final ReplyBox at1;
        final Partition restarted;

        CoordinatorDiesAfterDeciding() {
            t.sendTo(0);
            at1 = t.sendTo(1);
            c.dieAfterDecision(0, t.id);
            c.deliverAll(type(Prepared.class));
            assertThat(c.isDead(0)).isTrue();
            assertThat(c.inFlight(type(Commit.class))).as("told before it was recorded").hasSize(1);
            c.drop(type(Commit.class));
            restarted = c.restart(0);
        }
    }

    @Test
    void coordinatorThatDecidedCommitAndCrashedBeforeSendingStillAnswersCheckCommitWithTheCommit() {
        CoordinatorDiesAfterDeciding s = new CoordinatorDiesAfterDeciding();
        TestCluster c = s.c;
        c.drop(type(Abort.class).or(type(Commit.class))); // (nothing expected; a restart must not abort a decided commit)
        c.advanceTo(TIMEOUT);
        c.tick(1);
        c.deliverAll(type(CheckCommit.class));
        List<Envelope> answer = c.inFlight(type(Commit.class).or(type(Abort.class)));
        long decidedTime = PartitionInternals.decisionOf(s.restarted, s.t.id).commitTime();
        assertThat(decidedTime).as("the commit time was decided before the crash and kept").isPositive();
        assertThat(answer).extracting(Envelope::message).containsExactly(new Commit(s.t.id, clock(1, 1), decidedTime));
        c.deliverAll(type(Commit.class));
        assertThat(s.at1.write().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(s.at1.write().commitTime()).isEqualTo(decidedTime);
        assertThat(s.at1.write().commitClock()).isEqualTo(clock(1, 1));
        assertThat(c.p(1).snapshot().get(1)).isEqualTo(1);
        assertThat(c.queryOutcome(0, s.t.id).outcome().outcome()).isEqualTo(Outcome.COMMITTED);
    }

    @Test
    void restartedCoordinatorDoesNotAbortATransactionItAlreadyDecidedToCommit() {
        CoordinatorDiesAfterDeciding s = new CoordinatorDiesAfterDeciding();
        assertThat(s.c.inFlight(type(Abort.class))).isEmpty();
        assertThat(s.c.queryOutcome(0, s.t.id).outcome().commitClock()).isEqualTo(clock(1, 1));
    }

    @Test
    void restartedCoordinatorAppliesItsDurableDecisionToItsOwnPendingPart() {
        CoordinatorDiesAfterDeciding s = new CoordinatorDiesAfterDeciding();
        TestCluster c = s.c;
        ReplyBox later = c.writeLocal(c.key(0, 1), "later"); // sn 2 on the coordinator
        c.tickUntil(3 * TIMEOUT, CHECK_INTERVAL, 0, 1);
        c.deliverAll(type(CheckCommit.class).or(type(Commit.class)).or(type(Abort.class)));
        c.tickUntil(c.now() + CHECK_INTERVAL, CHECK_INTERVAL, 0, 1); // partition 1 tells 0 it settled T
        c.deliverAll(type(Stabilize.class));
        assertThat(s.restarted.pendingCount()).as("own part of T still pending").isZero();
        assertThat(s.restarted.snapshot().get(0)).as("svc[0]").isEqualTo(2);
        assertThat(later.write().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(str(c.readNow(0, s.a))).isEqualTo("t");
    }

    @Test
    void coordinatorThatCrashedWhileCollectingVotesResolvesFromTheParticipantsAndAborts() {
        TestCluster c = new TestCluster(3);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t", c.key(2, 0), "t");
        t.sendTo(0);
        ReplyBox at1 = t.sendTo(1);
        List<Envelope> vote = c.inFlight(type(Prepared.class));
        c.drop(type(Prepared.class)); // still in flight while 0 restarts

        Partition restarted = c.restart(0);
        assertThat(c.inFlight(type(Abort.class))).as("a restart does not abort what may have been told committed").isEmpty();
        assertThat(c.inFlight(type(StatusQuery.class))).as("it asks every other participant")
                .extracting(Envelope::from, Envelope::to)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(0, 1), org.assertj.core.groups.Tuple.tuple(0, 2));
        assertThat(restarted.metrics().resolutions()).isEqualTo(1);

        // Partition 1 holds the prepare and votes again; partition 2 never saw the request: it fences and refuses.
        c.deliverAll(type(StatusQuery.class));
        assertThat(c.inFlight(type(Prepared.class).and(from(1)))).hasSize(1);
        assertThat(c.inFlight(type(Refused.class).and(from(2)))).hasSize(1);
        c.deliverAll(type(Prepared.class));
        assertThat(c.inFlight(type(Abort.class))).isEmpty();
        c.deliverAll(type(Refused.class));
        assertThat(c.inFlight(type(Abort.class))).extracting(Envelope::to).containsExactlyInAnyOrder(1, 2);
        assertThat(restarted.pendingCount()).isZero();
        assertThat(restarted.snapshot().get(0)).as("own sn skipped").isEqualTo(1);

        c.deliverAll(type(Abort.class).and(to(1)));
        assertThat(at1.write().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(c.p(1).snapshot().get(1)).isEqualTo(1);

        c.inFlight.addAll(vote);
        c.deliverAll(type(Prepared.class));
        assertThat(c.inFlight(type(Abort.class).and(to(1)))).as("late vote answered with the decision").hasSize(1);
        assertThat(c.inFlight(type(Commit.class))).isEmpty();

        // The fence: the write request that reaches partition 2 now is refused, not prepared.
        c.deliverAll(type(Abort.class).and(to(2)));
        assertThat(t.sendTo(2).write().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(c.p(2).pendingCount()).isZero();
        assertThat(c.queryOutcome(0, t.id).outcome().outcome()).isEqualTo(Outcome.ABORTED);
    }

    @Test
    void coordinatorThatLostItsCommitDecisionCommitsTheSameCommitAgainFromThePrepares() {
        TestCluster c = new TestCluster(2);
        Key a = c.key(0, 0), b = c.key(1, 0);
        Txn t = c.txn(0, a, "t", b, "t");
        c.onlyRequiredWritesDurable(0);
        t.sendTo(0);
        ReplyBox at1 = t.sendTo(1);
        c.deliverAll(type(Prepared.class));
        List<Envelope> told = c.inFlight(type(Commit.class));
        assertThat(told).as("the commit is told at once").hasSize(1);
        Commit commit = (Commit) told.get(0).message();
        c.deliverAll(type(Commit.class));
        assertThat(at1.write().outcome()).isEqualTo(Outcome.COMMITTED);

        // Coordinator 0 restarts with its prepare only: the decision, its own outcome and versions are lost.
        Partition restarted = c.restart(0);
        assertThat(restarted.metrics().resolutions()).isEqualTo(1);
        c.deliverAll(type(StatusQuery.class));
        c.deliverAll(type(Prepared.class));
        assertThat(c.queryOutcome(0, t.id).outcome().commitClock()).isEqualTo(commit.commitClock());
        assertThat(c.queryOutcome(0, t.id).outcome().commitTime()).as("the same commit time, from the proposals")
                .isEqualTo(commit.commitTime());
        assertThat(c.inFlight(type(Commit.class))).extracting(Envelope::message)
                .containsExactly(new Commit(t.id, commit.commitClock(), commit.commitTime()));
        restarted.onPeerMessage(1, new Stabilize(1, 1)); // the restarted partition learns again that 1 settled T
        assertThat(str(c.readNow(0, a))).isEqualTo("t");
    }

    @Test
    void svcDoesNotGoBackwardsAcrossARestartOnceAGcTickSavedIt() {
        TestCluster c = new TestCluster(3);
        c.writeLocal(c.key(0, 0), "a");
        c.writeLocal(c.key(0, 1), "b");                      // svc[0] = 2 from our own commits
        c.p(0).onPeerMessage(1, new Stabilize(1, 5));        // svc[1] = 5 from stabilization
        c.p(0).onPeerMessage(2, new Stabilize(2, 4));        // svc[2] = 4 from stabilization
        c.read1(0, clock(0, 0, 9), c.key(0, 0));             // a client clock serves its own read only (HostileClockTest)
        assertThat(c.p(0).snapshot()).isEqualTo(clock(2, 5, 4));
        c.tick(0);                                           // the GC tick saves the snapshot

        Partition restarted = c.restart(0);
        assertThat(restarted.snapshot()).isEqualTo(clock(2, 5, 4));
        assertThat(restarted.lastSequence()).isEqualTo(2);
        assertThat(c.writeLocal(c.key(0, 2), "c").write().commitClock().get(0)).as("no sequence number reused").isEqualTo(3);
        // A version that was visible before the crash is visible after it.
        assertThat(str(c.readNow(0, c.key(0, 1)))).isEqualTo("b");
    }

    @Test
    void ownSettledPrefixSurvivesARestartEvenWithoutAGcTick() {
        TestCluster c = new TestCluster(2);
        c.writeLocal(c.key(0, 0), "a");
        Txn t = c.txn(1, c.key(0, 1), "t", c.key(1, 0), "t");
        t.sendTo(0);                          // sn 2, undecided
        c.writeLocal(c.key(0, 2), "c");       // sn 3, committed behind sn 2
        Partition restarted = c.restart(0);
        assertThat(restarted.snapshot().get(0)).isEqualTo(1);
        assertThat(restarted.lastSequence()).isEqualTo(3);
        assertThat(restarted.unsettledCount()).isEqualTo(2);
        assertThat(str(c.readNow(0, c.key(0, 2)))).as("committed but unsettled stays invisible after restart").isNull();

        c.p(0).onPeerMessage(1, new Abort(t.id));
        assertThat(restarted.snapshot().get(0)).isEqualTo(3);
        assertThat(str(c.readNow(0, c.key(0, 2)))).isEqualTo("c");
        assertThat(str(c.readNow(0, c.key(0, 1)))).isNull();
    }

    @Test
    void repeatedRestartsKeepAPendingWriteUntilItsOutcomeIsKnown() {
        TestCluster c = new TestCluster(2);
        Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t");
        t.sendTo(1);
        c.drop(type(Prepared.class));
        for (int i = 0; i < 3; i++) {
            c.restart(1);
            assertThat(c.p(1).pendingCount()).as("restart %d", i).isEqualTo(1);
        }
        c.tick(1);
        c.deliverAll(about(t.id)); // coordinator never saw it: presumed abort
        assertThat(c.p(1).pendingCount()).isZero();
        assertThat(c.p(1).snapshot().get(1)).isEqualTo(1);
        c.restart(1);
        assertThat(c.p(1).pendingCount()).isZero();
        assertThat(c.p(1).snapshot().get(1)).isEqualTo(1);
    }
}
