package io.fastccs.protocol;

import io.fastccs.protocol.partition.PartitionInternals;
import io.fastccs.protocol.partition.Partition;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import static io.fastccs.protocol.TestCluster.MAX_KEYS;
import static io.fastccs.protocol.TestCluster.MAX_KEY_BYTES;
import static io.fastccs.protocol.TestCluster.MAX_VALUE_BYTES;
import static io.fastccs.protocol.TestCluster.bytes;
import static io.fastccs.protocol.TestCluster.clock;
import static io.fastccs.protocol.TestCluster.str;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad client input gets a clear ErrorReply and leaves no trace; the partition keeps serving. All requests go to
 * partition 0 of 3. Read cases carry a clock with entries for the other partitions, to check that a refused read
 * does not merge it either.
 */
class InputValidationTest {
    /** A clock a refused request must not merge into svc. */
    private static final VectorClock CLIENT_CLOCK = clock(0, 3, 3);

    record Bad(String name, Function<TestCluster, ClientRequest> request, ErrorCode code, int owner) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Bad invalid(String name, Function<TestCluster, ClientRequest> request) {
        return new Bad(name, request, ErrorCode.INVALID_REQUEST, -1);
    }

    private static WriteRequest write(TestCluster c, int coordinator, List<Integer> participants, VectorClock clock,
                                      KeyValue... writes) {
        return new WriteRequest(c.nextRequestId(), c.newTxnId(), coordinator, participants, List.of(writes), clock, 0);
    }

    private static WriteRequest write(TestCluster c, KeyValue... writes) {
        return write(c, 0, List.of(0), CLIENT_CLOCK, writes);
    }

    private static KeyValue kv(Key k, String v) {
        return new KeyValue(k, v == null ? null : bytes(v));
    }

    private static KeyValue kv(TestCluster c, int i) {
        return kv(c.key(0, i), "v" + i);
    }

    private static List<Key> ownKeys(TestCluster c, int count) {
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) keys.add(c.key(0, i));
        return keys;
    }

    private static final Key EMPTY_KEY = Key.wrap(new byte[0]);

    static Stream<Bad> badWrites() {
        return Stream.of(
                invalid("write: empty key", c -> write(c, kv(EMPTY_KEY, "v"))),
                invalid("write: key over maxKeyBytes", c -> write(c, kv(c.keyOfLength(0, MAX_KEY_BYTES + 1), "v"))),
                invalid("write: empty value", c -> write(c, new KeyValue(c.key(0, 0), new byte[0]))),
                invalid("write: null value", c -> write(c, kv(c.key(0, 0), null))),
                invalid("write: value over maxValueBytes", c -> write(c, new KeyValue(c.key(0, 0), new byte[MAX_VALUE_BYTES + 1]))),
                invalid("write: too many keys", c -> write(c, kv(c, 0), kv(c, 1), kv(c, 2), kv(c, 3), kv(c, 4))),
                invalid("write: duplicate key", c -> write(c, kv(c.key(0, 0), "a"), kv(c.key(0, 0), "b"))),
                new Bad("write: key owned by partition 1", c -> write(c, kv(c, 0), kv(c.key(1, 0), "v")), ErrorCode.NOT_OWNER, 1),
                new Bad("write: key owned by partition 2", c -> write(c, kv(c.key(2, 0), "v")), ErrorCode.NOT_OWNER, 2),
                invalid("write: no writes", c -> write(c)),
                invalid("write: clock of 2 entries", c -> write(c, 0, List.of(0), VectorClock.zero(2), kv(c, 0))),
                invalid("write: clock of 4 entries", c -> write(c, 0, List.of(0), VectorClock.zero(4), kv(c, 0))),
                invalid("write: clock entry beyond any sequence number",
                        c -> write(c, 0, List.of(0), clock(0, PartitionInternals.MAX_CLOCK_ENTRY + 1, 0), kv(c, 0))),
                invalid("write: participants do not include self", c -> write(c, 1, List.of(1, 2), CLIENT_CLOCK, kv(c, 0))),
                invalid("write: coordinator not a participant", c -> write(c, 1, List.of(0), CLIENT_CLOCK, kv(c, 0))),
                invalid("write: coordinator out of range", c -> write(c, 7, List.of(0), CLIENT_CLOCK, kv(c, 0))),
                invalid("write: duplicated participant", c -> write(c, 0, List.of(0, 0), CLIENT_CLOCK, kv(c, 0))),
                invalid("write: participant too large", c -> write(c, 0, List.of(0, 3), CLIENT_CLOCK, kv(c, 0))),
                invalid("write: negative participant", c -> write(c, 0, List.of(0, -1), CLIENT_CLOCK, kv(c, 0))),
                invalid("write: more participants than partitions", c -> write(c, 0, List.of(0, 1, 2, 0), CLIENT_CLOCK, kv(c, 0))),
                invalid("write: no participants", c -> write(c, 0, List.of(), CLIENT_CLOCK, kv(c, 0))));
    }

    /** The same key problems for both read rounds. */
    static Stream<Bad> badReads() {
        List<Bad> out = new ArrayList<>();
        for (int round = 1; round <= 2; round++) {
            final int r = round;
            Function<List<Key>, Function<VectorClock, Function<TestCluster, ClientRequest>>> read = keys -> clk -> c ->
                    r == 1 ? new FirstRoundRead(c.nextRequestId(), keys, clk)
                            : new SecondRoundRead(c.nextRequestId(), keys, clk, c.now());
            String p = "round " + r + ": ";
            out.add(invalid(p + "no keys", c -> read.apply(List.of()).apply(CLIENT_CLOCK).apply(c)));
            out.add(invalid(p + "empty key", c -> read.apply(List.of(c.key(0, 0), EMPTY_KEY)).apply(CLIENT_CLOCK).apply(c)));
            out.add(invalid(p + "key over maxKeyBytes",
                    c -> read.apply(List.of(c.keyOfLength(0, MAX_KEY_BYTES + 1))).apply(CLIENT_CLOCK).apply(c)));
            out.add(invalid(p + "too many keys", c -> read.apply(ownKeys(c, MAX_KEYS + 1)).apply(CLIENT_CLOCK).apply(c)));
            out.add(invalid(p + "duplicate key",
                    c -> read.apply(List.of(c.key(0, 0), c.key(0, 1), c.key(0, 0))).apply(CLIENT_CLOCK).apply(c)));
            out.add(new Bad(p + "key owned by partition 2",
                    c -> read.apply(List.of(c.key(0, 0), c.key(2, 0))).apply(CLIENT_CLOCK).apply(c), ErrorCode.NOT_OWNER, 2));
            out.add(invalid(p + "clock of 2 entries", c -> read.apply(List.of(c.key(0, 0))).apply(clock(0, 3)).apply(c)));
            out.add(invalid(p + "clock of 4 entries", c -> read.apply(List.of(c.key(0, 0))).apply(clock(0, 3, 3, 3)).apply(c)));
            out.add(invalid(p + "clock entry beyond any sequence number",
                    c -> read.apply(List.of(c.key(0, 0))).apply(clock(0, 3, PartitionInternals.MAX_CLOCK_ENTRY + 1)).apply(c)));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource({"badWrites", "badReads"})
    void badRequestGetsAClearErrorStoresNothingAndThePartitionKeepsServing(Bad bad) {
        TestCluster c = new TestCluster(3);
        ClientRequest request = bad.request().apply(c);
        ErrorReply e = c.send(0, request).error();

        assertThat(e.requestId()).isEqualTo(request.requestId());
        assertThat(e.code()).isEqualTo(bad.code());
        assertThat(e.owner()).isEqualTo(bad.owner());
        assertThat(e.message()).isNotBlank();
        Partition p = c.p(0);
        assertThat(p.metrics().requestsRefused()).isEqualTo(1);
        assertThat(p.lastSequence()).isZero();
        assertThat(p.pendingCount()).isZero();
        assertThat(p.snapshot()).as("the refused request's clock was not merged").isEqualTo(VectorClock.zero(3));
        assertThat(c.disks[0].transactionRecordCount()).isZero();
        assertThat(c.disks[0].versionCount()).isZero();
        assertThat(c.disks[0].decisionCount()).isZero();
        assertThat(c.inFlight).as("no peer message").isEmpty();

        WriteReply ok = c.writeLocal(c.key(0, 0), "ok").write();
        assertThat(ok.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(ok.commitClock()).isEqualTo(clock(1, 0, 0));
        assertThat(str(c.readNow(0, c.key(0, 0)))).isEqualTo("ok");
    }

    @Test
    void limitsThemselvesAreAccepted() {
        TestCluster c = new TestCluster(3);
        Key longest = c.keyOfLength(0, MAX_KEY_BYTES);
        List<KeyValue> writes = new ArrayList<>();
        writes.add(new KeyValue(longest, new byte[MAX_VALUE_BYTES]));
        for (int i = 1; i < MAX_KEYS; i++) writes.add(kv(c, i));
        WriteReply r = c.send(0, write(c, writes.toArray(new KeyValue[0]))).write();
        assertThat(r.outcome()).isEqualTo(Outcome.COMMITTED);
        List<Key> keys = new ArrayList<>();
        for (KeyValue kv : writes) keys.add(kv.key());
        var read = c.send(0, new FirstRoundRead(c.nextRequestId(), keys, CLIENT_CLOCK)).read();
        assertThat(read.values()).allMatch(v -> v.exists());
        assertThat(read.values().get(0).value()).hasSize(MAX_VALUE_BYTES);
        assertThat(c.p(0).metrics().requestsRefused()).isZero();
    }

    @Test
    void inconsistentParticipantListsNeverLeadToAnAcknowledgedButMissingWrite() {
        TestCluster c = new TestCluster(3);
        TxnId id = c.newTxnId();
        Key a = c.key(0, 0), b = c.key(1, 0), d = c.key(2, 0);
        VectorClock z = VectorClock.zero(3);
        List<TestCluster.ReplyBox> boxes = new ArrayList<>();
        boxes.add(c.send(0, new WriteRequest(c.nextRequestId(), id, 0, List.of(0, 1), List.of(kv(a, "x")), z, 0)));
        boxes.add(c.send(2, new WriteRequest(c.nextRequestId(), id, 0, List.of(0, 2), List.of(kv(d, "x")), z, 0)));
        c.deliverAll();
        boxes.add(c.send(1, new WriteRequest(c.nextRequestId(), id, 0, List.of(0, 1), List.of(kv(b, "x")), z, 0)));
        c.deliverAll();
        c.tickUntil(3 * TestCluster.DECISION_RETENTION, TestCluster.CHECK_INTERVAL, 0, 1, 2);
        c.deliverAll();
        Key[] keyOf = {a, b, d};
        for (TestCluster.ReplyBox box : boxes)
            for (var r : box.responses)
                if (r instanceof WriteReply w && w.outcome() == Outcome.COMMITTED)
                    assertThat(c.disks[box.partition].versions(keyOf[box.partition]))
                            .as("partition %d replied COMMITTED, so its write must be there", box.partition).hasSize(1);
    }

    @Test
    void notOwnerNamesTheOwnerOfTheFirstForeignKey() {
        TestCluster c = new TestCluster(3);
        for (int owner = 1; owner < 3; owner++) {
            ErrorReply e = c.read1(0, VectorClock.zero(3), c.key(0, 0), c.key(owner, 0)).error();
            assertThat(e.code()).isEqualTo(ErrorCode.NOT_OWNER);
            assertThat(e.owner()).isEqualTo(owner);
            assertThat(c.topology.ownerOf(c.key(owner, 0))).isEqualTo(owner);
        }
    }
}
