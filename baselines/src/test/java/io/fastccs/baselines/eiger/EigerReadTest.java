package io.fastccs.baselines.eiger;

import io.fastccs.baselines.eiger.EigerMessages.CheckTxn;
import io.fastccs.baselines.eiger.EigerMessages.CheckTxnReply;
import io.fastccs.baselines.eiger.EigerMessages.Commit;
import io.fastccs.baselines.eiger.EigerMessages.Read1;
import io.fastccs.baselines.eiger.EigerMessages.ReadAt;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.spi.ReadResult;
import io.fastccs.core.spi.ReadStep;
import io.fastccs.core.spi.WriteStep;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.fastccs.baselines.eiger.EigerTestCluster.FIRST;
import static io.fastccs.baselines.eiger.EigerTestCluster.key;
import static io.fastccs.baselines.eiger.EigerTestCluster.peer;
import static io.fastccs.baselines.eiger.EigerTestCluster.request;
import static org.assertj.core.api.Assertions.assertThat;

class EigerReadTest {
    static final Key A = key("0:a");
    static final Key B = key("1:b");

    static byte[] v(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String str(ReadValue rv) {
        return rv.value() == null ? null : new String(rv.value(), StandardCharsets.UTF_8);
    }

    static Map<Key, byte[]> writes(String a, String b) {
        Map<Key, byte[]> w = new LinkedHashMap<>();
        w.put(A, v(a));
        w.put(B, v(b));
        return w;
    }

    /** Writes A and B together and lets it finish. */
    static WriteStep writeBoth(EigerTestCluster c, EigerSession s, String a, String b) {
        WriteStep w = c.startWrite(s, writes(a, b), FIRST);
        c.deliverAll();
        assertThat(w.isConfirmed()).isTrue();
        return w;
    }

    @Test
    void readWithoutConcurrentWritesTakesOneRound() {
        EigerTestCluster c = new EigerTestCluster(2);
        EigerSession writer = c.session(1), reader = c.session(2);
        ReadStep empty = c.startRead(reader, List.of(A, B));
        c.deliverAll();
        assertThat(empty.result().rounds()).isEqualTo(1);
        assertThat(empty.result().values().get(A)).isEqualTo(new ReadValue(A, null, 0));

        WriteStep w = writeBoth(c, writer, "a1", "b1");
        ReadStep r = c.startRead(reader, List.of(A, B));
        c.deliverAll();
        ReadResult res = r.result();
        assertThat(res.rounds()).isEqualTo(1);
        assertThat(res.secondRoundPartitions()).isZero();
        assertThat(str(res.values().get(A))).isEqualTo("a1");
        assertThat(str(res.values().get(B))).isEqualTo("b1");
        assertThat(res.values().get(A).sequence()).isEqualTo(w.commitStamp());
        assertThat(res.values().get(B).sequence()).isEqualTo(w.commitStamp());
    }

    /**
     * A reads old at partition 0, then a 2-key write commits everywhere, then partition 1 answers with the new B: the
     * intervals do not overlap, so a second round at partition 0 returns the new A.
     */
    @Test
    void writeCommittingBetweenRoundOneAnswersForcesSecondRound() {
        for (Set<EigerBug> bugs : List.of(Set.<EigerBug>of(), Set.of(EigerBug.FIRST_ROUND_ONLY))) {
            EigerTestCluster c = new EigerTestCluster(2, PartitionConfig.defaults(), bugs);
            EigerSession writer = c.session(1), reader = c.session(2);
            writeBoth(c, writer, "a1", "b1");
            ReadStep r = c.startRead(reader, List.of(A, B));
            c.deliverFirst(request(Read1.class, 0));
            WriteStep w2 = c.startWrite(writer, writes("a2", "b2"), FIRST);
            c.deliverAll(e -> !(e instanceof EigerTestCluster.Request q && q.request() instanceof Read1 && q.partition() == 1)
                    && !(e instanceof EigerTestCluster.Response));
            assertThat(w2.isFinished()).isFalse(); // its reply is still in flight, but it committed at both partitions
            c.deliverAll();
            assertThat(w2.isConfirmed()).isTrue();
            ReadResult res = r.result();
            if (bugs.isEmpty()) {
                assertThat(res.rounds()).isEqualTo(2);
                assertThat(res.secondRoundPartitions()).isEqualTo(1);
                assertThat(str(res.values().get(A))).isEqualTo("a2");
                assertThat(str(res.values().get(B))).isEqualTo("b2");
            } else {
                // the broken client keeps a fractured read: old A, new B
                assertThat(res.rounds()).isEqualTo(1);
                assertThat(str(res.values().get(A))).isEqualTo("a1");
                assertThat(str(res.values().get(B))).isEqualTo("b2");
            }
        }
    }

    /**
     * Partition 0 coordinates and commits; partition 1's Commit is delayed, so B is still pending there. The reader sees
     * the new A, so round two reads B at a time covered by the pending mark: partition 1 asks the coordinator (third
     * round) and returns the committed B.
     */
    @Test
    void pendingWriteAtReadTimeMakesTheCohortAskTheCoordinator() {
        for (Set<EigerBug> bugs : List.of(Set.<EigerBug>of(), Set.of(EigerBug.IGNORE_PENDING))) {
            EigerTestCluster c = new EigerTestCluster(2, PartitionConfig.defaults(), bugs);
            EigerSession writer = c.session(1), reader = c.session(2);
            writeBoth(c, writer, "a1", "b1");
            WriteStep w2 = c.startWrite(writer, writes("a2", "b2"), FIRST);
            c.deliverAll(e -> !peer(Commit.class).test(e));
            assertThat(w2.isConfirmed()).isTrue();

            ReadStep r = c.startRead(reader, List.of(A, B));
            c.deliverAll(e -> !peer(Commit.class).test(e) && !peer(CheckTxn.class).test(e));
            if (!bugs.isEmpty()) {
                ReadResult res = r.result();
                assertThat(res.rounds()).isEqualTo(2);
                assertThat(str(res.values().get(A))).isEqualTo("a2");
                assertThat(str(res.values().get(B))).isEqualTo("b1"); // fractured
                continue;
            }
            assertThat(r.isFinished()).isFalse();
            assertThat(c.partitions[1].metrics().thirdRounds()).isEqualTo(1);
            c.deliverFirst(peer(CheckTxn.class));
            c.deliverFirst(peer(CheckTxnReply.class));
            c.deliverAll(e -> !peer(Commit.class).test(e));
            ReadResult res = r.result();
            assertThat(res.rounds()).isEqualTo(3);
            assertThat(res.secondRoundPartitions()).isEqualTo(1);
            assertThat(str(res.values().get(A))).isEqualTo("a2");
            assertThat(str(res.values().get(B))).isEqualTo("b2");
            assertThat(res.values().get(B).sequence()).isEqualTo(w2.commitStamp());
            c.deliverAll(); // the late Commit is harmless
            ReadStep again = c.startRead(reader, List.of(B));
            c.deliverAll();
            assertThat(str(again.result().values().get(B))).isEqualTo("b2");
        }
    }

    /**
     * Two transactions commit at the same Lamport time 14: X coordinated by partition 0 (A there, B at partition 1) and Y
     * coordinated by partition 2 (A and B as a cohort); Y's stamp wins (its coordinator is higher). Partition 0 has X's
     * A and still holds Y pending (marked at time 2, its Commit on the way); partition 1 has both. X's A must not count
     * as valid at 14, else round one returns X's A with Y's B.
     */
    @Test
    void pendingWriteThatMayCommitAtTheSameTimeWithAHigherStampIsWaitedFor() {
        EigerTestCluster c = new EigerTestCluster(3);
        Key y = key("2:y");
        io.fastccs.core.primitives.TxnId x = new io.fastccs.core.primitives.TxnId(1, 1);
        io.fastccs.core.primitives.TxnId yId = new io.fastccs.core.primitives.TxnId(2, 1);
        List<io.fastccs.core.messages.ClientResponse> replies = new java.util.ArrayList<>();
        java.util.function.Consumer<io.fastccs.core.messages.ClientResponse> keep = replies::add;
        java.util.function.Function<String, List<io.fastccs.core.messages.KeyValue>> kv =
                s -> List.of(new io.fastccs.core.messages.KeyValue(s.startsWith("a") ? A : B, v(s)));
        // Y's cohorts mark it pending at time 2; X's cohort (partition 1) at 4.
        c.submit(new io.fastccs.core.Outgoing(0, new EigerMessages.CohortWrite(1, 0, yId, 2, y, kv.apply("aY"))), keep);
        c.submit(new io.fastccs.core.Outgoing(1, new EigerMessages.CohortWrite(2, 0, yId, 2, y, kv.apply("bY"))), keep);
        c.submit(new io.fastccs.core.Outgoing(1, new EigerMessages.CohortWrite(3, 0, x, 0, A, kv.apply("bX"))), keep);
        c.deliverAll(e -> e instanceof EigerTestCluster.Request);
        // The coordinators get the requests, at clocks chosen so that both commit at 14.
        c.submit(new io.fastccs.core.Outgoing(2, new EigerMessages.CoordWrite(4, 10, yId, y,
                List.of(new io.fastccs.core.messages.KeyValue(y, v("yY"))), List.of(0, 1, 2), List.of())), keep);
        c.submit(new io.fastccs.core.Outgoing(0, new EigerMessages.CoordWrite(5, 11, x, A, kv.apply("aX"), List.of(0, 1), List.of())), keep);
        c.deliverAll(e -> e instanceof EigerTestCluster.Request);
        // Every vote arrives; every Commit but Y's to partition 0.
        java.util.function.Predicate<EigerTestCluster.Envelope> yCommitToA = e -> e instanceof EigerTestCluster.Peer p
                && p.to() == 0 && p.message() instanceof Commit m && m.txnId().equals(yId);
        c.deliverAll(e -> !yCommitToA.test(e) && !peer(CheckTxn.class).test(e));
        List<Long> stamps = new java.util.ArrayList<>();
        for (io.fastccs.core.messages.ClientResponse r : replies)
            if (r instanceof EigerMessages.WriteReply w) stamps.add(w.stamp());
        assertThat(stamps).containsExactlyInAnyOrder(Stamps.stamp(14, 0), Stamps.stamp(14, 2));

        ReadStep r = c.startRead(c.session(9), List.of(A, B));
        c.deliverAll(e -> !yCommitToA.test(e));
        ReadResult res = r.result();
        assertThat(str(res.values().get(B))).isEqualTo("bY");
        assertThat(str(res.values().get(A))).isEqualTo("aY");
        assertThat(res.rounds()).isEqualTo(3); // round two at partition 0 asked Y's coordinator
    }

    /** The writer reads its own write at a cohort that has not received the Commit yet. */
    @Test
    void sessionReadsItsOwnWriteBeforeTheCohortKnowsItCommitted() {
        EigerTestCluster c = new EigerTestCluster(2);
        EigerSession writer = c.session(1);
        writeBoth(c, writer, "a1", "b1");
        WriteStep w2 = c.startWrite(writer, writes("a2", "b2"), FIRST);
        c.deliverAll(e -> !peer(Commit.class).test(e));
        assertThat(w2.isConfirmed()).isTrue();
        ReadStep r = c.startRead(writer, List.of(B));
        c.deliverAll(e -> !peer(Commit.class).test(e));
        assertThat(str(r.result().values().get(B))).isEqualTo("b2");
        assertThat(r.result().rounds()).isEqualTo(3);
        assertThat(c.partitions[1].metrics().thirdRounds()).isEqualTo(1);
    }

    @Test
    void roundTwoReadOfAKeyWithNoVersionReturnsAbsent() {
        EigerTestCluster c = new EigerTestCluster(2);
        List<EigerMessages.ReadReply> seen = new java.util.ArrayList<>();
        c.partitions[0].onClientRequest(resp -> seen.add((EigerMessages.ReadReply) resp), new ReadAt(7, 0, List.of(A), 5));
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0).requestId()).isEqualTo(7);
        assertThat(seen.get(0).values().get(0).value()).isNull();
        assertThat(seen.get(0).values().get(0).version()).isZero();
    }
}
