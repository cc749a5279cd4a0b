package io.fastccs.protocol;

import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.Key;
import io.fastccs.protocol.TestCluster.ReplyBox;
import io.fastccs.protocol.TestCluster.Txn;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.fastccs.protocol.TestCluster.bytes;
import static io.fastccs.protocol.TestCluster.str;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The focused scenarios of the other tests can fail: each deliberately broken variant ({@link Bug}) changes the
 * observable outcome that the corresponding correct-behaviour test asserts.
 */
class BugVariantSensitivityTest {

    private static TestCluster broken(int n, Bug bug) {
        return new TestCluster(n, TestCluster.defaultConfig().withBugs(EnumSet.of(bug)));
    }

    /**
     * Coordinator 0 aborts T on a timeout (the vote of partition 2 is late) and dies as it saves the abort. Partition 1
     * loses its own abort outcome in a restart; restarted, 0 resolves T from the prepares. Honest: the abort was told to
     * nobody, and T commits. Broken: partition 1 had told its client T aborted, and T commits all the same.
     */
    @Test
    void anAbortToldBeforeItIsDurableCanBeUndoneByTheResolution() {
        for (boolean broken : new boolean[]{false, true}) {
            TestCluster c = broken ? broken(3, Bug.ABORT_TOLD_BEFORE_DURABLE) : new TestCluster(3);
            Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t", c.key(2, 0), "t");
            c.onlyRequiredWritesDurable(1);
            t.sendTo(0);
            ReplyBox at1 = t.sendTo(1);
            t.sendTo(2);
            c.drop(TestCluster.type(io.fastccs.protocol.messages.Prepared.class)); // the votes are late
            c.dieAtDecision(0, t.id);
            c.advanceTo(TestCluster.TIMEOUT);
            c.tick(0);
            c.deliverAll(TestCluster.type(io.fastccs.protocol.messages.Abort.class).and(TestCluster.to(1)));
            c.drop(TestCluster.type(io.fastccs.protocol.messages.Abort.class)); // the one to 2 is lost
            c.restart(1);
            c.restart(0);
            c.deliverAll(TestCluster.type(io.fastccs.protocol.messages.StatusQuery.class));
            c.deliverAll(TestCluster.type(io.fastccs.protocol.messages.Prepared.class));
            Outcome became = c.queryOutcome(0, t.id).outcome().outcome();
            assertThat(became).isEqualTo(Outcome.COMMITTED);
            boolean toldAborted = at1.answered() && at1.write().outcome() == Outcome.ABORTED;
            assertThat(toldAborted).as(broken ? "broken: a client was told aborted" : "honest: nobody was told aborted")
                    .isEqualTo(broken);
        }
    }

    /**
     * Restarted coordinator 0 resolves T; partition 2 never saw T's request and refuses. Honest: it fenced T first, so
     * the request that arrives late is refused. Broken: it prepares T and votes, which a former leader of 0 that has
     * not learnt it was deposed could count.
     */
    @Test
    void aRefusalWithoutAFenceLetsTheLateRequestPrepare() {
        for (boolean broken : new boolean[]{false, true}) {
            TestCluster c = broken ? broken(3, Bug.REFUSE_WITHOUT_FENCE) : new TestCluster(3);
            Txn t = c.txn(0, c.key(0, 0), "t", c.key(1, 0), "t", c.key(2, 0), "t");
            t.sendTo(0);
            t.sendTo(1);
            c.drop(TestCluster.type(io.fastccs.protocol.messages.Prepared.class));
            c.restart(0);
            c.deliverAll(TestCluster.type(io.fastccs.protocol.messages.StatusQuery.class).and(TestCluster.to(2)));
            c.drop(TestCluster.any());
            c.restart(2); // what it wrote durably is all that is left of its answer
            ReplyBox late = t.sendTo(2);
            assertThat(c.p(2).pendingCount()).as(broken ? "broken: prepared after refusing" : "honest: fenced")
                    .isEqualTo(broken ? 1 : 0);
            if (!broken) assertThat(late.write().outcome()).isEqualTo(Outcome.ABORTED);
        }
    }

    @Test
    void earlyWriteReplyAnswersACommitWhileASmallerSequenceNumberIsUndecided() {
        TestCluster c = broken(3, Bug.EARLY_WRITE_REPLY);
        Txn t1 = c.txn(1, c.key(0, 0), "t1", c.key(1, 0), "t1");
        Txn t2 = c.txn(2, c.key(0, 1), "t2", c.key(2, 0), "t2");
        t1.sendTo(0);
        ReplyBox t2At0 = t2.sendTo(0);
        t2.sendTo(2);
        c.deliverAll(TestCluster.about(t2.id));
        assertThat(t2At0.answered()).as("the broken variant answers before sn 1 settles").isTrue();
        assertThat(c.p(0).snapshot().get(0)).isZero();
    }

    @Test
    void exposePendingShowsAnUndecidedWrite() {
        TestCluster c = broken(2, Bug.EXPOSE_PENDING);
        Key k = c.key(0, 0);
        c.txn(1, k, "pending", c.key(1, 0), "x").sendTo(0);
        assertThat(str(c.readNow(0, k))).isEqualTo("pending");
    }

    @Test
    void ignoringTheClientClockLosesReadYourWrites() {
        TestCluster c = broken(3, Bug.IGNORE_CLIENT_CLOCK);
        Key a = c.key(0, 0), b = c.key(1, 0);
        ClientSession writer = c.session(1);
        assertThat(c.runWrite(writer.write(Map.of(a, bytes("mine"), b, bytes("mine")), new Random(11))).isConfirmed()).isTrue();
        ReadTransaction read = c.runRead(writer.read(List.of(a, b)));
        assertThat(read.result().values().values()).extracting(TestCluster::str).containsExactly(null, null);
    }

    @Test
    void skippingTheSecondRoundReturnsAFracturedRead() {
        TestCluster c = new TestCluster(3);
        Key a = c.key(0, 0), b = c.key(1, 0);
        Txn t0 = c.txn(0, a, "t0", b, "t0");
        t0.sendTo(0);
        t0.sendTo(1);
        c.deliverAll();
        c.stabilizeAll();
        Txn t = c.txn(1, a, "t", b, "t");
        t.sendTo(0);
        t.sendTo(1);
        c.deliverAll();
        c.stabilize(1, 0);
        ClientSession reader = c.session(99);
        reader.withBugs(EnumSet.of(Bug.SKIP_SECOND_ROUND));
        ReadTransaction read = c.runRead(reader.read(List.of(a, b)));
        assertThat(read.result().rounds()).isEqualTo(1);
        assertThat(read.result().values().values()).extracting(TestCluster::str).containsExactly("t", "t0");
    }

    @Test
    void newestBySequenceLetsEachOfTwoConcurrentWritesWinOnOnePartition() {
        TestCluster c = broken(2, Bug.NEWEST_BY_SEQUENCE);
        Key a = c.key(0, 0), b = c.key(1, 0);
        ReadVisibilityTest.concurrentOverlappingWrites(c, a, b);
        ReadTransaction read = c.runRead(c.session(3).read(List.of(a, b)));
        assertThat(read.result().values().values()).extracting(TestCluster::str).containsExactly("t2", "t1");
    }
}
