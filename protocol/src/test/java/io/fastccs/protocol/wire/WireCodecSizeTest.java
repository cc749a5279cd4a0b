package io.fastccs.protocol.wire;

import io.fastccs.core.wire.WireCodec;
import io.fastccs.baselines.eiger.EigerMessages;
import io.fastccs.baselines.eventual.EventualMessages;
import io.fastccs.baselines.eventual.EventualStamp;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.baselines.wren.WrenMessages;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Prints what the common messages cost on the wire, and keeps the compact encoding from regressing. */
class WireCodecSizeTest {

    @Test
    void printsEncodedSizes() {
        List<Key> fiveKeys = new ArrayList<>();
        for (int i = 0; i < 5; i++) fiveKeys.add(Key.of("user:%05d".formatted(i))); // 10 bytes each
        assertThat(fiveKeys.get(0).length()).isEqualTo(10);

        VectorClock smallEntries = VectorClock.of(3, 0, 7, 12, 1, 0, 5, 9);
        VectorClock millionEntries = WireTestMessages.clockOf(8, i -> 1_000_000L + i * 1_234);
        int readSmall = WireCodec.encodedSize(new FirstRoundRead(123_456, fiveKeys, smallEntries));
        int readMillion = WireCodec.encodedSize(new FirstRoundRead(123_456, fiveKeys, millionEntries));
        int stabilize = WireCodec.encodedSize(new Stabilize(3, 1_000_000));

        System.out.printf("wire size: FirstRoundRead, 5 keys of 10 B, 8-entry clock: %d B (entries < 64), "
                + "%d B (entries ~10^6)%n", readSmall, readMillion);
        System.out.printf("wire size: Stabilize(3, 10^6): %d B%n", stabilize);
        for (long entry : new long[]{0, 63, 64, 8_191, 1_000_000, 1L << 40, Long.MAX_VALUE})
            System.out.printf("wire size: clock entry %d: %.2f B per entry%n", entry, perEntryCost(entry));

        assertThat(readSmall).isLessThan(5 * 11 + 8 + 16); // payload + one byte per clock entry + framing
        assertThat(stabilize).isLessThanOrEqualTo(12);
        assertThat(perEntryCost(63)).isEqualTo(1.0);
        assertThat(perEntryCost(1_000_000)).isEqualTo(3.0);
    }

    /**
     * The other protocols' typical messages (5 keys of 10 B, 100-B values, real clock and time values): their frames
     * plus the transport's 4-byte length prefix (what the simulator counts), and how much of it is keys and values.
     * Prints only.
     */
    @Test
    void printsTheSizesOfTheOtherProtocolsTypicalMessages() {
        System.out.println("wire size, other protocols (typical messages): frame + 4, of which keys and values");
        for (Message m : typicalOtherProtocolMessages()) {
            String name = m.getClass().getEnclosingClass().getSimpleName().replace("Messages", "") + "." + m.getClass().getSimpleName();
            System.out.printf("  %-28s %8d B  payload %8d B%n", name, WireCodec.encodedSize(m) + 4, m.payloadBytes());
        }
    }

    static List<Message> typicalOtherProtocolMessages() {
        List<Key> keys = new ArrayList<>();
        List<KeyValue> writes = new ArrayList<>();
        List<ReadValue> values = new ArrayList<>();
        long hlc = WireTestMessages.HLC;
        for (int i = 0; i < 5; i++) {
            Key k = Key.of("user:%05d".formatted(i));
            keys.add(k);
            writes.add(new KeyValue(k, new byte[100]));
            values.add(new ReadValue(k, new byte[100], hlc - 1000 * i));
        }
        List<ReadValue> lamportValues = new ArrayList<>();
        List<EigerMessages.KeyVersion> versions = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            lamportValues.add(new ReadValue(keys.get(i), new byte[100], 150_000 + i));
            versions.add(new EigerMessages.KeyVersion(keys.get(i), new byte[100], ((150_000L + i) << 16) | 3,
                    150_000 + i, 150_010, Key.of("user:00042")));
        }
        TxnId txn = new TxnId(0x1234_5678_9abc_def0L, 4_711);
        long id = 1_234_567, clock = 150_000;
        List<EigerMessages.Dep> deps = List.of(new EigerMessages.Dep(Key.of("user:00042"), (clock << 16) | 3),
                new EigerMessages.Dep(Key.of("user:00043"), (clock << 16) | 5));
        return List.of(
                new EventualMessages.Read(id, keys),
                new EventualMessages.ReadAnswer(id, lamportValues, clock),
                new EventualMessages.Write(id, txn, new EventualStamp(clock, txn.client(), txn.sequence()), writes),
                new EventualMessages.WriteAnswer(id, clock),
                new EigerMessages.Read1(id, clock, keys),
                new EigerMessages.ReadAt(id, clock, keys, clock - 5),
                new EigerMessages.CohortWrite(id, clock, txn, 3, Key.of("user:00042"), writes),
                new EigerMessages.CoordWrite(id, clock, txn, Key.of("user:00042"), writes, List.of(3, 5, 7), deps),
                new EigerMessages.OutcomeQuery(id, clock, txn),
                new EigerMessages.ReadReply(id, clock, versions, false),
                new EigerMessages.WriteAck(id, clock),
                new EigerMessages.WriteReply(id, clock, Outcome.COMMITTED, (clock << 16) | 3),
                new EigerMessages.OutcomeReply(id, clock, Outcome.COMMITTED, (clock << 16) | 3),
                new EigerMessages.YesVote(clock, txn, clock - 2),
                new EigerMessages.Commit(clock, txn, clock - 1),
                new EigerMessages.Abort(clock, txn),
                new EigerMessages.Ack(clock, txn),
                new EigerMessages.CheckTxn(clock, List.of(txn, new TxnId(txn.client(), 4_712)), clock - 5),
                new EigerMessages.CheckTxnReply(clock, List.of(new EigerMessages.TxnStatus(txn, Outcome.COMMITTED, clock - 1),
                        new EigerMessages.TxnStatus(new TxnId(txn.client(), 4_712), Outcome.UNDECIDED, 0))),
                new WrenMessages.Start(id, hlc),
                new WrenMessages.StartReply(id, hlc),
                new WrenMessages.Slice(id, keys, hlc),
                new WrenMessages.SliceReply(id, values),
                new WrenMessages.CommitRequest(id, txn, hlc, hlc + 10, writes),
                new WrenMessages.OutcomeRequest(id, txn),
                new WrenMessages.CommitReply(id, txn, Outcome.COMMITTED, hlc + 20),
                new WrenMessages.Prepare(txn, hlc + 10, writes.subList(0, 2)),
                new WrenMessages.PrepareReply(txn, hlc + 15),
                new WrenMessages.Commit(txn, hlc + 20),
                new WrenMessages.Abort(txn),
                new WrenMessages.CheckTxn(txn),
                new WrenMessages.Lst(hlc));
    }

    /** The bytes one more clock entry adds, from Commits with 1024 and 2048 entries of {@code entry}. */
    private static double perEntryCost(long entry) {
        int small = WireCodec.encodedSize(new Commit(WireTestMessages.TXN, WireTestMessages.clockOf(1024, i -> entry), 0));
        int large = WireCodec.encodedSize(new Commit(WireTestMessages.TXN, WireTestMessages.clockOf(2048, i -> entry), 0));
        return (large - small) / 1024.0;
    }
}
