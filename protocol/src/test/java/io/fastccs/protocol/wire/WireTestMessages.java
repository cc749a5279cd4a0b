package io.fastccs.protocol.wire;

import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.primitives.VectorClock;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.protocol.messages.ErrorCode;
import io.fastccs.protocol.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.KeyValue;
import io.fastccs.protocol.messages.Message;
import io.fastccs.protocol.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.protocol.messages.ReadValue;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.Hello;
import io.fastccs.protocol.messages.HelloReply;
import io.fastccs.protocol.primitives.Protocol;
import io.fastccs.protocol.messages.RingMember;
import io.fastccs.protocol.messages.RingReply;
import io.fastccs.protocol.messages.RingRequest;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;

import java.util.ArrayList;
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
                new WriteRequest(3, TXN, 2, List.of(0, 2), List.of(new KeyValue(Key.of("k"), "v".getBytes())), c3),
                new WriteRequest(4, new TxnId(-1, 0), 0, List.of(), List.of(), VectorClock.zero(1)),
                new WriteRequest(5, TXN, 1023, List.of(1023, 0, 512),
                        List.of(new KeyValue(Key.of("big"), largeValue), new KeyValue(Key.wrap(new byte[0]), new byte[0])),
                        wide),
                new OutcomeQuery(6, TXN),
                new ReadReply(7, List.of(new ReadValue(Key.of("a"), "x".getBytes(), 3),
                        new ReadValue(Key.of("gone"), null, 0),
                        new ReadValue(Key.of("empty"), new byte[0], Long.MAX_VALUE)), c3, big, 99),
                new ReadReply(8, List.of(), wide, wide, Long.MIN_VALUE),
                new ReadReply(9, List.of(new ReadValue(Key.of("large"), largeValue, 1)), c3, c3, 0),
                new WriteReply(10, TXN, Outcome.COMMITTED, c3),
                new WriteReply(11, TXN, Outcome.ABORTED, null),
                new WriteReply(12, TXN, Outcome.UNDECIDED, null),
                new OutcomeReply(13, TXN, Outcome.COMMITTED, wide),
                new OutcomeReply(14, TXN, Outcome.ABORTED, null),
                new ErrorReply(15, ErrorCode.NOT_OWNER, "key user:42 is owned by partition 3", 3),
                ErrorReply.of(16, ErrorCode.INVALID_REQUEST, ""),
                ErrorReply.of(17, ErrorCode.INTERNAL, null),
                ErrorReply.of(18, ErrorCode.SNAPSHOT_EXPIRED, "ünïcødé ✓"),
                new Prepared(TXN, 1, 17, List.of(0, 1, 2)),
                new Prepared(TXN, 0, 0, List.of()),
                new Commit(TXN, c3),
                new Commit(TXN, wide),
                new Abort(TXN),
                new CheckCommit(TXN, 2),
                new Stabilize(0, 0),
                new Stabilize(Integer.MAX_VALUE, Long.MAX_VALUE),
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

    static VectorClock clockOf(int n, Function<Integer, Long> entry) {
        long[] e = new long[n];
        for (int i = 0; i < n; i++) e[i] = entry.apply(i);
        return VectorClock.of(e);
    }

    /** A random valid message of a random type; sizes are mostly small, now and then large. */
    static Message random(Random rnd) {
        int partitions = rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(1024) : 1 + rnd.nextInt(16);
        List<Supplier<Message>> makers = List.of(
                () -> new FirstRoundRead(rnd.nextLong(), keys(rnd), clock(rnd, partitions)),
                () -> new SecondRoundRead(rnd.nextLong(), keys(rnd), clock(rnd, partitions), rnd.nextLong()),
                () -> new WriteRequest(rnd.nextLong(), txnId(rnd), rnd.nextInt(partitions), participants(rnd, partitions),
                        writes(rnd), clock(rnd, partitions)),
                () -> new OutcomeQuery(rnd.nextLong(), txnId(rnd)),
                () -> new ReadReply(rnd.nextLong(), readValues(rnd), clock(rnd, partitions), clock(rnd, partitions),
                        rnd.nextLong()),
                () -> {
                    Outcome o = outcome(rnd);
                    return new WriteReply(rnd.nextLong(), txnId(rnd), o,
                            o == Outcome.COMMITTED ? clock(rnd, partitions) : null);
                },
                () -> {
                    Outcome o = outcome(rnd);
                    return new OutcomeReply(rnd.nextLong(), txnId(rnd), o,
                            o == Outcome.COMMITTED ? clock(rnd, partitions) : null);
                },
                () -> {
                    ErrorCode code = ErrorCode.values()[rnd.nextInt(ErrorCode.values().length)];
                    String message = rnd.nextInt(5) == 0 ? null : randomText(rnd);
                    return new ErrorReply(rnd.nextLong(), code, message,
                            code == ErrorCode.NOT_OWNER ? rnd.nextInt(partitions) : -1);
                },
                () -> new Prepared(txnId(rnd), rnd.nextInt(partitions), sequence(rnd), participants(rnd, partitions)),
                () -> new Commit(txnId(rnd), clock(rnd, partitions)),
                () -> new Abort(txnId(rnd)),
                () -> new CheckCommit(txnId(rnd), rnd.nextInt(partitions)),
                () -> new Stabilize(rnd.nextInt(partitions), sequence(rnd)),
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
}
