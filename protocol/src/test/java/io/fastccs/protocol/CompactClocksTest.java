package io.fastccs.protocol;

import io.fastccs.protocol.partition.PartitionInternals;
import io.fastccs.protocol.TestCluster.ReplyBox;
import io.fastccs.protocol.messages.BasedClock;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.protocol.messages.CompactCommit;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.CompactReadReply;
import io.fastccs.protocol.messages.CompactWriteReply;
import io.fastccs.protocol.messages.CompactWriteRequest;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.protocol.messages.StabilizeDown;
import io.fastccs.protocol.messages.StabilizeUp;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;

import static io.fastccs.protocol.TestCluster.type;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clocks relative to a stable base between real partitions of a stabilization tree (docs/design/stable-bases.md,
 * "Clocks relative to a stable base"): the root numbers bases, every partition keeps them, compact requests are
 * expanded on them or refused, replies come back as differences, commit decisions go relative to the client's base.
 */
class CompactClocksTest {
    /** Seven partitions in a binary tree (0 above 1 and 2, 1 above 3 and 4, 2 above 5 and 6). */
    private static TestCluster tree() {
        return new TestCluster(7, TestCluster.defaultConfig().toBuilder().stabilizationFanout(2).build());
    }

    /** A millisecond later, one stabilization round: leaves first up to the root, then everything down. */
    private static void round(TestCluster c) {
        c.advanceTo(c.now() + 1_000);
        for (int p = 6; p >= 0; p--) {
            c.tick(p);
            c.deliverAll(type(StabilizeUp.class));
        }
        c.deliverAll(type(StabilizeDown.class));
    }

    @Test
    void theRootNumbersABaseEachRoundAndEveryPartitionKnowsIt() {
        TestCluster c = tree();
        round(c);
        assertThat(PartitionInternals.stableEpoch(c.p(4))).as("one base known: none named yet").isZero();
        c.writeLocal(c.key(5, 0), "x");
        round(c);
        c.writeLocal(c.key(3, 0), "y");
        round(c);
        long stable = PartitionInternals.stableEpoch(c.p(0));
        assertThat(stable).isPositive();
        for (int p = 1; p < 7; p++)
            assertThat(PartitionInternals.stableEpoch(c.p(p))).as("partition %d", p).isEqualTo(stable);
    }

    @Test
    void aClockRelativeToAnUnknownBaseIsRefusedAndNothingIsDone() {
        TestCluster c = tree();
        Key k = c.key(2, 0);
        ReplyBox box = c.send(2, new CompactFirstRoundRead(1, List.of(k), BasedClock.of(99, new int[]{}, new long[]{}), 0));
        ErrorReply e = (ErrorReply) box.only();
        assertThat(e.code()).isEqualTo(ErrorCode.BASE_UNKNOWN);
        assertThat(c.p(2).metrics().baseUnknown()).isEqualTo(1);
    }

    @Test
    void aCompactReadAnswersWhatTheFullReadAnswersAndMovesTheClientToTheBase() {
        TestCluster c = tree();
        Key k = c.key(3, 0);
        c.writeLocal(k, "v1");
        round(c);
        c.writeLocal(c.key(6, 0), "w");
        round(c);
        round(c);
        long stable = PartitionInternals.stableEpoch(c.p(3));
        long[] base = PartitionInternals.base(c.p(3), stable);
        c.writeLocal(c.key(6, 1), "mine"); // the client's own write, settled at 6 beyond the base
        // A client clock above the base in entry 6 only (its write), below it in entry 3.
        long[] entries = base.clone();
        entries[6] = c.p(6).snapshot().get(6);
        entries[3] = 0;
        VectorClock clientClock = VectorClock.of(entries);
        ReadReply full = c.read1(3, clientClock, k).read();
        BitSet named = new BitSet();
        for (int p = 0; p < 7; p++) if (clientClock.get(p) != 0) named.set(p);
        // Relative to epoch 0 (every non-zero entry named) with a request to move to the stable base.
        var compact = (CompactFirstRoundRead) ClockCompaction.compact(
                new io.fastccs.protocol.messages.FirstRoundRead(9, List.of(k), clientClock), 0, named, stable);
        ClientResponse answer = c.send(3, compact).only();
        assertThat(answer).isInstanceOf(CompactReadReply.class);
        CompactReadReply r = (CompactReadReply) answer;
        ReadReply back = (ReadReply) ClockCompaction.expand(r, clientClock);
        assertThat(TestCluster.str(back.values().get(0))).isEqualTo(TestCluster.str(full.values().get(0)));
        assertThat(back.maxCommitClock()).isEqualTo(full.maxCommitClock().max(clientClock));
        assertThat(back.snapshot().get(3)).isEqualTo(full.snapshot().get(3));
        assertThat(r.shows()).isEqualTo(Math.max(full.snapshot().get(3), full.maxCommitClock().get(3)));
        // The move: the clock raised to the base, naming only what is above it.
        assertThat(r.rebase().epoch()).isEqualTo(stable);
        VectorClock lifted = r.rebase().lift().applyTo(clientClock);
        assertThat(lifted).isEqualTo(clientClock.max(VectorClock.of(base)));
        for (int p = 0; p < 7; p++)
            assertThat(r.rebase().explicit().contains(p)).as("entry %d", p).isEqualTo(clientClock.get(p) > base[p]);
    }

    @Test
    void aCommitGoesRelativeToTheClientsBase() {
        TestCluster c = tree();
        for (int i = 0; i < 3; i++) {
            c.writeLocal(c.key(i, 0), "x");
            round(c);
        }
        long stable = PartitionInternals.stableEpoch(c.p(4));
        assertThat(stable).isPositive();
        long[] base = PartitionInternals.base(c.p(4), stable);
        VectorClock clientClock = VectorClock.of(base);
        c.writeLocal(c.key(6, 0), "y");
        round(c);
        round(c);
        assertThat(PartitionInternals.stableEpoch(c.p(4))).as("the coordinator knows a newer base than its client")
                .isGreaterThan(stable);
        Key a = c.key(4, 1), b = c.key(5, 1);
        TxnId id = c.newTxnId();
        List<Integer> participants = List.of(4, 5);
        BasedClock named = BasedClock.of(stable, new int[]{}, new long[]{});
        ReplyBox at4 = c.send(4, new CompactWriteRequest(1, id, 4, participants,
                List.of(new KeyValue(a, "t".getBytes())), named, 0));
        ReplyBox at5 = c.send(5, new CompactWriteRequest(2, id, 4, participants,
                List.of(new KeyValue(b, "t".getBytes())), named, 0));
        c.deliverAll(type(Prepared.class));
        assertThat(c.inFlight).as("the decision, relative to the client's base").extracting(TestCluster.Envelope::message)
                .singleElement().isInstanceOfSatisfying(CompactCommit.class,
                        m -> assertThat(m.commitClock().epoch()).isEqualTo(stable));
        c.deliverAll(TestCluster.about(id));
        WriteReply w4 = (WriteReply) ClockCompaction.expand(at4.only(), clientClock);
        WriteReply w5 = (WriteReply) ClockCompaction.expand(at5.only(), clientClock);
        assertThat(w4.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(w5).isEqualTo(new WriteReply(2, id, Outcome.COMMITTED, w4.commitClock(), w4.commitTime()));
        assertThat(at4.only()).isInstanceOf(CompactWriteReply.class);
        assertThat(((CompactWriteReply) at4.only()).commitClock().size()).as("the participants' entries only").isEqualTo(2);
    }

    @Test
    void aCompactCommitAParticipantCannotExpandIsDroppedAndTheOutcomeAskedFor() {
        TestCluster c = tree();
        Key b = c.key(5, 1);
        TxnId id = c.newTxnId();
        var cw = new io.fastccs.protocol.messages.WriteRequest(1, id, 4, List.of(4, 5),
                List.of(new KeyValue(b, "t".getBytes())), VectorClock.zero(7), 0);
        c.send(5, cw);
        c.p(5).onPeerMessage(4, new CompactCommit(id, BasedClock.of(123, new int[]{4}, new long[]{1}), 5));
        assertThat(c.p(5).metrics().commitsUnexpanded()).isEqualTo(1);
        assertThat(c.p(5).pendingCount()).as("still waiting for the outcome").isEqualTo(1);
        assertThat(c.inFlight(type(CheckCommit.class))).as("asks the coordinator at once")
                .containsExactly(new TestCluster.Envelope(5, 4, new CheckCommit(id, 5)));
    }
}
