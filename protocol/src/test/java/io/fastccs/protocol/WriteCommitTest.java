package io.fastccs.protocol;

import io.fastccs.core.Outgoing;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.TestCluster.ReplyBox;
import io.fastccs.protocol.TestCluster.Txn;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.WriteReply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

import static io.fastccs.protocol.TestCluster.TIMEOUT;
import static io.fastccs.protocol.TestCluster.about;
import static io.fastccs.protocol.TestCluster.clock;
import static io.fastccs.protocol.TestCluster.to;
import static io.fastccs.protocol.TestCluster.type;
import static org.assertj.core.api.Assertions.assertThat;

/** Write-only transactions (algorithm 1 lines 20-26, algorithm 2 lines 17-44) and the settled-prefix rule. */
class WriteCommitTest {

    /** A RandomGenerator that always picks the given index: lets a test choose the coordinator. */
    static RandomGenerator choosing(int index) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int nextInt(int bound) {
                return index;
            }
        };
    }

    @ParameterizedTest(name = "{0} participants, coordinator is participant #{1}")
    @CsvSource({"2,0", "2,1", "3,0", "3,1", "3,2"})
    void writeAcrossPartitionsCommitsWithOneCommitClockWhoseOwnEntriesAreTheSequenceNumbers(int k, int coordinatorIndex) {
        TestCluster c = new TestCluster(4);
        // Give partitions different sequence numbers: partition p has p earlier writes, partition 3 (never a
        // participant) has 3, all settled.
        for (int p = 0; p < 4; p++)
            for (int i = 0; i < p; i++) assertThat(c.writeLocal(c.key(p, 10 + i), "old").write().outcome()).isEqualTo(Outcome.COMMITTED);
        // An honest session may know partition 3's settled prefix; the commit clock must carry it over.
        VectorClock initial = clock(0, 0, 0, 3);
        ClientSession session = c.session(7, initial);
        Map<Key, byte[]> writes = new LinkedHashMap<>();
        for (int p = k - 1; p >= 0; p--) writes.put(c.key(p, 0), TestCluster.bytes("v" + p));
        WriteTransaction tx = session.write(writes, choosing(coordinatorIndex));
        assertThat(tx.participants()).containsExactlyElementsOf(range(k));
        int coordinator = tx.coordinator();
        assertThat(coordinator).isEqualTo(coordinatorIndex);

        // Non-coordinators first, and their votes reach the coordinator before its own request does.
        List<Outgoing> requests = tx.start();
        assertThat(requests).extracting(Outgoing::partition).containsExactlyInAnyOrderElementsOf(range(k));
        Map<Integer, ReplyBox> boxes = new LinkedHashMap<>();
        for (Outgoing o : reverse(requests))
            if (o.partition() != coordinator) boxes.put(o.partition(), c.send(o.partition(), o.request()));
        assertThat(c.deliverAll(type(Prepared.class).and(to(coordinator)))).isEqualTo(k - 1);
        for (Outgoing o : requests)
            if (o.partition() == coordinator) boxes.put(o.partition(), c.send(o.partition(), o.request()));
        // Commit messages in reverse order of partitions.
        for (int p = k - 1; p >= 0; p--) c.deliverAll(type(Commit.class).and(to(p)));

        VectorClock ct = null;
        List<Integer> replyOrder = reverse(range(k));
        for (int i = 0; i < replyOrder.size(); i++) {
            int p = replyOrder.get(i);
            WriteReply r = boxes.get(p).write();
            assertThat(r.outcome()).as("reply of partition %d", p).isEqualTo(Outcome.COMMITTED);
            if (ct == null) ct = r.commitClock();
            assertThat(r.commitClock()).as("every participant replies the same commit clock").isEqualTo(ct);
            assertThat(session.clock()).as("session clock before the last participant replied").isEqualTo(initial);
            assertThat(tx.isConfirmed()).isFalse();
            tx.onResponse(r);
        }
        assertThat(tx.isConfirmed()).isTrue();
        assertThat(tx.isFinished()).isTrue();
        assertThat(tx.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(session.clock()).isEqualTo(ct);
        for (int p = 0; p < 4; p++) {
            if (p < k) {
                assertThat(ct.get(p)).as("ct[%d] is partition %d's sequence number", p, p).isEqualTo(p + 1L)
                        .isEqualTo(c.p(p).lastSequence());
                assertThat(c.p(p).snapshot().get(p)).as("participant %d settled its sequence number", p).isEqualTo(p + 1L);
            } else {
                assertThat(ct.get(p)).as("ct[%d] of a non-participant is the client's entry", p).isEqualTo(initial.get(p));
            }
        }
        assertThat(c.inFlight).isEmpty();
    }

    /**
     * Partition 0 prepares T1 (sn 1, coordinated by 1) then T2 (sn 2, coordinated by 2). T2 commits first: its
     * reply on partition 0 must wait for sn 1 to settle, and svc[0] must not move.
     */
    private static final class OutOfOrder {
        final TestCluster c = new TestCluster(3);
        final Key a1 = c.key(0, 0), a2 = c.key(0, 1), b = c.key(1, 0), d = c.key(2, 0);
        final Txn t1 = c.txn(1, a1, "t1", b, "t1");
        final Txn t2 = c.txn(2, a2, "t2", d, "t2");
        final ReplyBox t1At0, t2At0, t2At2;

        OutOfOrder() {
            t1At0 = t1.sendTo(0);
            t2At0 = t2.sendTo(0);
            t2At2 = t2.sendTo(2);
            c.deliverAll(about(t2.id)); // T2's vote reaches coordinator 2, which commits and tells partition 0
        }
    }

    @Test
    void committedWriteIsNotAnsweredWhileASmallerSequenceNumberIsUnsettled() {
        OutOfOrder s = new OutOfOrder();
        assertThat(s.t2At2.write().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(s.t2At2.write().commitClock()).isEqualTo(clock(2, 0, 1));
        assertThat(s.t2At0.responses).as("T2 committed on 0 but sn 1 (T1) is undecided").isEmpty();
        assertThat(s.t1At0.responses).isEmpty();
        assertThat(s.c.p(0).snapshot().get(0)).as("svc[0]").isZero();
        assertThat(s.c.p(0).unsettledCount()).isEqualTo(2);
        assertThat(s.c.p(0).pendingCount()).isEqualTo(1);
    }

    @Test
    void committingTheSmallerSequenceNumberReleasesBothRepliesInSequenceOrder() {
        OutOfOrder s = new OutOfOrder();
        ReplyBox t1At1 = s.t1.sendTo(1);
        s.c.deliverAll(about(s.t1.id));

        assertThat(s.t1At0.write().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(s.t1At0.write().commitClock()).isEqualTo(clock(1, 1, 0));
        assertThat(t1At1.write().commitClock()).isEqualTo(clock(1, 1, 0));
        assertThat(s.t2At0.write().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(s.t2At0.write().commitClock()).isEqualTo(clock(2, 0, 1));
        assertThat(s.c.answerLog.indexOf(s.t1At0)).as("T1 answered before T2 on partition 0")
                .isLessThan(s.c.answerLog.indexOf(s.t2At0));
        assertThat(s.c.p(0).snapshot().get(0)).isEqualTo(2);
        assertThat(s.c.p(0).unsettledCount()).isZero();
    }

    @Test
    void abortingTheSmallerSequenceNumberSkipsItAndReleasesTheLaterCommit() {
        OutOfOrder s = new OutOfOrder();
        // T1's vote reaches coordinator 1, whose client request never comes: it times out and aborts.
        s.c.deliverAll(about(s.t1.id));
        s.c.advanceTo(TIMEOUT);
        s.c.tick(1);
        assertThat(s.c.deliverAll(type(io.fastccs.protocol.messages.Abort.class).and(to(0)))).isEqualTo(1);

        assertThat(s.t1At0.write().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(s.t1At0.write().commitClock()).isNull();
        assertThat(s.t2At0.write().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(s.t2At0.write().commitClock()).isEqualTo(clock(2, 0, 1));
        assertThat(s.c.p(0).snapshot().get(0)).as("svc[0] passes the aborted sn 1").isEqualTo(2);

        // The prefix keeps moving after an abort: the next write settles at once.
        WriteReply next = s.c.writeLocal(s.c.key(0, 2), "t3").write();
        assertThat(next.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(next.commitClock().get(0)).isEqualTo(3);
        assertThat(s.c.p(0).snapshot().get(0)).isEqualTo(3);

        // T1's write never shows; T2's does once partition 0 knows partition 2 settled it.
        s.c.stabilizeAll();
        assertThat(TestCluster.str(s.c.readNow(0, s.a1))).isNull();
        assertThat(TestCluster.str(s.c.readNow(0, s.a2))).isEqualTo("t2");
        assertThat(TestCluster.str(s.c.readNow(2, s.d))).isEqualTo("t2");
    }

    @Test
    void abortedSequenceNumbersAreSkippedEvenWhenSeveralAbortInARow() {
        TestCluster c = new TestCluster(2);
        List<Txn> aborted = new ArrayList<>();
        List<ReplyBox> boxes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Txn t = c.txn(1, c.key(0, i), "x", c.key(1, i), "x");
            aborted.add(t);
            boxes.add(t.sendTo(0)); // sn 1..3 on partition 0; coordinator 1 never gets the client's request
        }
        ReplyBox committed = c.writeLocal(c.key(0, 9), "ok"); // sn 4, committed but behind three undecided
        assertThat(committed.responses).isEmpty();
        // Abort them newest first.
        for (int i = 2; i >= 0; i--) c.p(0).onPeerMessage(1, new io.fastccs.protocol.messages.Abort(aborted.get(i).id));
        for (ReplyBox b : boxes) assertThat(b.write().outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(committed.write().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(c.p(0).snapshot().get(0)).isEqualTo(4);
    }

    private static List<Integer> range(int k) {
        List<Integer> l = new ArrayList<>();
        for (int i = 0; i < k; i++) l.add(i);
        return l;
    }

    private static <T> List<T> reverse(List<T> l) {
        List<T> r = new ArrayList<>(l);
        Collections.reverse(r);
        return r;
    }
}
