package io.fastccs.baselines.wren;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.spi.ReadResult;
import io.fastccs.core.spi.ReadStep;
import io.fastccs.core.spi.WriteStep;
import io.fastccs.baselines.wren.WrenMessages.Abort;
import io.fastccs.baselines.wren.WrenMessages.CheckTxn;
import io.fastccs.baselines.wren.WrenMessages.Commit;
import io.fastccs.baselines.wren.WrenMessages.CommitReply;
import io.fastccs.baselines.wren.WrenMessages.CommitRequest;
import io.fastccs.baselines.wren.WrenMessages.OutcomeRequest;
import io.fastccs.baselines.wren.WrenMessages.Prepare;
import io.fastccs.baselines.wren.WrenMessages.PrepareReply;
import io.fastccs.baselines.wren.WrenMessages.Slice;
import io.fastccs.baselines.wren.WrenMessages.SliceReply;
import io.fastccs.baselines.wren.WrenMessages.Start;
import io.fastccs.baselines.wren.WrenMessages.StartReply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;

class WrenProtocolTest {
    static final PartitionConfig FAST = PartitionConfig.builder()
            .transactionTimeoutMicros(100_000).checkIntervalMicros(20_000).stabilizationIntervalMicros(2_000)
            .gcIntervalMicros(10_000).versionRetentionMicros(200_000).maxValueBytes(64).build();

    static byte[] v(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String str(ReadValue rv) {
        return rv.value() == null ? null : new String(rv.value(), StandardCharsets.UTF_8);
    }

    /** A generator that makes the client pick the {@code i}-th participant (in partition order) as coordinator. */
    static RandomGenerator pick(int i) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                return 0;
            }

            @Override
            public int nextInt(int bound) {
                return i;
            }
        };
    }

    static String valueOf(ReadResult r, Key k) {
        return str(r.values().get(k));
    }

    @Test
    void factoryNamesWrenAndOrdersStampsByTimeThenTxn() {
        WrenProtocol p = new WrenProtocol();
        assertThat(p.protocol()).isEqualTo(Protocol.WREN);
        WrenStamp a = new WrenStamp(10, new TxnId(5, 1));
        WrenStamp b = new WrenStamp(10, new TxnId(6, 1));
        WrenStamp c = new WrenStamp(11, new TxnId(1, 1));
        assertThat(p.arbitration().compare(a, b)).isNegative();
        assertThat(p.arbitration().compare(b, c)).isNegative();
        assertThat(p.arbitration().compare(c, c)).isZero();
    }

    @Test
    void readTakesTwoRoundsAndNeverBlocks() {
        WrenSim sim = new WrenSim(3, FAST, Set.of(), 1);
        Key x = sim.keyOn(0, "x"), y = sim.keyOn(1, "y");
        sim.run(10_000, 1_000);
        WrenSession writer = sim.newSession();
        assertThat(sim.write(writer, Map.of(x, v("x1"), y, v("y1")), pick(0)).isConfirmed()).isTrue();
        sim.run(10_000, 1_000);

        WrenSession reader = sim.newSession();
        ReadResult r = sim.read(reader, x, y);
        assertThat(r.rounds()).isEqualTo(2);
        assertThat(r.secondRoundPartitions()).isEqualTo(2);
        assertThat(valueOf(r, x)).isEqualTo("x1");
        assertThat(valueOf(r, y)).isEqualTo("y1");

        // A second transaction is prepared at partition 1 and its Commit held back: reads still answer at once.
        sim.hold = e -> e instanceof WrenSim.Peer p && p.message() instanceof Commit;
        WriteStep w2 = writer.write(Map.of(x, v("x2"), y, v("y2")), pick(0));
        sim.submit(w2);
        sim.drain();
        assertThat(w2.isConfirmed()).as("the coordinator answers before the participants apply").isTrue();
        assertThat(sim.partition(1).preparedCount()).isEqualTo(1);
        long before = sim.now;
        ReadStep rs = reader.read(List.of(x, y));
        sim.submit(rs);
        sim.drain(); // no tick, no time passing
        assertThat(rs.isFinished()).isTrue();
        assertThat(sim.now).isEqualTo(before);
        assertThat(rs.result().rounds()).isEqualTo(2);
        assertThat(valueOf(rs.result(), x)).isEqualTo("x1");
        assertThat(valueOf(rs.result(), y)).isEqualTo("y1");
    }

    @Test
    void sessionReadsItsOwnWriteFromTheCacheBeforeItIsStable() {
        WrenSim sim = new WrenSim(2, FAST, Set.of(), 1);
        Key x = sim.keyOn(0, "x"), z = sim.keyOn(1, "z");
        sim.run(10_000, 1_000);
        WrenSession me = sim.newSession();
        WriteStep w = me.write(Map.of(x, v("mine")), pick(0));
        sim.submit(w);
        sim.drain(); // no tick: nothing is installed or stable
        assertThat(w.isConfirmed()).isTrue();
        long ct = ((WrenStamp) w.commitStamp()).ct();
        assertThat(sim.partition(0).installedUpTo()).isLessThan(ct);
        assertThat(me.highestWriteTime()).isEqualTo(ct);

        ReadStep own = me.read(List.of(x));
        sim.submit(own);
        sim.drain();
        assertThat(str(own.result().values().get(x))).isEqualTo("mine");
        assertThat(own.result().rounds()).as("Start only; the value came from the cache").isEqualTo(1);
        assertThat(own.result().secondRoundPartitions()).isZero();

        ReadStep mixed = me.read(List.of(x, z));
        sim.submit(mixed);
        sim.drain();
        assertThat(str(mixed.result().values().get(x))).isEqualTo("mine");
        assertThat(mixed.result().rounds()).isEqualTo(2);
        assertThat(mixed.result().secondRoundPartitions()).isEqualTo(1);

        WrenSession other = sim.newSession();
        ReadStep theirs = other.read(List.of(x));
        sim.submit(theirs);
        sim.drain();
        assertThat(theirs.result().values().get(x)).isEqualTo(new ReadValue(x, null, 0));

        sim.run(20_000, 1_000); // installed and stable: the next Start drops the cache entry
        assertThat(valueOf(sim.read(other, x), x)).isEqualTo("mine");
        ReadResult again = sim.read(me, x);
        assertThat(valueOf(again, x)).isEqualTo("mine");
        assertThat(again.rounds()).isEqualTo(2);
        assertThat(me.cachedWrites()).isZero();
    }

    /**
     * A START delayed beyond its read's timeout is answered late, at a stable time above the session's own write, and the
     * abandoned read's step adopts it, so the session forgets the cached write. A read that started after the write and
     * got an earlier stable time must still see the write: it reads at the session's stable time, not below it.
     */
    @Test
    void lateStartReplyOfAnAbandonedReadDoesNotHideTheSessionsOwnWrite() {
        WrenSim sim = new WrenSim(2, FAST, Set.of(), 1);
        Key x = sim.keyOn(0, "x");
        sim.run(10_000, 1_000);
        WrenSession me = sim.newSession();
        assertThat(sim.write(me, Map.of(x, v("old")), pick(0)).isConfirmed()).isTrue();
        sim.run(20_000, 1_000);

        ReadStep abandoned = me.read(List.of(x));
        List<io.fastccs.core.Outgoing> lateStart = abandoned.start(); // delayed on the way: the client gives up
        WriteStep w = me.write(Map.of(x, v("mine")), pick(0));
        sim.submit(w);
        sim.drain();
        assertThat(w.isConfirmed()).isTrue();
        long ct = ((WrenStamp) w.commitStamp()).ct();

        ReadStep r = me.read(List.of(x));
        List<io.fastccs.core.Outgoing> start = r.start();
        StartReply early = (StartReply) sim.ask(start.get(0).partition(), start.get(0).request()); // its reply is slow
        assertThat(early.lt()).isLessThan(ct);
        sim.run(20_000, 1_000); // installed and stable
        ClientResponse late = sim.ask(lateStart.get(0).partition(), lateStart.get(0).request());
        assertThat(((StartReply) late).lt()).isGreaterThanOrEqualTo(ct);
        sim.send(abandoned::onResponse, abandoned.onResponse(late));
        sim.drain();
        assertThat(me.cachedWrites()).isZero();

        sim.send(r::onResponse, r.onResponse(early));
        sim.drain();
        assertThat(valueOf(r.result(), x)).isEqualTo("mine");
    }

    @Test
    void twoKeyWriteBecomesVisibleAtBothKeysInOneSnapshot() {
        WrenSim sim = new WrenSim(3, FAST, Set.of(), 1);
        Key x = sim.keyOn(0, "x"), y = sim.keyOn(2, "y");
        sim.run(10_000, 1_000);
        WrenSession writer = sim.newSession(), reader = sim.newSession();
        sim.hold = e -> e instanceof WrenSim.Peer p && p.message() instanceof Commit && p.to() == 2;
        WriteStep w = sim.write(writer, Map.of(x, v("x1"), y, v("y1")), pick(0));
        assertThat(w.isConfirmed()).isTrue();
        long ct = ((WrenStamp) w.commitStamp()).ct();
        boolean seen = false;
        for (int i = 0; i < 60; i++) {
            if (i == 20) sim.release();
            sim.advance(700);
            sim.tickAll();
            sim.drain();
            ReadResult r = sim.read(reader, x, y);
            boolean xNew = "x1".equals(valueOf(r, x)), yNew = "y1".equals(valueOf(r, y));
            assertThat(xNew).as("read %d: x and y from the same snapshot", i).isEqualTo(yNew);
            if (i < 20) assertThat(xNew).as("not stable while the Commit is held").isFalse();
            if (xNew) assertThat(reader.stableTime()).isGreaterThanOrEqualTo(ct);
            seen |= xNew;
        }
        assertThat(seen).isTrue();
    }

    @Test
    void startAndSliceRaiseThePartitionsGlst() {
        WrenSim sim = new WrenSim(2, FAST, Set.of(), 1);
        sim.advance(1_000);
        WrenPartition p = sim.partition(0);
        p.tick(); // installs up to now; partition 1's LST has not arrived, so GLST stays 0
        long vv = p.installedUpTo();
        assertThat(vv).isPositive();
        assertThat(p.glst()).isZero();
        assertThat(sim.ask(0, new Start(1, vv - 10))).isEqualTo(new StartReply(1, vv - 10));
        assertThat(p.glst()).isEqualTo(vv - 10);
        assertThat(sim.ask(0, new Start(2, 5))).isEqualTo(new StartReply(2, vv - 10));
        Key x = sim.keyOn(0, "x");
        assertThat(sim.ask(0, new Slice(3, List.of(x), vv - 1))).isInstanceOf(SliceReply.class);
        assertThat(p.glst()).isEqualTo(vv - 1);
    }

    @Test
    void preparedTransactionWithLostCommitIsResolvedAfterTheTimeout() {
        WrenSim sim = new WrenSim(2, FAST, Set.of(), 1);
        Key x = sim.keyOn(0, "x"), y = sim.keyOn(1, "y");
        sim.run(10_000, 1_000);
        sim.drop = p -> p.message() instanceof Commit && p.to() == 1;
        WrenSession writer = sim.newSession(), reader = sim.newSession();
        WriteStep w = sim.write(writer, Map.of(x, v("x1"), y, v("y1")), pick(0));
        assertThat(w.isConfirmed()).isTrue();
        long ct = ((WrenStamp) w.commitStamp()).ct();
        sim.drain();
        sim.drop = p -> false;
        sim.run(FAST.transactionTimeoutMicros() / 2, 2_000);
        assertThat(sim.partition(1).preparedCount()).isEqualTo(1);
        assertThat(sim.partition(1).installedUpTo()).isLessThan(ct);
        ReadResult before = sim.read(reader, x, y);
        assertThat(valueOf(before, x)).isNull();
        assertThat(valueOf(before, y)).isNull();

        sim.run(FAST.transactionTimeoutMicros() + FAST.checkIntervalMicros(), 2_000);
        assertThat(sim.sentPeer).anyMatch(e -> e.message() instanceof CheckTxn && e.from() == 1 && e.to() == 0);
        assertThat(sim.partition(1).preparedCount()).isZero();
        ReadResult after = sim.read(reader, x, y);
        assertThat(valueOf(after, x)).isEqualTo("x1");
        assertThat(valueOf(after, y)).isEqualTo("y1");
    }

    @Test
    void coordinatorWithoutEveryVoteAbortsAfterTheTimeoutAndTellsParticipants() {
        WrenSim sim = new WrenSim(3, FAST, Set.of(), 1);
        Key x = sim.keyOn(0, "x"), y = sim.keyOn(1, "y"), z = sim.keyOn(2, "z");
        sim.run(10_000, 1_000);
        // Partition 1's vote is lost, and so is the first Abort to partition 2: partition 2 must ask.
        boolean[] abortLost = {false};
        sim.drop = p -> (p.message() instanceof PrepareReply && p.from() == 1)
                || (p.message() instanceof Abort && p.to() == 2 && !abortLost[0] && (abortLost[0] = true));
        WrenSession writer = sim.newSession(), reader = sim.newSession();
        WriteStep w = writer.write(Map.of(x, v("x1"), y, v("y1"), z, v("z1")), pick(0));
        sim.submit(w);
        sim.drain();
        assertThat(w.isFinished()).isFalse();
        assertThat(sim.partition(1).preparedCount()).isEqualTo(1);
        assertThat(sim.partition(2).preparedCount()).isEqualTo(1);
        WriteStep q = w; // ask before the timeout: undecided
        sim.send(q::onResponse, List.of(q.queryOutcome()));
        sim.drain();
        assertThat(w.outcome()).isEqualTo(Outcome.UNDECIDED);

        sim.run(FAST.transactionTimeoutMicros() + 2 * FAST.checkIntervalMicros() + 10_000, 2_000);
        assertThat(w.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(w.isConfirmed()).isFalse();
        for (int p = 0; p < 3; p++) assertThat(sim.partition(p).preparedCount()).as("partition %d", p).isZero();
        assertThat(sim.sentPeer).anyMatch(e -> e.message() instanceof CheckTxn && e.from() == 2);
        ReadResult r = sim.read(reader, x, y, z);
        assertThat(r.values().values()).allMatch(rv -> rv.value() == null);
        assertThat(sim.read(reader, x).rounds()).isEqualTo(2); // the apply bound moved on
    }

    @Test
    void outcomeQueryNeverLetsAnAbortedTransactionCommitLater() {
        WrenSim sim = new WrenSim(2, FAST, Set.of(), 1);
        Key x = sim.keyOn(0, "x");
        sim.run(10_000, 1_000);
        TxnId t = new TxnId(77, 1);
        assertThat(sim.ask(0, new OutcomeRequest(1, t))).isEqualTo(new CommitReply(1, t, Outcome.ABORTED, -1));
        long lt = sim.partition(0).glst();
        ClientResponse late = sim.ask(0, new CommitRequest(2, t, lt, 0, List.of(new KeyValue(x, v("late")))));
        assertThat(late).isEqualTo(new CommitReply(2, t, Outcome.ABORTED, -1));
        assertThat(sim.partition(0).preparedCount()).isZero();

        WrenSession s = sim.newSession();
        WriteStep w = sim.write(s, Map.of(x, v("ok")), pick(0));
        ClientResponse again = sim.ask(0, new OutcomeRequest(3, w.txnId()));
        assertThat(again).isEqualTo(new CommitReply(3, w.txnId(), Outcome.COMMITTED, ((WrenStamp) w.commitStamp()).ct()));
    }

    @Test
    void badInputIsRefusedWithTheRightCodeAndChangesNothing() {
        WrenSim sim = new WrenSim(2, FAST, Set.of(), 1);
        sim.run(10_000, 1_000);
        Key mine = sim.keyOn(0, "a"), theirs = sim.keyOn(1, "b");
        WrenPartition p = sim.partition(0);
        long vv = p.installedUpTo(), glst = p.glst();
        int sent = sim.sentPeer.size();
        TxnId t = new TxnId(9, 1);

        assertThat(sim.ask(0, new Slice(1, List.of(mine, theirs), glst)))
                .isEqualTo(new ErrorReply(1, ErrorCode.NOT_OWNER, "key " + theirs + " is owned by partition 1, not 0", 1));
        assertCode(sim.ask(0, new Slice(2, List.of(), glst)), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new Slice(3, List.of(mine, mine), glst)), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new Slice(4, List.of(Key.of("")), glst)), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new Slice(5, null, glst)), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new Slice(6, List.of(mine), vv + 1)), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new Slice(7, List.of(mine), -1)), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new Start(8, vv + 1)), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new CommitRequest(9, t, glst, 0, List.of())), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new CommitRequest(10, t, glst, 0, List.of(new KeyValue(mine, null)))), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new CommitRequest(11, t, glst, 0, List.of(new KeyValue(mine, new byte[65])))), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new CommitRequest(12, t, glst, 0,
                List.of(new KeyValue(mine, v("1")), new KeyValue(mine, v("2"))))), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new CommitRequest(13, null, glst, 0, List.of(new KeyValue(mine, v("1"))))), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new CommitRequest(14, t, -1, 0, List.of(new KeyValue(mine, v("1"))))), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new CommitRequest(19, t, glst, Hlc.ofMicros(sim.now + 10 * FAST.transactionTimeoutMicros()),
                List.of(new KeyValue(mine, v("1"))))), ErrorCode.INVALID_REQUEST);
        ClientResponse notCoordinator = sim.ask(0, new CommitRequest(15, t, glst, 0, List.of(new KeyValue(theirs, v("1")))));
        assertCode(notCoordinator, ErrorCode.NOT_OWNER);
        assertThat(((ErrorReply) notCoordinator).owner()).isEqualTo(1);
        assertCode(sim.ask(0, new OutcomeRequest(16, null)), ErrorCode.INVALID_REQUEST);
        assertCode(sim.ask(0, new ForeignRequest(17)), ErrorCode.INVALID_REQUEST); // another protocol's request

        assertThat(p.installedUpTo()).isEqualTo(vv);
        assertThat(p.glst()).isEqualTo(glst);
        assertThat(p.hlc()).isLessThanOrEqualTo(vv);
        assertThat(p.preparedCount()).isZero();
        assertThat(sim.sentPeer).hasSize(sent);
        // The refused transaction id was not remembered: it can still commit.
        assertThat(sim.ask(0, new CommitRequest(18, t, glst, 0, List.of(new KeyValue(mine, v("1"))))))
                .isEqualTo(new CommitReply(18, t, Outcome.COMMITTED, p.hlc()));
    }

    static void assertCode(ClientResponse r, ErrorCode code) {
        assertThat(r).isInstanceOf(ErrorReply.class);
        assertThat(((ErrorReply) r).code()).isEqualTo(code);
        assertThat(((ErrorReply) r).message()).isNotBlank();
    }

    @Test
    void oldVersionsAreCollectedAndTooOldSnapshotsRefused() {
        WrenSim sim = new WrenSim(1, FAST, Set.of(), 1);
        Key x = sim.keyOn(0, "x");
        sim.run(10_000, 1_000);
        long oldLt = sim.partition(0).glst();
        WrenSession s = sim.newSession();
        for (int i = 0; i < 20; i++) {
            sim.write(s, Map.of(x, v("v" + i)), pick(0));
            sim.run(2_000, 1_000);
        }
        sim.run(FAST.versionRetentionMicros() / 2, 5_000);
        assertThat(sim.partition(0).versionCount(x)).isEqualTo(20);
        sim.run(FAST.versionRetentionMicros(), 5_000);
        assertThat(sim.partition(0).versionCount(x)).isEqualTo(1);
        assertThat(valueOf(sim.read(sim.newSession(), x), x)).isEqualTo("v19");
        assertCode(sim.ask(0, new Slice(1, List.of(x), oldLt)), ErrorCode.SNAPSHOT_EXPIRED);
    }

    /**
     * T writes x at partition 0 and y at partition 1, coordinated by 1: prepared at 1 first (smaller pt), then at 0, so
     * ct = pt at partition 0. Partition 0's Commit is held. With the apply bound min pt - 1 partition 0 stays below ct,
     * so no snapshot includes ct until x is installed. With the authors' bound min pt, partition 0 declares ct installed
     * while T is still pending there, GLST reaches ct, and a snapshot at ct shows y from T but not x.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void applyBoundAtMinPtFracturesAReadAtTheCommitTime(boolean buggy) {
        WrenSim sim = new WrenSim(2, FAST, buggy ? Set.of(WrenBug.APPLY_AT_MIN_PT) : Set.of(), 1);
        Key x = sim.keyOn(0, "x"), y = sim.keyOn(1, "y");
        sim.run(10_000, 1_000);
        WrenSession writer = sim.newSession(), reader = sim.newSession();
        sim.hold = e -> e instanceof WrenSim.Peer p && p.to() == 0 && (p.message() instanceof Prepare || p.message() instanceof Commit);
        WriteStep w = writer.write(Map.of(x, v("x1"), y, v("y1")), pick(1));
        sim.submit(w);
        sim.drain(); // partition 1 prepared; the Prepare to 0 is held
        sim.advance(500);
        sim.release();
        sim.hold = e -> e instanceof WrenSim.Peer p && p.to() == 0 && p.message() instanceof Commit;
        sim.drain(); // partition 0 prepares later, with a larger pt: ct = its pt; its Commit is held
        assertThat(w.isConfirmed()).isTrue();
        long ct = ((WrenStamp) w.commitStamp()).ct();
        assertThat(sim.partition(0).preparedCount()).isEqualTo(1);

        for (int i = 0; i < 5; i++) { // stabilize, but do not move time past nothing: partition 0 is stuck at its bound
            sim.advance(2_000);
            sim.tickAll();
            sim.drain();
        }
        assertThat(sim.partition(0).installedUpTo()).isEqualTo(buggy ? ct : ct - 1);
        ReadResult r = sim.read(reader, x, y);
        if (buggy) {
            assertThat(reader.stableTime()).isEqualTo(ct);
            assertThat(valueOf(r, y)).isEqualTo("y1");
            assertThat(valueOf(r, x)).as("fractured: T's y without T's x").isNull();
        } else {
            assertThat(valueOf(r, y)).isNull();
            assertThat(valueOf(r, x)).isNull();
        }
    }

    @Test
    void payloadCountsKeysAndValues() {
        Key k = Key.of("abc");
        assertThat(new Start(1, 2).payloadBytes()).isZero();
        assertThat(new Slice(1, List.of(k), 2).payloadBytes()).isEqualTo(3);
        CommitRequest c = new CommitRequest(1, new TxnId(1, 1), 2, 3, List.of(new KeyValue(k, new byte[10])));
        assertThat(c.payloadBytes()).isEqualTo(13);
        assertThat(new SliceReply(1, List.of(new ReadValue(k, null, 0))).payloadBytes()).isEqualTo(3);
        assertThat(new Commit(new TxnId(1, 1), 5).payloadBytes()).isZero();
    }

    /** A request of another protocol, as a Wren partition could be sent one by mistake. */
    private record ForeignRequest(long requestId) implements ClientRequest {
    }
}
