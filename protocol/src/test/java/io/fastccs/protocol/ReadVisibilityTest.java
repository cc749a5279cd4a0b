package io.fastccs.protocol;

import io.fastccs.core.Outgoing;
import io.fastccs.protocol.partition.PartitionInternals;
import io.fastccs.protocol.partition.Partition;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.protocol.TestCluster.ReplyBox;
import io.fastccs.protocol.TestCluster.Txn;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.Stabilize;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.fastccs.protocol.TestCluster.clock;
import static io.fastccs.protocol.TestCluster.str;
import static io.fastccs.protocol.TestCluster.type;
import static org.assertj.core.api.Assertions.assertThat;

/** What reads may see: algorithm 2 lines 2-16 and the client check of algorithm 1 lines 2-19. */
class ReadVisibilityTest {

    private static List<String> values(ReadReply r) {
        List<String> out = new ArrayList<>();
        for (ReadValue v : r.values()) out.add(str(v));
        return out;
    }

    @Test
    void pendingVersionIsInvisibleToRoundOneAndRoundTwoWhateverTheClientClock() {
        TestCluster c = new TestCluster(2);
        Key k = c.key(0, 0);
        c.writeLocal(k, "v1");
        Txn t = c.txn(1, k, "v2", c.key(1, 0), "v2");
        ReplyBox prepared = t.sendTo(0); // sn 2 on partition 0, undecided

        assertThat(str(c.readNow(0, k))).isEqualTo("v1");
        assertThat(str(c.read1(0, clock(2, 1), k).read().values().get(0))).isEqualTo("v1");
        // Round two at clocks that cover (and exceed) the pending transaction's eventual commit clock [2,1].
        assertThat(str(c.read2(0, clock(1, 1), c.now(), k).read().values().get(0))).isEqualTo("v1");
        assertThat(str(c.read2(0, clock(2, 1), c.now(), k).read().values().get(0))).isEqualTo("v1");
        assertThat(str(c.read2(0, clock(50, 50), c.now(), k).read().values().get(0))).isEqualTo("v1");
        assertThat(str(c.read1(0, clock(50, 50), k).read().values().get(0))).isEqualTo("v1");
        assertThat(prepared.responses).isEmpty();
        assertThat(c.disks[0].versions(k)).as("a pending write is not in the version chain").hasSize(1);
    }

    @Test
    void committedVersionBecomesVisibleOnlyOnceSettledAndCoveredBySvc() {
        TestCluster c = new TestCluster(2);
        Key k = c.key(0, 0);
        c.writeLocal(k, "v1");
        Txn t = c.txn(1, k, "v2", c.key(1, 0), "v2");
        ReplyBox prepared = t.sendTo(0);
        assertThat(str(c.readNow(0, k))).isEqualTo("v1");

        // Committed and settled on 0, but ct = [2,1] is not yet within svc_0 = [2,0].
        t.sendTo(1);
        c.deliverAll(TestCluster.about(t.id));
        assertThat(prepared.write().commitClock()).isEqualTo(clock(2, 1));
        ReadReply r = c.read1(0, VectorClock.zero(2), k).read();
        assertThat(r.snapshot()).isEqualTo(clock(2, 0));
        assertThat(values(r)).containsExactly("v1");
        assertThat(str(c.read2(0, clock(1, 0), c.now(), k).read().values().get(0))).isEqualTo("v1");

        c.stabilize(1, 0);
        assertThat(str(c.readNow(0, k))).isEqualTo("v2");
    }

    @Test
    void anAnswerListsTheVersionsItLeftOutWithinItsOwnEntry() {
        TestCluster c = new TestCluster(2);
        Key k = c.key(0, 0), cold = c.key(0, 1);
        c.writeLocal(k, "v1");
        c.writeLocal(cold, "c1");
        Txn t = c.txn(1, k, "v2", c.key(1, 0), "v2");
        t.sendTo(0);
        t.sendTo(1);
        c.deliverAll(TestCluster.about(t.id));
        // v2 (ct [3,1]) is settled on partition 0 (sequence 3 within svc_0 = [3,0]) but waits for partition 1's entry.
        ReadReply hiding = c.read1(0, VectorClock.zero(2), k).read();
        assertThat(values(hiding)).containsExactly("v1");
        assertThat(hiding.waitingComplete()).isTrue();
        assertThat(hiding.waiting()).as("v2 is within the own entry and left out").singleElement().satisfies(w -> {
            assertThat(w.key()).isEqualTo(k);
            assertThat(new String(w.value(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("v2");
            assertThat(w.commitClock()).isEqualTo(clock(3, 1));
            assertThat(w.sequence()).isEqualTo(3);
        });
        ReadReply coldOnly = c.read1(0, VectorClock.zero(2), cold).read();
        assertThat(values(coldOnly)).containsExactly("c1");
        assertThat(coldOnly.waiting()).as("nothing of the cold key was left out").isEmpty();
        assertThat(coldOnly.waitingComplete()).isTrue();
        // Round two lists nothing: the client decides after round one.
        ReadReply second = c.read2(0, clock(3, 0), c.now(), k).read();
        assertThat(second.waiting()).isEmpty();
        assertThat(second.waitingComplete()).isFalse();
        c.stabilize(1, 0);
        ReadReply after = c.read1(0, VectorClock.zero(2), k).read();
        assertThat(values(after)).containsExactly("v2");
        assertThat(after.waiting()).isEmpty();
        assertThat(after.waitingComplete()).isTrue();
    }

    @Test
    void anAnswerWithMoreWaitingVersionsThanItCanListListsNoneAndSaysSo() {
        TestCluster c = new TestCluster(2);
        Key k = c.key(0, 0);
        c.writeLocal(k, "v0");
        String value = "x".repeat(TestCluster.MAX_VALUE_BYTES);
        int written = 0;
        // Each waiting version counts its key, value and clock: enough of them to pass the budget.
        while ((long) written * (k.length() + value.length()) <= PartitionInternals.MAX_WAITING_BYTES) {
            Txn t = c.txn(1, k, value, c.key(1, 0), "w");
            t.sendTo(0);
            t.sendTo(1);
            c.deliverAll(TestCluster.about(t.id));
            written++;
            if (written == 3) {
                ReadReply few = c.read1(0, VectorClock.zero(2), k).read();
                assertThat(few.waiting()).hasSize(3);
                assertThat(few.waitingComplete()).isTrue();
            }
        }
        ReadReply r = c.read1(0, VectorClock.zero(2), k).read();
        assertThat(values(r)).containsExactly("v0");
        assertThat(r.waiting()).as("the client asks again anyway").isEmpty();
        assertThat(r.waitingComplete()).isFalse();
    }

    @Test
    void aVersionBeyondTheOwnEntryIsNotCountedAsLeftOut() {
        TestCluster c = new TestCluster(2);
        Key cold = c.key(0, 1);
        c.writeLocal(cold, "c1");                                     // sequence 1
        c.txn(1, c.key(0, 2), "u", c.key(1, 0), "u").sendTo(0);     // sequence 2, undecided: the prefix stops at 1
        c.writeLocal(cold, "c2");                                     // sequence 3: committed, not settled
        ReadReply r = c.read1(0, VectorClock.zero(2), cold).read();
        assertThat(values(r)).containsExactly("c1");
        assertThat(r.snapshot().get(0)).isEqualTo(1);
        // No clock whose entry for partition 0 is at most 1 can show c2, so it is not listed.
        assertThat(r.waiting()).isEmpty();
        assertThat(r.waitingComplete()).isTrue();
    }

    @Test
    void committedVersionIsInvisibleWhileAnEarlierSequenceNumberIsUnsettled() {
        TestCluster c = new TestCluster(2);
        Key k1 = c.key(0, 0), k2 = c.key(0, 1);
        Txn t1 = c.txn(1, k1, "t1", c.key(1, 0), "t1");
        t1.sendTo(0);                              // sn 1, undecided
        ReplyBox t2 = c.writeLocal(k2, "t2");      // sn 2, committed with ct [2,0] but not settled
        assertThat(t2.responses).isEmpty();
        assertThat(c.disks[0].versions(k2)).as("T2's version is stored, just not visible").hasSize(1);

        assertThat(values(c.read1(0, VectorClock.zero(2), k1, k2).read())).containsExactly(null, null);
        assertThat(values(c.read2(0, clock(0, 0), c.now(), k1, k2).read())).containsExactly(null, null);
        assertThat(values(c.read2(0, clock(2, 0), c.now(), k1, k2).read())).containsExactly(null, null);

        t1.sendTo(1);
        c.deliverAll(TestCluster.about(t1.id));
        assertThat(t2.write().commitClock()).isEqualTo(clock(2, 0));
        // T2 is now settled and covered; T1 (ct [1,1]) waits for partition 1's stabilization.
        assertThat(values(c.read1(0, VectorClock.zero(2), k1, k2).read())).containsExactly(null, "t2");
        c.stabilize(1, 0);
        assertThat(values(c.read1(0, VectorClock.zero(2), k1, k2).read())).containsExactly("t1", "t2");
    }

    @Test
    void firstRoundReturnsTheNewestVersionWithinSvcAndReportsSvcAndTheMaxCommitClock() {
        TestCluster c = new TestCluster(3);
        Key k = c.key(0, 0), j = c.key(0, 1), never = c.key(0, 2);
        c.writeLocal(k, "v1");                                   // sn 1, ct [1,0,0]
        Txn t = c.txn(0, k, "v2", c.key(1, 0), "x");             // sn 2, ct [2,1,0]
        t.sendTo(0);
        t.sendTo(1);
        Txn u = c.txn(0, j, "u", c.key(2, 0), "y");              // sn 3, ct [3,0,1]
        u.sendTo(0);
        u.sendTo(2);
        c.deliverAll();
        assertThat(c.p(0).snapshot()).isEqualTo(clock(3, 0, 0));

        ReadReply r = c.read1(0, VectorClock.zero(3), k, j, never).read();
        assertThat(r.values()).extracting(ReadValue::key).containsExactly(k, j, never);
        assertThat(values(r)).containsExactly("v1", null, null);
        assertThat(r.values()).extracting(ReadValue::sequence).containsExactly(1L, 0L, 0L);
        assertThat(r.snapshot()).isEqualTo(clock(3, 0, 0));
        assertThat(r.maxCommitClock()).isEqualTo(clock(1, 0, 0));

        c.stabilize(1, 0);
        r = c.read1(0, VectorClock.zero(3), k, j, never).read();
        assertThat(values(r)).containsExactly("v2", null, null);
        assertThat(r.snapshot()).isEqualTo(clock(3, 1, 0));
        assertThat(r.maxCommitClock()).isEqualTo(clock(2, 1, 0));

        c.stabilize(2, 0);
        r = c.read1(0, VectorClock.zero(3), k, j, never).read();
        assertThat(values(r)).containsExactly("v2", "u", null);
        assertThat(r.values()).extracting(ReadValue::sequence).containsExactly(2L, 3L, 0L);
        assertThat(r.snapshot()).isEqualTo(clock(3, 1, 1));
        assertThat(r.maxCommitClock()).as("ctm is the entry-wise max of the returned versions").isEqualTo(clock(3, 1, 1));
        assertThat(r.serverTime()).isEqualTo(c.now());
    }

    /** Partitions A=0 and B=1 both hold T's writes; stabilization reached A (B -> A) but not B (A -> B). */
    private static final class LaggingStabilization {
        final TestCluster c = new TestCluster(3);
        final Key a = c.key(0, 0), b = c.key(1, 0);

        LaggingStabilization() {
            Txn t0 = c.txn(0, a, "t0", b, "t0");
            t0.sendTo(0);
            t0.sendTo(1);
            c.deliverAll();
            c.stabilizeAll();
            Txn t = c.txn(1, a, "t", b, "t");
            t.sendTo(0);
            t.sendTo(1);
            c.deliverAll();
            assertThat(t.writes.keySet()).containsExactly(0, 1);
            c.stabilize(1, 0);
            assertThat(c.p(0).snapshot()).isEqualTo(clock(2, 2, 0));
            assertThat(c.p(1).snapshot()).isEqualTo(clock(1, 2, 0));
        }
    }

    @Test
    void secondRoundRunsOnlyOnThePartitionWhoseSvcMissesAnotherCtmAndRepairsTheFracturedRead() {
        LaggingStabilization s = new LaggingStabilization();
        TestCluster c = s.c;
        ClientSession reader = c.session(99);
        ReadTransaction read = reader.read(List.of(s.a, s.b));
        List<Outgoing> first = read.start();
        assertThat(first).extracting(Outgoing::partition).containsExactly(0, 1);
        assertThat(first).allMatch(o -> o.request() instanceof FirstRoundRead);
        List<ReplyBox> boxes = c.send(first);
        ReadReply fromA = boxes.get(0).read(), fromB = boxes.get(1).read();
        assertThat(values(fromA)).containsExactly("t");
        assertThat(values(fromB)).as("round one alone would be fractured").containsExactly("t0");
        assertThat(fromA.maxCommitClock()).isEqualTo(clock(2, 2, 0));
        assertThat(fromB.snapshot()).isEqualTo(clock(1, 2, 0));

        // B lists the version it left out (t, waiting for A's entry); as if it had more than it can list, the client
        // must then ask again.
        assertThat(fromB.waiting()).extracting(w -> new String(w.value(), java.nio.charset.StandardCharsets.UTF_8)).containsExactly("t");
        boxes.get(0).take();
        boxes.get(1).take();
        ReadReply incomplete = new ReadReply(fromB.requestId(), fromB.values(), fromB.snapshot(), fromB.maxCommitClock(),
                fromB.maxCommitTime(), fromB.serverTime(), List.of(), false);
        List<Outgoing> second = new ArrayList<>();
        second.addAll(read.onResponse(fromA));
        second.addAll(read.onResponse(incomplete));
        assertThat(second).hasSize(1);
        assertThat(second.get(0).partition()).as("only B is re-read").isEqualTo(1);
        SecondRoundRead r2 = (SecondRoundRead) second.get(0).request();
        assertThat(r2.clock()).isEqualTo(clock(2, 2, 0));
        assertThat(r2.keys()).containsExactly(s.b);
        assertThat(r2.firstRoundTime()).isEqualTo(fromB.serverTime());
        assertThat(read.round()).isEqualTo(2);

        ReplyBox secondBox = c.send(1, r2);
        assertThat(read.onResponse(secondBox.read())).as("never a third round").isEmpty();
        assertThat(read.succeeded()).isTrue();
        ReadTransaction.Result result = read.result();
        assertThat(result.rounds()).isEqualTo(2);
        assertThat(result.secondRoundPartitions()).isEqualTo(1);
        assertThat(result.values().keySet()).containsExactly(s.a, s.b);
        assertThat(str(result.values().get(s.a))).isEqualTo("t");
        assertThat(str(result.values().get(s.b))).isEqualTo("t");
        assertThat(reader.clock()).isEqualTo(clock(2, 2, 0));
        assertThat(c.p(0).metrics().secondRoundReads()).isZero();
        assertThat(c.p(1).metrics().secondRoundReads()).isEqualTo(1);
    }

    @Test
    void theClientTakesTheListedWaitingVersionInsteadOfASecondRoundAndTheReadIsNotFractured() {
        LaggingStabilization s = new LaggingStabilization();
        TestCluster c = s.c;
        ClientSession reader = c.session(99);
        ReadTransaction read = c.runRead(reader.read(List.of(s.a, s.b)));
        ReadTransaction.Result result = read.result();
        assertThat(result.rounds()).isEqualTo(1);
        assertThat(result.secondRoundsRuledOut()).isEqualTo(1);
        assertThat(str(result.values().get(s.a))).isEqualTo("t");
        assertThat(str(result.values().get(s.b))).as("what a round two would return").isEqualTo("t");
        assertThat(reader.clock()).isEqualTo(clock(2, 2, 0));
        assertThat(c.p(1).metrics().secondRoundReads()).isZero();
    }

    @Test
    void noSecondRoundWhenEverySnapshotCoversEveryOtherPartitionsCtm() {
        LaggingStabilization s = new LaggingStabilization();
        s.c.stabilize(0, 1);
        ReadTransaction read = s.c.runRead(s.c.session(5).read(List.of(s.b, s.a)));
        assertThat(read.result().rounds()).isEqualTo(1);
        assertThat(read.result().secondRoundPartitions()).isZero();
        assertThat(read.result().values().values()).extracting(TestCluster::str).containsExactly("t", "t");
    }

    @Test
    void clientClockAheadOfTheOwnSettledPrefixNeverRaisesSvcSelfNorRevealsUnsettledOrPendingVersions() {
        TestCluster c = new TestCluster(3);
        Key k1 = c.key(0, 0), k2 = c.key(0, 1);
        c.txn(1, k1, "pending", c.key(1, 0), "x").sendTo(0);   // sn 1, undecided
        c.writeLocal(k2, "unsettled");                          // sn 2, committed, ct [2,0,0], not settled
        Partition p = c.p(0);

        ReadReply r1 = c.read1(0, clock(7, 0, 0), k1, k2).read();
        assertThat(values(r1)).containsExactly(null, null);
        assertThat(r1.snapshot().get(0)).isZero();
        assertThat(p.snapshot().get(0)).isZero();
        assertThat(p.metrics().clockAhead()).isEqualTo(1);

        ReadReply r2 = c.read2(0, clock(7, 3, 3), c.now(), k1, k2).read();
        assertThat(values(r2)).containsExactly(null, null);
        assertThat(r2.snapshot()).as("other entries are taken from the client, our own is not").isEqualTo(clock(0, 3, 3));
        assertThat(p.snapshot().get(0)).isZero();
        assertThat(p.metrics().clockAhead()).isEqualTo(2);

        // And what the partition announces is still its own settled prefix.
        c.tick(0);
        assertThat(c.inFlight(type(Stabilize.class))).extracting(e -> ((Stabilize) e.message()).settled()).containsOnly(0L);
    }

    @Test
    void clientClockRaisesOtherPartitionsEntriesSoASessionReadsItsOwnWriteWithoutStabilization() {
        TestCluster c = new TestCluster(3);
        Key a = c.key(0, 0), b = c.key(1, 0);
        long seed = 11;
        ClientSession writer = c.session(1);
        WriteTransaction w = c.runWrite(writer.write(java.util.Map.of(a, TestCluster.bytes("mine"), b, TestCluster.bytes("mine")),
                new Random(seed)));
        assertThat(w.isConfirmed()).as("seed %d", seed).isTrue();
        assertThat(writer.clock()).isEqualTo(clock(1, 1, 0));
        // No stabilization: a client with no context sees nothing on A yet...
        assertThat(str(c.readNow(0, a))).isNull();
        // ...but the writer's clock tells each partition that the other one settled the write.
        ReadTransaction read = c.runRead(writer.read(List.of(a, b)));
        assertThat(read.result().values().values()).extracting(TestCluster::str).containsExactly("mine", "mine");
        assertThat(read.result().rounds()).isEqualTo(1);
        assertThat(c.p(0).metrics().clockAhead()).isZero();
        assertThat(c.p(1).metrics().clockAhead()).isZero();
    }

    /**
     * T1 and T2 both write a (on A=0) and b (on B=1) and get opposite sequence orders: T1 is first on A, T2 first on B.
     * Every reader must see the same one win on both partitions.
     */
    static TestCluster concurrentOverlappingWrites(TestCluster c, Key a, Key b) {
        Txn t1 = c.txn(0, a, "t1", b, "t1");
        Txn t2 = c.txn(1, a, "t2", b, "t2");
        t1.sendTo(0); // A: sn 1
        t2.sendTo(1); // B: sn 1
        t2.sendTo(0); // A: sn 2
        t1.sendTo(1); // B: sn 2
        c.deliverAll();
        c.stabilizeAll();
        return c;
    }

    @Test
    void concurrentWritesThatOverlapOnTwoPartitionsWinInTheSameOrderOnBoth() {
        TestCluster c = new TestCluster(2);
        Key a = c.key(0, 0), b = c.key(1, 0);
        concurrentOverlappingWrites(c, a, b);
        assertThat(c.disks[0].versions(a)).extracting(Version::commitClock).containsExactly(clock(2, 1), clock(1, 2));
        ReadTransaction read = c.runRead(c.session(3).read(List.of(a, b)));
        assertThat(read.result().values().values()).extracting(TestCluster::str)
                .as("equal sums, so [2,1] (T2) is newer than [1,2] (T1) on both partitions").containsExactly("t2", "t2");
        assertThat(read.result().rounds()).isEqualTo(1);
    }

    @Test
    void readsAreAnsweredAtOnceEvenWhileWritesOnTheSameKeysAreUndecided() {
        TestCluster c = new TestCluster(2);
        Key k = c.key(0, 0);
        for (int i = 0; i < 3; i++) c.txn(1, k, "p" + i, c.key(1, i), "x").sendTo(0);
        ReplyBox r1 = c.read1(0, VectorClock.zero(2), k);
        ReplyBox r2 = c.read2(0, clock(3, 3), c.now(), k);
        assertThat(r1.answered()).isTrue();
        assertThat(r2.answered()).isTrue();
        assertThat(values(r1.read())).containsExactly((String) null);
        assertThat(values(r2.read())).containsExactly((String) null);
    }
}
