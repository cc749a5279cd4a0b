package io.fastccs.protocol;

import io.fastccs.core.Outgoing;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.spi.PartitionAnswer;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.protocol.messages.WaitingVersion;
import io.fastccs.protocol.messages.SecondRoundRead;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.fastccs.protocol.TestCluster.bytes;
import static io.fastccs.protocol.TestCluster.clock;
import static io.fastccs.protocol.TestCluster.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The client's read step machine (algorithm 1, lines 2-19), fed with hand-made replies. */
class ReadTransactionTest {
    private final TestCluster c = new TestCluster(3); // only for its topology, keys and request ids
    private final Key a0 = c.key(0, 0), a1 = c.key(0, 1), b = c.key(1, 0), d = c.key(2, 0);

    /** A reply to {@code request} giving each of its keys the value "<key>@<sequence>" (sequence 0 = absent). */
    private static ReadReply reply(Outgoing request, VectorClock snapshot, VectorClock ctm, long serverTime, long... sequences) {
        return reply(request, snapshot, ctm, serverTime, false, sequences);
    }

    /** As above, the partition saying whether it listed every version it left out within its own entry (none here). */
    private static ReadReply reply(Outgoing request, VectorClock snapshot, VectorClock ctm, long serverTime, boolean complete,
                                   long... sequences) {
        List<Key> keys = request.request() instanceof FirstRoundRead f ? f.keys() : ((SecondRoundRead) request.request()).keys();
        List<ReadValue> values = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            long s = i < sequences.length ? sequences[i] : 0;
            values.add(new ReadValue(keys.get(i), s == 0 ? null : bytes(keys.get(i) + "@" + s), s));
        }
        return new ReadReply(request.request().requestId(), values, snapshot, ctm, 0, serverTime, List.of(), complete);
    }

    /**
     * A read of a0 (partition 0) and b (partition 1). Partition 0 returns a version depending on partition 2 beyond what
     * partition 1's snapshot (4, 3, 5) covers, with {@code ownEntry} as its commit clock's entry for partition 1;
     * partition 1 answers b at sequence 2, listing {@code waiting} as left out and saying whether that list is
     * {@code complete}. Returns what the read sends next.
     */
    private List<Outgoing> readWhereOnePartitionFailsThePairwiseCheck(ReadTransaction read, long ownEntry, boolean complete,
                                                                     WaitingVersion... waiting) {
        List<Outgoing> out = read.start();
        assertThat(read.onResponse(reply(to(out, 0), clock(4, 3, 7), clock(4, ownEntry, 7), 0, true, 4))).isEmpty();
        Outgoing toB = to(out, 1);
        ReadReply b1 = new ReadReply(toB.request().requestId(), List.of(new ReadValue(b, bytes(b + "@2"), 2)),
                clock(4, 3, 5), clock(0, 2, 0), 0, 0, List.of(waiting), complete);
        return read.onResponse(b1);
    }

    @Test
    void aPartitionThatLeftNothingOutWithinItsOwnEntryIsNotReadAgain() {
        ReadTransaction read = c.session(1).read(List.of(a0, b));
        assertThat(readWhereOnePartitionFailsThePairwiseCheck(read, 2, true))
                .as("partition 1's answer cannot change at the merged clock").isEmpty();
        assertThat(read.succeeded()).isTrue();
        assertThat(read.result().rounds()).isEqualTo(1);
        assertThat(read.result().secondRoundsRuledOut()).isEqualTo(1);
        assertThat(read.result().values().get(b).sequence()).isEqualTo(2);
    }

    @Test
    void aListedWaitingVersionThatTheMergedClockCoversIsWhatTheReadReturns() {
        // The merged clock is (4, 2, 7). Partition 1 returned b at sequence 2 and listed two newer versions that wait
        // for partition 2's entry (beyond its 5): b@3 needs partition 1's entry 3 (beyond the merged 2), b@1 (a later
        // commit time than b@2, so newer) needs (1, 1, 6), which the merged clock covers. A round two would return b@1.
        ClientSession s = c.session(1);
        ReadTransaction read = s.read(List.of(a0, b));
        WaitingVersion tooNew = new WaitingVersion(b, bytes("b@3"), 3, clock(0, 3, 8), 900);
        WaitingVersion covered = new WaitingVersion(b, bytes("b@1x"), 1, clock(1, 1, 6), 800);
        assertThat(readWhereOnePartitionFailsThePairwiseCheck(read, 2, true, tooNew, covered)).isEmpty();
        assertThat(read.result().rounds()).isEqualTo(1);
        assertThat(read.result().secondRoundsRuledOut()).isEqualTo(1);
        assertThat(str(read.result().values().get(b))).as("the newest listed version within the merged clock").isEqualTo("b@1x");
        assertThat(s.time()).as("the session's dependency time covers the version it read").isEqualTo(800);
    }

    @Test
    void aListedWaitingVersionBeyondTheMergedClockIsNotReturned() {
        ReadTransaction read = c.session(1).read(List.of(a0, b));
        WaitingVersion tooNew = new WaitingVersion(b, bytes("b@3"), 3, clock(0, 3, 8), 900);
        assertThat(readWhereOnePartitionFailsThePairwiseCheck(read, 2, true, tooNew)).isEmpty();
        assertThat(str(read.result().values().get(b))).isEqualTo(b + "@2");
    }

    @Test
    void aPartitionThatLeftAVersionOutWithinItsOwnEntryIsReadAgain() {
        ReadTransaction read = c.session(1).read(List.of(a0, b));
        List<Outgoing> next = readWhereOnePartitionFailsThePairwiseCheck(read, 2, false);
        assertThat(next).extracting(Outgoing::partition).containsExactly(1);
        assertThat(next.get(0).request()).isInstanceOf(SecondRoundRead.class);
    }

    @Test
    void aPartitionIsReadAgainWhenTheMergedClockGoesBeyondItsOwnEntry() {
        // The other version's transaction also wrote at partition 1, at sequence 4: beyond its snapshot's entry (3).
        ReadTransaction read = c.session(1).read(List.of(a0, b));
        List<Outgoing> next = readWhereOnePartitionFailsThePairwiseCheck(read, 4, true);
        assertThat(next).extracting(Outgoing::partition).containsExactly(1);
        assertThat(read.isFinished()).isFalse();
    }

    @Test
    void eachPartitionsAnswerNamesTheClockItReadAtAndItsRoundOneTime() {
        ReadTransaction read = c.session(1).read(List.of(a0, b));
        List<Outgoing> out = read.start();
        read.onResponse(reply(to(out, 0), clock(5, 3, 5), clock(4, 3, 0), 100, 4));
        List<Outgoing> again = read.onResponse(reply(to(out, 1), clock(2, 3, 5), clock(0, 2, 0), 200, 2));
        assertThat(again).extracting(Outgoing::partition).containsExactly(1); // its snapshot misses a0's (4, 3, 0)
        read.onResponse(reply(again.get(0), clock(4, 3, 5), clock(4, 3, 0), 300, 3));
        List<PartitionAnswer> answers = read.result().answers();
        assertThat(answers).containsExactlyInAnyOrder(
                new PartitionAnswer(0, List.of(read.result().values().get(a0)), clock(5, 3, 5), clock(4, 3, 0), 0, 100),
                // round two at the merged clock (4, 3, 0), its own entry no higher than the answer's snapshot
                new PartitionAnswer(1, List.of(read.result().values().get(b)), clock(4, 3, 0), clock(4, 3, 0), 0, 200));
    }

    @Test
    void cachedAnswersThatFitTheMergedClockAreServedAndRoundOneCarriesTheirClocks() {
        ReadValue cachedB = new ReadValue(b, bytes("b@2"), 2);
        ReadTransaction read = c.session(1).read(List.of(a0, b),
                List.of(new PartitionAnswer(1, List.of(cachedB), clock(5, 5, 5), clock(1, 2, 0), 3, 70)));
        List<Outgoing> out = read.start();
        assertThat(out).extracting(Outgoing::partition).containsExactly(0);
        assertThat(((FirstRoundRead) out.get(0).request()).clock()).isEqualTo(clock(1, 2, 0));
        assertThat(read.onResponse(reply(out.get(0), clock(5, 5, 5), clock(3, 1, 0), 100, 3))).isEmpty();
        assertThat(read.result().rounds()).isEqualTo(1);
        assertThat(read.result().values().get(b)).isEqualTo(cachedB);
        assertThat(read.result().answers()).extracting(PartitionAnswer::partition).containsExactly(0);
    }

    @Test
    void aCachedAnswerThatAFetchedVersionOutgrewIsReadAgainWithItsRoundOneTime() {
        ReadTransaction read = c.session(1).read(List.of(a0, b),
                List.of(new PartitionAnswer(1, List.of(new ReadValue(b, bytes("b@2"), 2)), clock(1, 2, 0), clock(1, 2, 0), 3, 70)));
        List<Outgoing> out = read.start();
        // a0's version depends on b's partition at sequence 4, beyond what the cached b was known newest up to
        List<Outgoing> again = read.onResponse(reply(out.get(0), clock(5, 5, 5), clock(3, 4, 0), 100, 3));
        assertThat(again).extracting(Outgoing::partition).containsExactly(1);
        SecondRoundRead r2 = (SecondRoundRead) again.get(0).request();
        assertThat(r2.keys()).containsExactly(b);
        assertThat(r2.clock()).isEqualTo(clock(3, 4, 0));
        assertThat(r2.firstRoundTime()).isEqualTo(70);
        read.onResponse(reply(again.get(0), clock(3, 5, 5), clock(3, 4, 0), 200, 4));
        assertThat(read.result().rounds()).isEqualTo(2);
        assertThat(str(read.result().values().get(b))).isEqualTo(b + "@4");
        assertThat(read.result().answers()).contains(new PartitionAnswer(1, List.of(read.result().values().get(b)),
                clock(3, 4, 0), clock(3, 4, 0), 0, 70));
    }

    @Test
    void cachedAnswersOnAPartitionReadAnywayAreRefused() {
        assertThatThrownBy(() -> c.session(1).read(List.of(a0, a1),
                List.of(new PartitionAnswer(0, List.of(new ReadValue(a1, null, 0)), clock(1, 1, 1), clock(0, 0, 0), 0, 0))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static Outgoing to(List<Outgoing> out, int partition) {
        return out.stream().filter(o -> o.partition() == partition).findFirst().orElseThrow();
    }

    @Test
    void firstRoundSendsEachPartitionItsKeysAndTheSessionClock() {
        ClientSession s = c.session(1, clock(4, 5, 6));
        ReadTransaction read = s.read(List.of(d, a0, b, a1));
        List<Outgoing> out = read.start();
        assertThat(read.partitions()).containsExactly(0, 1, 2);
        assertThat(out).extracting(Outgoing::partition).containsExactly(0, 1, 2);
        assertThat(((FirstRoundRead) to(out, 0).request()).keys()).containsExactly(a0, a1);
        assertThat(((FirstRoundRead) to(out, 1).request()).keys()).containsExactly(b);
        assertThat(out).allMatch(o -> ((FirstRoundRead) o.request()).clock().equals(clock(4, 5, 6)));
        assertThat(out).extracting(o -> o.request().requestId()).doesNotHaveDuplicates();
        assertThatThrownBy(read::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void resultKeepsTheOrderTheKeysWereGivenInAndReportsOneRound() {
        ClientSession s = c.session(1);
        ReadTransaction read = s.read(List.of(d, a1, b, a0, d)); // a duplicate key is read once
        List<Outgoing> out = read.start();
        assertThat(((FirstRoundRead) to(out, 2).request()).keys()).containsExactly(d);
        VectorClock svc = clock(3, 3, 3);
        assertThat(read.onResponse(reply(to(out, 1), svc, clock(0, 2, 0), 1, 2))).isEmpty();
        assertThat(read.onResponse(reply(to(out, 2), svc, clock(0, 0, 0), 1))).isEmpty();
        assertThat(read.isFinished()).isFalse();
        assertThat(read.onResponse(reply(to(out, 0), svc, clock(3, 0, 0), 1, 3, 1))).isEmpty();
        assertThat(read.succeeded()).isTrue();
        ReadTransaction.Result r = read.result();
        assertThat(r.rounds()).isEqualTo(1);
        assertThat(r.secondRoundPartitions()).isZero();
        assertThat(r.values().keySet()).containsExactly(d, a1, b, a0);
        assertThat(r.values().get(a1).sequence()).isEqualTo(3);
        assertThat(r.values().get(a0).sequence()).isEqualTo(1);
        assertThat(str(r.values().get(d))).isNull();
        assertThat(s.clock()).as("session adopts the max ctm").isEqualTo(clock(3, 2, 0));
    }

    @Test
    void responsesWithUnknownRequestIdsAreIgnored() {
        ClientSession s = c.session(1);
        ReadTransaction read = s.read(List.of(a0, b));
        List<Outgoing> out = read.start();
        VectorClock svc = clock(1, 1, 0);
        ReadReply stranger = new ReadReply(9_999, List.of(new ReadValue(a0, bytes("x"), 1)), svc, svc, 0, 0, List.of(), false);
        assertThat(read.onResponse(stranger)).isEmpty();
        assertThat(read.onResponse(ErrorReply.of(9_998, ErrorCode.INTERNAL, "not yours"))).isEmpty();
        assertThat(read.isFinished()).isFalse();
        read.onResponse(reply(to(out, 0), svc, clock(1, 0, 0), 0, 1));
        read.onResponse(reply(to(out, 1), svc, clock(0, 1, 0), 0, 1));
        assertThat(read.succeeded()).isTrue();
        assertThat(read.result().values().get(a0).sequence()).isEqualTo(1);
    }

    @Test
    void duplicateResponsesAreIgnored() {
        ClientSession s = c.session(1);
        ReadTransaction read = s.read(List.of(a0, b));
        List<Outgoing> out = read.start();
        VectorClock svc = clock(5, 5, 0);
        assertThat(read.onResponse(reply(to(out, 0), svc, clock(1, 0, 0), 0, 1))).isEmpty();
        assertThat(read.onResponse(reply(to(out, 0), svc, clock(5, 0, 0), 0, 5))).as("a second answer to the same request").isEmpty();
        assertThat(read.isFinished()).as("a duplicate does not count as the other partition's answer").isFalse();
        read.onResponse(reply(to(out, 1), svc, clock(0, 1, 0), 0, 1));
        assertThat(read.result().values().get(a0).sequence()).as("the first answer counts").isEqualTo(1);
        // Duplicates after the end change nothing either.
        assertThat(read.onResponse(reply(to(out, 1), svc, clock(0, 5, 0), 0, 5))).isEmpty();
        assertThat(read.result().values().get(b).sequence()).isEqualTo(1);
    }

    @Test
    void errorReplyFailsTheReadAndLeavesTheSessionClockAlone() {
        ClientSession s = c.session(1);
        ReadTransaction read = s.read(List.of(a0, b));
        List<Outgoing> out = read.start();
        read.onResponse(reply(to(out, 1), clock(0, 4, 0), clock(0, 4, 0), 0, 4));
        ErrorReply e = new ErrorReply(to(out, 0).request().requestId(), ErrorCode.NOT_OWNER, "moved", 2);
        assertThat(read.onResponse(e)).isEmpty();
        assertThat(read.isFinished()).isTrue();
        assertThat(read.succeeded()).isFalse();
        assertThat(read.failure()).isEqualTo(e);
        assertThatThrownBy(read::result).isInstanceOf(IllegalStateException.class);
        assertThat(s.clock()).isEqualTo(VectorClock.zero(3));
    }

    @Test
    void errorReplyInRoundTwoFailsTheRead() {
        ClientSession s = c.session(1);
        ReadTransaction read = s.read(List.of(a0, b));
        List<Outgoing> out = read.start();
        read.onResponse(reply(to(out, 0), clock(2, 2, 0), clock(2, 2, 0), 0, 2));
        List<Outgoing> second = read.onResponse(reply(to(out, 1), clock(1, 2, 0), clock(1, 1, 0), 7, 1));
        assertThat(second).hasSize(1);
        ErrorReply e = ErrorReply.of(second.get(0).request().requestId(), ErrorCode.SNAPSHOT_EXPIRED, "late");
        read.onResponse(e);
        assertThat(read.isFinished()).isTrue();
        assertThat(read.succeeded()).isFalse();
        assertThat(read.failure().code()).isEqualTo(ErrorCode.SNAPSHOT_EXPIRED);
    }

    @Test
    void secondRoundGoesOnlyToPartitionsWhoseSnapshotMissesAnotherPartitionsCtmAtTheMergedClock() {
        ClientSession s = c.session(1, clock(0, 0, 1));
        ReadTransaction read = s.read(List.of(a0, b, d));
        List<Outgoing> out = read.start();
        // ctm_A = [2,2,0] is not within B's snapshot [1,2,1] nor C's [1,1,1]; A's snapshot covers every ctm.
        read.onResponse(reply(to(out, 0), clock(2, 2, 1), clock(2, 2, 0), 10, 2));
        read.onResponse(reply(to(out, 1), clock(1, 2, 1), clock(1, 1, 0), 11, 1));
        List<Outgoing> second = read.onResponse(reply(to(out, 2), clock(1, 1, 1), clock(0, 0, 1), 12, 1));
        assertThat(second).extracting(Outgoing::partition).containsExactly(1, 2);
        for (Outgoing o : second) {
            SecondRoundRead r2 = (SecondRoundRead) o.request();
            assertThat(r2.clock()).isEqualTo(clock(2, 2, 1));
            assertThat(r2.firstRoundTime()).isEqualTo(10 + o.partition());
        }
        assertThat(read.round()).isEqualTo(2);
        read.onResponse(reply(to(second, 2), clock(2, 2, 1), clock(0, 0, 1), 20, 1));
        assertThat(read.isFinished()).isFalse();
        read.onResponse(reply(to(second, 1), clock(2, 2, 1), clock(2, 2, 0), 21, 2));
        ReadTransaction.Result r = read.result();
        assertThat(r.rounds()).isEqualTo(2);
        assertThat(r.secondRoundPartitions()).isEqualTo(2);
        assertThat(r.values().get(a0).sequence()).isEqualTo(2);
        assertThat(r.values().get(b).sequence()).as("round two's answer replaces round one's").isEqualTo(2);
        assertThat(s.clock()).isEqualTo(clock(2, 2, 1));
    }

    @Test
    void pairwiseCheckComparesWholeVectorsIncludingPartitionsOutsideTheRead() {
        ClientSession s = c.session(1);
        ReadTransaction read = s.read(List.of(a0, b));
        List<Outgoing> out = read.start();
        // A returned a version of a transaction that also wrote on partition 2, which B's snapshot has not reached.
        read.onResponse(reply(to(out, 0), clock(3, 3, 3), clock(1, 0, 1), 0, 1));
        List<Outgoing> second = read.onResponse(reply(to(out, 1), clock(3, 3, 0), clock(0, 0, 0), 0));
        assertThat(second).extracting(Outgoing::partition).containsExactly(1);
        assertThat(((SecondRoundRead) second.get(0).request()).clock()).isEqualTo(clock(1, 0, 1));
    }

    @Test
    void neverAThirdRoundEvenIfRoundTwoSnapshotsStillDoNotCoverEachOther() {
        ClientSession s = c.session(1);
        ReadTransaction read = s.read(List.of(a0, b));
        List<Outgoing> out = read.start();
        read.onResponse(reply(to(out, 0), clock(1, 0, 0), clock(1, 1, 0), 0, 1));
        List<Outgoing> second = read.onResponse(reply(to(out, 1), clock(0, 1, 0), clock(1, 1, 0), 0, 1));
        assertThat(second).extracting(Outgoing::partition).containsExactly(0, 1);
        assertThat(read.onResponse(reply(to(second, 0), clock(1, 0, 0), clock(1, 1, 0), 0, 1))).isEmpty();
        assertThat(read.onResponse(reply(to(second, 1), clock(0, 1, 0), clock(1, 1, 0), 0, 1))).isEmpty();
        assertThat(read.isFinished()).isTrue();
        assertThat(read.result().rounds()).isEqualTo(2);
    }

    @Test
    void replyWithTheWrongNumberOfValuesFailsTheRead() {
        ClientSession s = c.session(1);
        ReadTransaction read = s.read(List.of(a0, a1));
        List<Outgoing> out = read.start();
        ReadReply shortReply = new ReadReply(out.get(0).request().requestId(), List.of(new ReadValue(a0, null, 0)),
                VectorClock.zero(3), VectorClock.zero(3), 0, 0, List.of(), false);
        read.onResponse(shortReply);
        assertThat(read.isFinished()).isTrue();
        assertThat(read.succeeded()).isFalse();
        assertThat(read.failure().code()).isEqualTo(ErrorCode.INTERNAL);
    }

    @Test
    void replyWithASnapshotOfTheWrongSizeFailsTheRead() {
        ClientSession s = c.session(1);
        ReadTransaction read = s.read(List.of(a0));
        List<Outgoing> out = read.start();
        read.onResponse(reply(out.get(0), VectorClock.zero(2), VectorClock.zero(3), 0));
        assertThat(read.failure().code()).isEqualTo(ErrorCode.INTERNAL);
    }

    @Test
    void replyWithAMaxCommitClockOfTheWrongSizeFailsTheReadInsteadOfThrowing() {
        ClientSession s = c.session(1);
        ReadTransaction read = s.read(List.of(a0));
        List<Outgoing> out = read.start();
        read.onResponse(reply(out.get(0), VectorClock.zero(3), VectorClock.zero(2), 0));
        assertThat(read.isFinished()).isTrue();
        assertThat(read.failure().code()).isEqualTo(ErrorCode.INTERNAL);
    }

    @Test
    void emptyReadIsRejected() {
        assertThatThrownBy(() -> c.session(1).read(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aReplyForOtherKeysFailsTheRead() {
        ClientSession s = c.session(1, clock(0, 0, 0));
        ReadTransaction read = s.read(List.of(a0));
        Outgoing o = read.start().get(0);
        read.onResponse(new ReadReply(o.request().requestId(), List.of(new ReadValue(a1, new byte[]{1}, 1)),
                clock(0, 0, 0), clock(0, 0, 0), 0, 0, List.of(), false));
        assertThat(read.isFinished()).isTrue();
        assertThat(read.succeeded()).isFalse();
        assertThat(read.failure().code()).isEqualTo(ErrorCode.INTERNAL);
    }

    /**
     * A max register whose only operation waits in round one: the partition's fold has no value (not 0), so the client's
     * fold at the merged clock is that operation's value, even a negative one.
     */
    @Test
    void aMaxRegisterWhoseOnlyOperationWaitsReadsThatOperation() {
        ReadTransaction read = c.session(1).read(List.of(a0, b));
        List<Outgoing> out = read.start();
        read.onResponse(new ReadReply(to(out, 0).request().requestId(), List.of(new ReadValue(a0, bytes("a0@4"), 4)),
                clock(4, 3, 7), clock(4, 2, 7), 0, 0, List.of(), true));
        byte[] noValue = new io.fastccs.protocol.typed.TypedFold(io.fastccs.core.primitives.KeyType.MAX).result();
        WaitingVersion waiting = new WaitingVersion(b, io.fastccs.core.typed.Operands.number(-5), 1, clock(1, 1, 6), 800,
                io.fastccs.core.primitives.WriteKind.MAX);
        assertThat(read.onResponse(new ReadReply(to(out, 1).request().requestId(),
                List.of(new ReadValue(b, noValue, 0, io.fastccs.core.primitives.KeyType.MAX)), clock(4, 3, 5), clock(0, 0, 0),
                0, 0, List.of(waiting), true))).as("ruled out: the waiting operation is folded in").isEmpty();
        ReadValue v = read.result().values().get(b);
        assertThat(io.fastccs.core.typed.TypedValues.max(v.value())).isEqualTo(-5);
        assertThat(v.sequence()).isEqualTo(1);
    }
}
