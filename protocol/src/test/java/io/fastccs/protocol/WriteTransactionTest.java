package io.fastccs.protocol;

import io.fastccs.core.Outgoing;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static io.fastccs.protocol.TestCluster.bytes;
import static io.fastccs.protocol.TestCluster.clock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The client's write step machine (algorithm 1, lines 20-26), fed with hand-made replies. */
class WriteTransactionTest {
    private final TestCluster c = new TestCluster(4); // only for its topology, keys and request ids
    private final Key a = c.key(0, 0), a2 = c.key(0, 1), b = c.key(1, 0), d = c.key(3, 0);
    private final VectorClock initial = clock(0, 0, 5, 0);

    private Map<Key, byte[]> writes() {
        Map<Key, byte[]> w = new LinkedHashMap<>();
        w.put(d, bytes("d"));
        w.put(a, bytes("a"));
        w.put(b, bytes("b"));
        w.put(a2, bytes("a2"));
        return w;
    }

    private static Outgoing to(List<Outgoing> out, int partition) {
        return out.stream().filter(o -> o.partition() == partition).findFirst().orElseThrow();
    }

    private static long id(List<Outgoing> out, int partition) {
        return to(out, partition).request().requestId();
    }

    @Test
    void everyParticipantGetsOnlyItsOwnWritesWithTheSameTxnCoordinatorParticipantsAndSessionClock() {
        ClientSession s = c.session(42, initial);
        WriteTransaction w = s.write(writes(), new Random(3));
        List<Outgoing> out = w.start();
        assertThat(w.participants()).containsExactly(0, 1, 3);
        assertThat(out).extracting(Outgoing::partition).containsExactly(0, 1, 3);
        for (Outgoing o : out) {
            WriteRequest r = (WriteRequest) o.request();
            assertThat(r.txnId()).isEqualTo(w.txnId());
            assertThat(r.txnId().client()).isEqualTo(42);
            assertThat(r.coordinator()).isEqualTo(w.coordinator());
            assertThat(r.participants()).containsExactly(0, 1, 3);
            assertThat(r.clock()).isEqualTo(initial);
            assertThat(r.writes()).extracting(KeyValue::key).allMatch(k -> c.topology.ownerOf(k) == o.partition());
        }
        assertThat(((WriteRequest) to(out, 0).request()).writes()).extracting(KeyValue::key).containsExactly(a, a2);
        assertThat(out).extracting(o -> o.request().requestId()).doesNotHaveDuplicates();
        assertThatThrownBy(w::start).isInstanceOf(IllegalStateException.class);
        assertThat(s.write(writes(), new Random(3)).txnId()).as("each write gets a new id").isNotEqualTo(w.txnId());
    }

    @Test
    void coordinatorIsAParticipantChosenWithTheSuppliedRandomGenerator() {
        Set<Integer> chosen = new HashSet<>();
        for (long seed = 0; seed < 200; seed++) {
            int first = c.session(1).write(writes(), new Random(seed)).coordinator();
            int again = c.session(2).write(writes(), new Random(seed)).coordinator();
            assertThat(again).as("seed %d: same seed, same coordinator", seed).isEqualTo(first);
            assertThat(first).as("seed %d", seed).isIn(0, 1, 3);
            chosen.add(first);
        }
        assertThat(chosen).as("every participant can be chosen").containsExactlyInAnyOrder(0, 1, 3);
        for (int i = 0; i < 3; i++)
            assertThat(c.session(1).write(writes(), WriteCommitTest.choosing(i)).coordinator()).isEqualTo(List.of(0, 1, 3).get(i));
    }

    @Test
    void sessionAdoptsTheCommitClockOnlyOnceEveryParticipantReplied() {
        ClientSession s = c.session(1, initial);
        WriteTransaction w = s.write(writes(), new Random(1));
        List<Outgoing> out = w.start();
        VectorClock ct = clock(3, 7, 5, 2);
        w.onResponse(new WriteReply(id(out, 3), w.txnId(), Outcome.COMMITTED, ct, 0));
        w.onResponse(new WriteReply(id(out, 0), w.txnId(), Outcome.COMMITTED, ct, 0));
        assertThat(w.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(w.isConfirmed()).isFalse();
        assertThat(w.isFinished()).isFalse();
        assertThat(s.clock()).isEqualTo(initial);
        w.onResponse(new WriteReply(id(out, 1), w.txnId(), Outcome.COMMITTED, ct, 0));
        assertThat(w.isConfirmed()).isTrue();
        assertThat(w.isFinished()).isTrue();
        assertThat(w.commitClock()).isEqualTo(ct);
        assertThat(s.clock()).isEqualTo(ct);
    }

    @Test
    void unknownRequestIdsAndDuplicateRepliesAreIgnored() {
        ClientSession s = c.session(1, initial);
        WriteTransaction w = s.write(writes(), new Random(1));
        List<Outgoing> out = w.start();
        VectorClock ct = clock(3, 7, 5, 2);
        w.onResponse(new WriteReply(9_999, w.txnId(), Outcome.ABORTED, null, 0));
        w.onResponse(ErrorReply.of(9_998, ErrorCode.INTERNAL, "not yours"));
        assertThat(w.outcome()).isEqualTo(Outcome.UNDECIDED);
        assertThat(w.failure()).isNull();
        w.onResponse(new WriteReply(id(out, 0), w.txnId(), Outcome.COMMITTED, ct, 0));
        w.onResponse(new WriteReply(id(out, 0), w.txnId(), Outcome.COMMITTED, ct, 0));
        w.onResponse(new WriteReply(id(out, 0), w.txnId(), Outcome.ABORTED, null, 0));
        w.onResponse(new WriteReply(id(out, 1), w.txnId(), Outcome.COMMITTED, ct, 0));
        assertThat(w.isConfirmed()).as("two distinct participants of three").isFalse();
        assertThat(w.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(s.clock()).isEqualTo(initial);
    }

    @Test
    void anAbortedReplyFinishesTheTransactionAborted() {
        ClientSession s = c.session(1, initial);
        WriteTransaction w = s.write(writes(), new Random(1));
        List<Outgoing> out = w.start();
        w.onResponse(new WriteReply(id(out, 1), w.txnId(), Outcome.ABORTED, null, 0));
        assertThat(w.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(w.isFinished()).isTrue();
        assertThat(w.isConfirmed()).isFalse();
        assertThat(w.failure()).isNull();
        // Nothing later changes it.
        w.onResponse(new WriteReply(id(out, 0), w.txnId(), Outcome.COMMITTED, clock(1, 1, 5, 1), 0));
        assertThat(w.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(s.clock()).isEqualTo(initial);
    }

    @Test
    void anErrorReplyFromAParticipantMarksTheTransactionFailedAndAborted() {
        ClientSession s = c.session(1, initial);
        WriteTransaction w = s.write(writes(), new Random(1));
        List<Outgoing> out = w.start();
        ErrorReply e = new ErrorReply(id(out, 3), ErrorCode.NOT_OWNER, "moved", 2);
        w.onResponse(e);
        assertThat(w.failure()).isEqualTo(e);
        assertThat(w.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(w.isFinished()).isTrue();
        assertThat(w.isConfirmed()).isFalse();
        assertThat(s.clock()).isEqualTo(initial);
    }

    @Test
    void aWriteReplyForAnotherTransactionIsAFailure() {
        ClientSession s = c.session(1, initial);
        WriteTransaction w = s.write(writes(), new Random(1));
        List<Outgoing> out = w.start();
        w.onResponse(new WriteReply(id(out, 0), new TxnId(1, 999), Outcome.COMMITTED, clock(1, 0, 5, 0), 0));
        assertThat(w.failure()).isNotNull();
        assertThat(w.failure().code()).isEqualTo(ErrorCode.INTERNAL);
        assertThat(w.isFinished()).isTrue();
        assertThat(s.clock()).isEqualTo(initial);
    }

    @Test
    void outcomeQueryGoesToTheCoordinatorAndACommittedAnswerIsNotAdoptedByTheSession() {
        ClientSession s = c.session(1, initial);
        WriteTransaction w = s.write(writes(), new Random(5));
        w.start();
        Outgoing q = w.queryOutcome();
        assertThat(q.partition()).isEqualTo(w.coordinator());
        assertThat(q.request()).isEqualTo(new OutcomeQuery(q.request().requestId(), w.txnId()));
        w.onResponse(new OutcomeReply(q.request().requestId(), w.txnId(), Outcome.UNDECIDED, null, 0));
        assertThat(w.outcome()).isEqualTo(Outcome.UNDECIDED);

        Outgoing q2 = w.queryOutcome();
        VectorClock ct = clock(3, 7, 5, 2);
        w.onResponse(new OutcomeReply(q2.request().requestId(), w.txnId(), Outcome.COMMITTED, ct, 0));
        assertThat(w.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(w.commitClock()).isEqualTo(ct);
        assertThat(w.isConfirmed()).isFalse();
        assertThat(s.clock()).as("not confirmed by every participant: not adopted").isEqualTo(initial);
    }

    @Test
    void outcomeQueryAnsweredAbortedFinishesTheTransaction() {
        ClientSession s = c.session(1, initial);
        WriteTransaction w = s.write(writes(), new Random(5));
        w.start();
        Outgoing q = w.queryOutcome();
        w.onResponse(new OutcomeReply(q.request().requestId(), w.txnId(), Outcome.ABORTED, null, 0));
        assertThat(w.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(w.isFinished()).isTrue();
    }

    @Test
    void emptyWriteAndMisSizedSessionClockAreRejected() {
        assertThatThrownBy(() -> c.session(1).write(Map.of(), new Random(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> c.session(1, VectorClock.zero(3))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anErrorAnsweringTheOutcomeQuerySaysNothingAboutTheOutcome() {
        WriteTransaction w = c.session(42, initial).write(writes(), new Random(3));
        w.start();
        Outgoing q = w.queryOutcome();
        w.onResponse(ErrorReply.of(q.request().requestId(), ErrorCode.OVERLOADED, "busy"));
        assertThat(w.outcome()).isEqualTo(Outcome.UNDECIDED);
        assertThat(w.isFinished()).isFalse();
    }

    @Test
    void aCommitClockOfTheWrongSizeIsAProtocolErrorNotAnOutcome() {
        ClientSession s = c.session(42, initial);
        WriteTransaction w = s.write(writes(), new Random(3));
        List<Outgoing> out = w.start();
        w.onResponse(new WriteReply(id(out, 0), w.txnId(), Outcome.COMMITTED, clock(1, 2), 0));
        assertThat(w.failure().code()).isEqualTo(ErrorCode.INTERNAL);
        assertThat(w.outcome()).isEqualTo(Outcome.UNDECIDED);
        assertThat(s.clock()).isEqualTo(initial);
    }
}
