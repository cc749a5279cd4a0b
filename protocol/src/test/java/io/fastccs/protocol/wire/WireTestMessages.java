package io.fastccs.protocol.wire;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.StatusQuery;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.BasedClock;
import io.fastccs.protocol.messages.ClockDiff;
import io.fastccs.protocol.messages.CompactCommit;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.CompactReadReply;
import io.fastccs.protocol.messages.CompactSecondRoundRead;
import io.fastccs.protocol.messages.CompactWaitingVersion;
import io.fastccs.protocol.messages.CompactWriteReply;
import io.fastccs.protocol.messages.CompactWriteRequest;
import io.fastccs.protocol.messages.Rebase;
import io.fastccs.protocol.messages.Settled;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.StabilizeDown;
import io.fastccs.protocol.messages.StabilizeUp;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.messages.RingMember;
import io.fastccs.core.messages.RingReply;
import io.fastccs.core.messages.RingRequest;
import io.fastccs.protocol.messages.WaitingVersion;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.baselines.eiger.EigerMessages;
import io.fastccs.baselines.eiger.EigerMessages.Dep;
import io.fastccs.baselines.eiger.EigerMessages.KeyVersion;
import io.fastccs.baselines.eiger.EigerMessages.TxnStatus;
import io.fastccs.baselines.eventual.EventualMessages;
import io.fastccs.baselines.eventual.EventualStamp;
import io.fastccs.baselines.wren.WrenMessages;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;

/** Messages for the wire tests: one hand-picked set covering edge cases, and seeded random ones. */
final class WireTestMessages {
    private WireTestMessages() {
    }

    static final TxnId TXN = new TxnId(0x1234_5678_9abc_def0L, 42);

    /** Every message type at least once, with the edge cases the codec must map exactly. */
    static List<Message> samples() {
        List<Message> out = new ArrayList<>(fastccsSamples());
        out.addAll(otherProtocolSamples());
        return out;
    }

    /** FastCCS's own messages and the control messages. */
    static List<Message> fastccsSamples() {
        VectorClock c3 = VectorClock.of(3, 0, 7);
        VectorClock big = VectorClock.of(Long.MAX_VALUE, 0, 1L << 40);
        VectorClock wide = clockOf(1024, i -> (long) i * 1_000_003);
        List<Key> keys = List.of(Key.of("a"), Key.of("user:42"), Key.wrap(new byte[0]), Key.wrap(new byte[]{0, -1, 127}));
        byte[] largeValue = new byte[1 << 20];
        new Random(1).nextBytes(largeValue);
        return List.of(
                new FirstRoundRead(1, keys, c3),
                new FirstRoundRead(-1, List.of(), VectorClock.zero(1)),
                new FirstRoundRead(Long.MAX_VALUE, keys, wide),
                new SecondRoundRead(2, keys, big, 123_456_789L),
                new SecondRoundRead(Long.MIN_VALUE, List.of(), wide, -5),
                new WriteRequest(3, TXN, 2, List.of(0, 2), List.of(new KeyValue(Key.of("k"), "v".getBytes())), c3, 0),
                new WriteRequest(4, new TxnId(-1, 0), 0, List.of(), List.of(), VectorClock.zero(1), 0),
                new WriteRequest(5, TXN, 1023, List.of(1023, 0, 512),
                        List.of(new KeyValue(Key.of("big"), largeValue), new KeyValue(Key.wrap(new byte[0]), new byte[0])),
                        wide, 0),
                new OutcomeQuery(6, TXN),
                new ReadReply(7, List.of(new ReadValue(Key.of("a"), "x".getBytes(), 3),
                        new ReadValue(Key.of("gone"), null, 0),
                        new ReadValue(Key.of("empty"), new byte[0], Long.MAX_VALUE)), c3, big, 1_764_201_600_000_000L, 99,
                        List.of(new WaitingVersion(Key.of("a"), "newer".getBytes(), 4, c3, 1_764_201_600_000_001L),
                                new WaitingVersion(Key.of("a"), new byte[0], 5, big, 0)), true),
                new ReadReply(8, List.of(), wide, wide, 0, Long.MIN_VALUE, List.of(), false),
                new ReadReply(19, List.of(), c3, c3, 0, 0, List.of(), false, 1_764_201_600_123L),
                new ReadReply(9, List.of(new ReadValue(Key.of("large"), largeValue, 1)), c3, c3, 0, 0, List.of(), false),
                new WriteReply(10, TXN, Outcome.COMMITTED, c3, 0),
                new WriteReply(11, TXN, Outcome.ABORTED, null, 0),
                new WriteReply(12, TXN, Outcome.UNDECIDED, null, 0),
                new OutcomeReply(13, TXN, Outcome.COMMITTED, wide, 0),
                new OutcomeReply(14, TXN, Outcome.ABORTED, null, 0),
                new ErrorReply(15, ErrorCode.NOT_OWNER, "key user:42 is owned by partition 3", 3),
                ErrorReply.of(16, ErrorCode.INVALID_REQUEST, ""),
                ErrorReply.of(17, ErrorCode.INTERNAL, null),
                ErrorReply.of(18, ErrorCode.SNAPSHOT_EXPIRED, "ünïcødé ✓"),
                new Prepared(TXN, 1, 17, List.of(0, 1, 2), 1_700_000_000_000_000L),
                new Prepared(TXN, 0, 0, List.of(), 0),
                new Commit(TXN, c3, 1_700_000_000_000_000L),
                new Commit(TXN, wide, 0),
                new Abort(TXN),
                new io.fastccs.protocol.messages.Refused(TXN, 1, List.of(0, 1, 2)),
                new WriteRequest(31, TXN, 2, List.of(0, 2), List.of(
                        new KeyValue(Key.of("likes"), io.fastccs.core.typed.Operands.number(-3), io.fastccs.core.primitives.WriteKind.ADD),
                        new KeyValue(Key.of("tags"), "x".getBytes(), io.fastccs.core.primitives.WriteKind.SET_REMOVE),
                        new KeyValue(Key.of("best"), io.fastccs.core.typed.Operands.topk(3, 7, "i".getBytes()),
                                io.fastccs.core.primitives.WriteKind.TOPK_INSERT)), c3, 0),
                new ReadReply(32, List.of(new ReadValue(Key.of("likes"), new byte[]{1, 0, 0, 0, 0, 0, 0, 0, 9}, 3,
                        io.fastccs.core.primitives.KeyType.COUNTER)), c3, c3, 0, 0,
                        List.of(new WaitingVersion(Key.of("likes"), io.fastccs.core.typed.Operands.number(2), 4, c3, 5,
                                io.fastccs.core.primitives.WriteKind.ADD)), true),
                new CompactReadReply(33, List.of(new ReadValue(Key.of("s"), new byte[]{3, 0, 0, 0, 0}, 3,
                        io.fastccs.core.primitives.KeyType.SET)), ClockDiff.of(new int[]{2}, new long[]{1}),
                        ClockDiff.of(new int[]{2}, new long[]{1}), 0, 0,
                        List.of(new CompactWaitingVersion(Key.of("s"), "e".getBytes(), 4, ClockDiff.of(new int[]{2}, new long[]{1}), 10,
                                io.fastccs.core.primitives.WriteKind.SET_ADD)), true, 0, 0, null),
                new CheckCommit(TXN, 2),
                new StatusQuery(TXN, 2, List.of(0, 1, 2)),
                new Stabilize(0, 0),
                new Stabilize(Integer.MAX_VALUE, Long.MAX_VALUE),
                new StabilizeUp(3, List.of(new Settled(3, 7), new Settled(7, 0), new Settled(8, Long.MAX_VALUE))),
                new StabilizeUp(1, List.of()),
                new StabilizeDown(0, List.of(new Settled(0, 2), new Settled(1023, 1_000_000))),
                new StabilizeDown(0, List.of(new Settled(5, 9)), 1_764_201_600_123L, true),
                new StabilizeUp(7, List.of(), 42),
                new CompactFirstRoundRead(20, keys, BasedClock.of(0, new int[]{0, 2}, new long[]{3, 7}), 0),
                new CompactFirstRoundRead(21, List.of(), BasedClock.of(1_764_201_600_123L, new int[]{}, new long[]{}), 1_764_201_600_124L),
                new CompactSecondRoundRead(22, keys, BasedClock.of(9, new int[]{1023}, new long[]{Long.MAX_VALUE}), -5),
                new CompactWriteRequest(23, TXN, 2, List.of(0, 2), List.of(new KeyValue(Key.of("k"), "v".getBytes())),
                        BasedClock.of(3, new int[]{0, 1, 2}, new long[]{1, 0, 5}), 17),
                new CompactReadReply(24, List.of(new ReadValue(Key.of("a"), "x".getBytes(), 3), new ReadValue(Key.of("gone"), null, 0)),
                        ClockDiff.of(new int[]{0, 5}, new long[]{-3, 1L << 40}), ClockDiff.of(new int[]{}, new long[]{}), 9, 99,
                        List.of(new CompactWaitingVersion(Key.of("a"), "newer".getBytes(), 4, ClockDiff.of(new int[]{2}, new long[]{1}), 10)),
                        true, 77, 1_764_201_600_123L,
                        new Rebase(1_764_201_600_123L, ClockDiff.of(new int[]{3, 4}, new long[]{2, 9}), List.of(0, 1023))),
                new CompactReadReply(25, List.of(), ClockDiff.of(new int[]{}, new long[]{}), ClockDiff.of(new int[]{1}, new long[]{1}),
                        0, Long.MIN_VALUE, List.of(), false, 0, 0, null),
                new CompactWriteReply(26, TXN, Outcome.COMMITTED, ClockDiff.of(new int[]{0, 7}, new long[]{1, 2}), 5),
                new CompactWriteReply(27, TXN, Outcome.ABORTED, null, 0),
                new CompactCommit(TXN, BasedClock.of(12, new int[]{4, 9}, new long[]{10, 11}), 1_764_201_600_000_000L),
                Hello.client(null, null),
                Hello.client("cassandra", "sécret"),
                Hello.peer(3),
                Hello.peer(3).to(1),
                Hello.client("cassandra", "x").to(0),
                new HelloReply(1, 0, 3),
                Hello.client("u", "p").speaking(Protocol.EIGER),
                Hello.peer(2).speaking(Protocol.WREN).to(1),
                new HelloReply(1, 2, 3, Protocol.EVENTUAL),
                new RingRequest(19),
                new RingReply(20, List.of()),
                new RingReply(21, List.of(new RingMember(0, "127.0.0.1", 9142, Long.MIN_VALUE + 1, true),
                        new RingMember(1, "::1", 9142, 0, false), new RingMember(2, "node-3.example", 65535, Long.MAX_VALUE, true),
                        new RingMember(3, "127.0.0.2", 9142, 5, true, List.of("127.0.0.2:9142", "127.0.0.3:9142", "127.0.0.1:9142")))));
    }

    /** An HLC time as Wren hands them out: epoch microseconds (2023) shifted by 11 logical bits, about 2^61.6. */
    static final long HLC = 1_700_000_000_000_000L << 11;

    /** Every message of the eventual, Eiger and Wren protocols, with their edge cases. */
    static List<Message> otherProtocolSamples() {
        List<Key> keys = List.of(Key.of("a"), Key.of("user:42"), Key.wrap(new byte[0]), Key.wrap(new byte[]{0, -1, 127}));
        byte[] largeValue = new byte[1 << 20];
        new Random(2).nextBytes(largeValue);
        List<KeyValue> writes = List.of(new KeyValue(Key.of("k"), "v".getBytes()), new KeyValue(Key.of("user:7"), new byte[100]));
        List<KeyValue> oddWrites = List.of(new KeyValue(Key.of("big"), largeValue), new KeyValue(Key.wrap(new byte[0]), new byte[0]));
        List<ReadValue> readValues = List.of(new ReadValue(Key.of("a"), "x".getBytes(), 3),
                new ReadValue(Key.of("gone"), null, 0), new ReadValue(Key.of("empty"), new byte[0], Long.MAX_VALUE));
        TxnId other = new TxnId(-1, 0);
        long stamp = (12L << 16) | 2; // Eiger: commit time 12 at coordinator 2
        return List.of(
                // eventual
                new EventualMessages.Read(30, keys),
                new EventualMessages.Read(-1, List.of()),
                new EventualMessages.ReadAnswer(31, readValues, 99),
                new EventualMessages.ReadAnswer(Long.MIN_VALUE, List.of(), 0),
                new EventualMessages.ReadAnswer(32, List.of(new ReadValue(Key.of("large"), largeValue, 1)), Long.MAX_VALUE),
                new EventualMessages.Write(33, TXN, new EventualStamp(7, TXN.client(), TXN.sequence()), writes),
                new EventualMessages.Write(34, other, new EventualStamp(Long.MAX_VALUE, -5, Long.MIN_VALUE), oddWrites),
                new EventualMessages.Write(35, TXN, new EventualStamp(0, 0, 0), List.of()),
                new EventualMessages.WriteAnswer(36, 0),
                new EventualMessages.WriteAnswer(Long.MAX_VALUE, Long.MAX_VALUE),
                // Eiger
                new EigerMessages.Read1(40, 5, keys),
                new EigerMessages.Read1(-1, 0, List.of()),
                new EigerMessages.ReadAt(41, 1L << 46, keys, 123),
                new EigerMessages.ReadAt(42, 0, List.of(), 0),
                new EigerMessages.CohortWrite(43, 9, TXN, 2, Key.of("coord"), writes),
                new EigerMessages.CohortWrite(44, 0, other, Integer.MAX_VALUE, Key.wrap(new byte[0]), oddWrites),
                new EigerMessages.CoordWrite(45, 9, TXN, Key.of("coord"), writes, List.of(0, 2, 1023),
                        List.of(new Dep(Key.of("a"), stamp), new Dep(Key.wrap(new byte[0]), 0), new Dep(Key.of("z"), Long.MAX_VALUE))),
                new EigerMessages.CoordWrite(46, 0, other, Key.wrap(new byte[0]), List.of(), List.of(), List.of()),
                new EigerMessages.OutcomeQuery(47, 3, TXN),
                new EigerMessages.ReadReply(48, 12, List.of(
                        new KeyVersion(Key.of("a"), "x".getBytes(), stamp, 12, 20, Key.of("coord")),
                        new KeyVersion(Key.of("gone"), null, 0, 0, 20, null),
                        new KeyVersion(Key.of("empty"), new byte[0], Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Key.wrap(new byte[0])),
                        new KeyVersion(Key.of("solo"), "y".getBytes(), (3L << 16), 3, 3, null)), false),
                new EigerMessages.ReadReply(49, 0, List.of(), true),
                new EigerMessages.ReadReply(50, 1, List.of(new KeyVersion(Key.of("large"), largeValue, 1, 1, 1, null)), true),
                new EigerMessages.WriteAck(51, 1),
                new EigerMessages.WriteReply(52, 2, Outcome.COMMITTED, stamp),
                new EigerMessages.WriteReply(53, 2, Outcome.ABORTED, 0),
                new EigerMessages.OutcomeReply(54, 3, Outcome.UNDECIDED, 0),
                new EigerMessages.OutcomeReply(55, Long.MAX_VALUE, Outcome.COMMITTED, Long.MAX_VALUE),
                new EigerMessages.YesVote(4, TXN, 3),
                new EigerMessages.Commit(5, TXN, 5),
                new EigerMessages.Abort(6, TXN),
                new EigerMessages.Ack(7, other),
                new EigerMessages.CheckTxn(8, List.of(TXN, other), 4),
                new EigerMessages.CheckTxn(0, List.of(), -1),
                new EigerMessages.CheckTxnReply(9, List.of(new TxnStatus(TXN, Outcome.COMMITTED, 5),
                        new TxnStatus(other, Outcome.ABORTED, 0), new TxnStatus(new TxnId(1, 2), Outcome.UNDECIDED, 0))),
                new EigerMessages.CheckTxnReply(0, List.of()),
                // Wren
                new WrenMessages.Start(60, HLC),
                new WrenMessages.Start(-1, 0),
                new WrenMessages.StartReply(61, HLC + 1),
                new WrenMessages.StartReply(62, Long.MAX_VALUE),
                new WrenMessages.Slice(63, keys, HLC),
                new WrenMessages.Slice(64, List.of(), 0),
                new WrenMessages.SliceReply(65, List.of(new ReadValue(Key.of("a"), "x".getBytes(), HLC - 7),
                        new ReadValue(Key.of("gone"), null, 0), new ReadValue(Key.of("empty"), new byte[0], Long.MAX_VALUE))),
                new WrenMessages.SliceReply(66, List.of()),
                new WrenMessages.CommitRequest(67, TXN, HLC, HLC + 5, writes),
                new WrenMessages.CommitRequest(68, other, 0, Long.MAX_VALUE, oddWrites),
                new WrenMessages.OutcomeRequest(69, TXN),
                new WrenMessages.CommitReply(70, TXN, Outcome.COMMITTED, HLC),
                new WrenMessages.CommitReply(71, TXN, Outcome.ABORTED, -1),
                new WrenMessages.CommitReply(72, other, Outcome.UNDECIDED, -1),
                new WrenMessages.Prepare(TXN, HLC, writes),
                new WrenMessages.Prepare(other, 0, List.of()),
                new WrenMessages.PrepareReply(TXN, HLC + 3),
                new WrenMessages.Commit(TXN, HLC + 4),
                new WrenMessages.Abort(TXN),
                new WrenMessages.CheckTxn(other),
                new WrenMessages.Lst(HLC),
                new WrenMessages.Lst(0));
    }

    /**
     * What a round-tripped message must equal: the message itself, except for Eiger's ReadReply, whose KeyVersions are
     * records holding a byte[] and so compare values by identity; for it a list that compares them by content.
     */
    static Object comparable(Message m) {
        if (!(m instanceof EigerMessages.ReadReply r)) return m;
        List<Object> values = new ArrayList<>();
        for (KeyVersion v : r.values())
            values.add(Arrays.asList(v.key(), v.value() == null ? null : ByteBuffer.wrap(v.value()), v.version(), v.evt(),
                    v.lvt(), v.coordKey()));
        return Arrays.asList("EigerReadReply", r.requestId(), r.clock(), values, r.checkedCoordinator());
    }

    static VectorClock clockOf(int n, Function<Integer, Long> entry) {
        long[] e = new long[n];
        for (int i = 0; i < n; i++) e[i] = entry.apply(i);
        return VectorClock.of(e);
    }

    /**
     * A random valid message of a random type, half the time FastCCS's (or a control message), half the time another
     * protocol's; sizes are mostly small, now and then large.
     */
    /**
     * A vote whose proposed time comes from its sequence number, not from {@code rnd}: the seeded random messages then
     * stay those the golden frames were captured from before votes carried a time.
     */
    private static Prepared preparedAtDerivedTime(TxnId txnId, int from, long sequence, List<Integer> participants) {
        return new Prepared(txnId, from, sequence, participants, sequence / 2 + 7);
    }

    static Message random(Random rnd) {
        return rnd.nextBoolean() ? randomFastccs(rnd) : randomOtherProtocol(rnd);
    }

    static Message randomFastccs(Random rnd) {
        int partitions = rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(1024) : 1 + rnd.nextInt(16);
        List<Supplier<Message>> makers = List.of(
                () -> new FirstRoundRead(rnd.nextLong(), keys(rnd), clock(rnd, partitions)),
                () -> new SecondRoundRead(rnd.nextLong(), keys(rnd), clock(rnd, partitions), rnd.nextLong()),
                () -> new WriteRequest(rnd.nextLong(), txnId(rnd), rnd.nextInt(partitions), participants(rnd, partitions),
                        writes(rnd), clock(rnd, partitions), sequence(rnd)),
                () -> new OutcomeQuery(rnd.nextLong(), txnId(rnd)),
                () -> new ReadReply(rnd.nextLong(), readValues(rnd), clock(rnd, partitions), clock(rnd, partitions), sequence(rnd),
                        rnd.nextLong(), List.of(), rnd.nextBoolean()),
                () -> {
                    Outcome o = outcome(rnd);
                    return new WriteReply(rnd.nextLong(), txnId(rnd), o,
                            o == Outcome.COMMITTED ? clock(rnd, partitions) : null, o == Outcome.COMMITTED ? sequence(rnd) : 0);
                },
                () -> {
                    Outcome o = outcome(rnd);
                    return new OutcomeReply(rnd.nextLong(), txnId(rnd), o,
                            o == Outcome.COMMITTED ? clock(rnd, partitions) : null, o == Outcome.COMMITTED ? sequence(rnd) : 0);
                },
                () -> {
                    ErrorCode code = ErrorCode.values()[rnd.nextInt(ErrorCode.values().length)];
                    String message = rnd.nextInt(5) == 0 ? null : randomText(rnd);
                    return new ErrorReply(rnd.nextLong(), code, message,
                            code == ErrorCode.NOT_OWNER ? rnd.nextInt(partitions) : -1);
                },
                () -> preparedAtDerivedTime(txnId(rnd), rnd.nextInt(partitions), sequence(rnd), participants(rnd, partitions)),
                () -> new Commit(txnId(rnd), clock(rnd, partitions), sequence(rnd)),
                () -> new Abort(txnId(rnd)),
                () -> new CheckCommit(txnId(rnd), rnd.nextInt(partitions)),
                () -> new Stabilize(rnd.nextInt(partitions), sequence(rnd)),
                () -> new StabilizeUp(rnd.nextInt(partitions), settled(rnd, partitions)),
                () -> new StabilizeDown(rnd.nextInt(partitions), settled(rnd, partitions), rnd.nextInt(3) == 0 ? 0 : sequence(rnd),
                        rnd.nextBoolean()),
                () -> new CompactFirstRoundRead(rnd.nextLong(), keys(rnd), based(rnd, partitions), rnd.nextBoolean() ? 0 : sequence(rnd)),
                () -> new CompactSecondRoundRead(rnd.nextLong(), keys(rnd), based(rnd, partitions), rnd.nextLong()),
                () -> new CompactWriteRequest(rnd.nextLong(), txnId(rnd), rnd.nextInt(partitions), participants(rnd, partitions),
                        writes(rnd), based(rnd, partitions), sequence(rnd)),
                () -> new CompactReadReply(rnd.nextLong(), List.of(), diff(rnd, partitions), diff(rnd, partitions), sequence(rnd),
                        rnd.nextLong(), List.of(), rnd.nextBoolean(), sequence(rnd), rnd.nextBoolean() ? 0 : sequence(rnd),
                        rnd.nextBoolean() ? null : new Rebase(sequence(rnd), diff(rnd, partitions), List.of())),
                () -> new CompactWriteReply(rnd.nextLong(), txnId(rnd), Outcome.COMMITTED, diff(rnd, partitions), sequence(rnd)),
                () -> new CompactCommit(txnId(rnd), based(rnd, partitions), sequence(rnd)),
                () -> new Hello(rnd.nextInt(3), rnd.nextBoolean() ? -1 : rnd.nextInt(partitions),
                        rnd.nextBoolean() ? null : randomText(rnd), rnd.nextBoolean() ? null : randomText(rnd),
                        rnd.nextBoolean() ? -1 : rnd.nextInt(partitions),
                        Protocol.values()[rnd.nextInt(Protocol.values().length)]),
                () -> new HelloReply(rnd.nextInt(3), rnd.nextInt(partitions), partitions,
                        Protocol.values()[rnd.nextInt(Protocol.values().length)]),
                () -> new RingRequest(rnd.nextLong()),
                () -> {
                    List<RingMember> members = new java.util.ArrayList<>();
                    for (int i = 0; i < rnd.nextInt(5); i++)
                        members.add(new RingMember(i, randomText(rnd), rnd.nextInt(65536), rnd.nextLong(), rnd.nextBoolean(),
                                rnd.nextBoolean() ? List.of() : List.of(randomText(rnd), randomText(rnd))));
                    return new RingReply(rnd.nextLong(), members);
                });
        return makers.get(rnd.nextInt(makers.size())).get();
    }

    /** A random valid eventual, Eiger or Wren message. */
    static Message randomOtherProtocol(Random rnd) {
        int partitions = rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(1024) : 1 + rnd.nextInt(16);
        List<Supplier<Message>> makers = List.of(
                () -> new EventualMessages.Read(rnd.nextLong(), keys(rnd)),
                () -> new EventualMessages.ReadAnswer(rnd.nextLong(), readValues(rnd), sequence(rnd)),
                () -> new EventualMessages.Write(rnd.nextLong(), txnId(rnd),
                        new EventualStamp(sequence(rnd), rnd.nextLong(), rnd.nextLong()), writes(rnd)),
                () -> new EventualMessages.WriteAnswer(rnd.nextLong(), sequence(rnd)),
                () -> new EigerMessages.Read1(rnd.nextLong(), sequence(rnd), keys(rnd)),
                () -> new EigerMessages.ReadAt(rnd.nextLong(), sequence(rnd), keys(rnd), sequence(rnd)),
                () -> new EigerMessages.CohortWrite(rnd.nextLong(), sequence(rnd), txnId(rnd), rnd.nextInt(partitions),
                        Key.wrap(bytes(rnd, 40)), writes(rnd)),
                () -> new EigerMessages.CoordWrite(rnd.nextLong(), sequence(rnd), txnId(rnd), Key.wrap(bytes(rnd, 40)),
                        writes(rnd), participants(rnd, partitions), deps(rnd)),
                () -> new EigerMessages.OutcomeQuery(rnd.nextLong(), sequence(rnd), txnId(rnd)),
                () -> new EigerMessages.ReadReply(rnd.nextLong(), sequence(rnd), keyVersions(rnd), rnd.nextBoolean()),
                () -> new EigerMessages.WriteAck(rnd.nextLong(), sequence(rnd)),
                () -> new EigerMessages.WriteReply(rnd.nextLong(), sequence(rnd), outcome(rnd), sequence(rnd)),
                () -> new EigerMessages.OutcomeReply(rnd.nextLong(), sequence(rnd), outcome(rnd), sequence(rnd)),
                () -> new EigerMessages.YesVote(sequence(rnd), txnId(rnd), sequence(rnd)),
                () -> new EigerMessages.Commit(sequence(rnd), txnId(rnd), sequence(rnd)),
                () -> new EigerMessages.Abort(sequence(rnd), txnId(rnd)),
                () -> new EigerMessages.Ack(sequence(rnd), txnId(rnd)),
                () -> new EigerMessages.CheckTxn(sequence(rnd), txnIds(rnd), rnd.nextBoolean() ? -1 : sequence(rnd)),
                () -> {
                    List<TxnStatus> statuses = new ArrayList<>();
                    for (int i = rnd.nextInt(6); i > 0; i--) {
                        Outcome o = outcome(rnd);
                        statuses.add(new TxnStatus(txnId(rnd), o, o == Outcome.COMMITTED ? sequence(rnd) : 0));
                    }
                    return new EigerMessages.CheckTxnReply(sequence(rnd), statuses);
                },
                () -> new WrenMessages.Start(rnd.nextLong(), sequence(rnd)),
                () -> new WrenMessages.StartReply(rnd.nextLong(), sequence(rnd)),
                () -> new WrenMessages.Slice(rnd.nextLong(), keys(rnd), sequence(rnd)),
                () -> new WrenMessages.SliceReply(rnd.nextLong(), readValues(rnd)),
                () -> new WrenMessages.CommitRequest(rnd.nextLong(), txnId(rnd), sequence(rnd), sequence(rnd), writes(rnd)),
                () -> new WrenMessages.OutcomeRequest(rnd.nextLong(), txnId(rnd)),
                () -> {
                    Outcome o = outcome(rnd);
                    return new WrenMessages.CommitReply(rnd.nextLong(), txnId(rnd), o, o == Outcome.COMMITTED ? sequence(rnd) : -1);
                },
                () -> new WrenMessages.Prepare(txnId(rnd), sequence(rnd), writes(rnd)),
                () -> new WrenMessages.PrepareReply(txnId(rnd), sequence(rnd)),
                () -> new WrenMessages.Commit(txnId(rnd), sequence(rnd)),
                () -> new WrenMessages.Abort(txnId(rnd)),
                () -> new WrenMessages.CheckTxn(txnId(rnd)),
                () -> new WrenMessages.Lst(sequence(rnd)));
        return makers.get(rnd.nextInt(makers.size())).get();
    }

    static List<Dep> deps(Random rnd) {
        List<Dep> out = new ArrayList<>();
        for (int i = rnd.nextInt(8); i > 0; i--) out.add(new Dep(Key.wrap(bytes(rnd, 40)), sequence(rnd)));
        return out;
    }

    static List<KeyVersion> keyVersions(Random rnd) {
        List<KeyVersion> out = new ArrayList<>();
        for (int i = rnd.nextInt(8); i > 0; i--) {
            boolean exists = rnd.nextInt(4) != 0;
            out.add(new KeyVersion(Key.wrap(bytes(rnd, 40)), exists ? bytes(rnd, 200) : null,
                    exists ? sequence(rnd) : 0, exists ? sequence(rnd) : 0, sequence(rnd),
                    exists && rnd.nextBoolean() ? Key.wrap(bytes(rnd, 40)) : null));
        }
        return out;
    }

    static List<TxnId> txnIds(Random rnd) {
        List<TxnId> out = new ArrayList<>();
        for (int i = rnd.nextInt(6); i > 0; i--) out.add(txnId(rnd));
        return out;
    }

    /** Non-negative, spread over every varint length. */
    static long sequence(Random rnd) {
        return rnd.nextInt(16) == 0 ? Long.MAX_VALUE - rnd.nextInt(3) : rnd.nextLong(1L << rnd.nextInt(63));
    }

    static VectorClock clock(Random rnd, int partitions) {
        long[] e = new long[partitions];
        for (int i = 0; i < partitions; i++) e[i] = sequence(rnd);
        return VectorClock.of(e);
    }

    static TxnId txnId(Random rnd) {
        return new TxnId(rnd.nextLong(), rnd.nextLong());
    }

    static Outcome outcome(Random rnd) {
        return Outcome.values()[rnd.nextInt(Outcome.values().length)];
    }

    static List<Integer> participants(Random rnd, int partitions) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < partitions; i++) if (rnd.nextBoolean()) out.add(i);
        return out;
    }

    static byte[] bytes(Random rnd, int maxLength) {
        int n = rnd.nextInt(32) == 0 ? rnd.nextInt(64 << 10) : rnd.nextInt(maxLength + 1);
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    static List<Key> keys(Random rnd) {
        List<Key> out = new ArrayList<>();
        int n = rnd.nextInt(10) == 0 ? rnd.nextInt(2000) : rnd.nextInt(8);
        for (int i = 0; i < n; i++) out.add(Key.wrap(bytes(rnd, 40)));
        return out;
    }

    static List<KeyValue> writes(Random rnd) {
        List<KeyValue> out = new ArrayList<>();
        int n = rnd.nextInt(8);
        for (int i = 0; i < n; i++) out.add(new KeyValue(Key.wrap(bytes(rnd, 40)), bytes(rnd, 200)));
        return out;
    }

    static List<ReadValue> readValues(Random rnd) {
        List<ReadValue> out = new ArrayList<>();
        int n = rnd.nextInt(8);
        for (int i = 0; i < n; i++) {
            boolean exists = rnd.nextInt(4) != 0;
            out.add(new ReadValue(Key.wrap(bytes(rnd, 40)), exists ? bytes(rnd, 200) : null,
                    exists ? sequence(rnd) : 0));
        }
        return out;
    }

    static String randomText(Random rnd) {
        StringBuilder sb = new StringBuilder();
        int n = rnd.nextInt(60);
        for (int i = 0; i < n; i++) sb.appendCodePoint(rnd.nextInt(4) == 0 ? 0x80 + rnd.nextInt(0x2000) : 0x20 + rnd.nextInt(95));
        return sb.toString();
    }

    /** Entries ascending by partition, as tree stabilization sends them. */
    private static List<Settled> settled(Random rnd, int partitions) {
        List<Settled> out = new java.util.ArrayList<>();
        for (int p = 0; p < partitions; p++) if (rnd.nextInt(3) == 0) out.add(new Settled(p, sequence(rnd)));
        return out;
    }

    /** A clock relative to a random base: ascending partitions, any values. */
    private static BasedClock based(Random rnd, int partitions) {
        List<Settled> entries = settled(rnd, partitions);
        return BasedClock.of(rnd.nextBoolean() ? 0 : sequence(rnd), entries.stream().mapToInt(Settled::partition).toArray(),
                entries.stream().mapToLong(Settled::settled).toArray());
    }

    /** Signed differences at ascending partitions. */
    private static ClockDiff diff(Random rnd, int partitions) {
        List<Settled> entries = settled(rnd, partitions);
        return ClockDiff.of(entries.stream().mapToInt(Settled::partition).toArray(),
                entries.stream().mapToLong(e -> rnd.nextBoolean() ? e.settled() : -e.settled()).toArray());
    }
}
