package io.fastccs.protocol;

import io.fastccs.protocol.partition.PartitionInternals;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.protocol.messages.Refused;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.KeyType;
import io.fastccs.core.typed.Operands;
import io.fastccs.core.typed.TypedValues;
import io.fastccs.core.primitives.WriteKind;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import static io.fastccs.protocol.TestCluster.GC_INTERVAL;
import static io.fastccs.protocol.TestCluster.RETENTION;
import static io.fastccs.protocol.TestCluster.type;
import static org.assertj.core.api.Assertions.assertThat;

/** Commutative operations in write-only transactions: counters, max registers, add-wins sets, top-k (issue 15). */
class CommutativeOperationsTest {
    private final TestCluster c = new TestCluster(2);
    private final Key k = c.key(0, 0), j = c.key(1, 0);
    private final Random random = new Random(1);

    private static KeyValue add(Key key, long delta) {
        return new KeyValue(key, Operands.number(delta), WriteKind.ADD);
    }

    private static KeyValue setAdd(Key key, String element) {
        return new KeyValue(key, element.getBytes(StandardCharsets.UTF_8), WriteKind.SET_ADD);
    }

    private static KeyValue setRemove(Key key, String element) {
        return new KeyValue(key, element.getBytes(StandardCharsets.UTF_8), WriteKind.SET_REMOVE);
    }

    private WriteTransaction write(ClientSession s, KeyValue... operations) {
        WriteTransaction w = c.runWrite(s.write(List.of(operations), random));
        c.stabilizeAll();
        return w;
    }

    private ReadValue read(ClientSession s, Key key) {
        ReadTransaction r = c.runRead(s.read(List.of(key)));
        assertThat(r.succeeded()).as("read %s: %s", key, r.failure()).isTrue();
        return r.result().values().get(key);
    }

    private static List<String> members(ReadValue v) {
        return TypedValues.set(v.value()).stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void concurrentAddsAreAllCounted() {
        ClientSession a = c.session(1), b = c.session(2);
        assertThat(write(a, add(k, 1), add(j, 10)).outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(write(b, add(k, 2)).outcome()).isEqualTo(Outcome.COMMITTED); // b never saw a's add
        assertThat(write(a, add(k, 4)).outcome()).isEqualTo(Outcome.COMMITTED);
        ReadValue v = read(c.session(3), k);
        assertThat(v.type()).isEqualTo(KeyType.COUNTER);
        assertThat(TypedValues.counter(v.value())).isEqualTo(7);
        assertThat(TypedValues.counter(read(c.session(3), j).value())).isEqualTo(10);
    }

    @Test
    void aWrongTypedOperationIsRefusedAndItsTransactionAbortsAtOnce() {
        ClientSession a = c.session(1);
        write(a, add(k, 5), setAdd(j, "x"));
        // A put on the counter k, with a valid set add on j at the other partition, coordinated by the refusing one or not.
        for (int coordinator = 0; coordinator < 2; coordinator++) {
            WriteTransaction w = a.write(List.of(new KeyValue(k, new byte[]{1}), setAdd(j, "z")), new FixedChoice(coordinator));
            List<TestCluster.ReplyBox> boxes = c.send(w.start());
            if (coordinator == 1) assertThat(c.inFlight(type(Refused.class))).as("partition 0 tells the coordinator").hasSize(1);
            c.deliverAll();
            TestCluster.feed(boxes, w::onResponse);
            assertThat(w.isFinished()).isTrue();
            assertThat(w.outcome()).isNotEqualTo(Outcome.COMMITTED);
            ErrorReply e = w.failure();
            assertThat(e).isNotNull();
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
            assertThat(e.message()).contains("is a counter (add)").contains("PUT refused");
            assertThat(c.p(0).pendingCount() + c.p(1).pendingCount()).as("nothing left prepared").isZero();
        }
        c.stabilizeAll();
        assertThat(TypedValues.counter(read(c.session(3), k).value())).isEqualTo(5);
        assertThat(members(read(c.session(3), j))).containsExactly("x");
        assertThat(c.p(0).metrics().writesRefused()).isEqualTo(2);
    }

    @Test
    void aRemoveRemovesTheAddsItsSessionSawAndAConcurrentAddWins() {
        ClientSession a = c.session(1), b = c.session(2);
        write(a, setAdd(k, "x"), setAdd(j, "y"));
        write(b, setRemove(k, "x")); // b never saw x: its remove removes nothing
        assertThat(members(read(c.session(3), k))).containsExactly("x");
        ClientSession seer = c.session(4);
        assertThat(members(read(seer, k))).containsExactly("x");
        write(seer, setRemove(k, "x"));
        assertThat(members(read(c.session(5), k))).isEmpty();
        write(a, setAdd(k, "x")); // added again after the remove
        assertThat(members(read(c.session(5), k))).containsExactly("x");
    }

    @Test
    void maxAndTopKFoldTheirOperations() {
        ClientSession a = c.session(1), b = c.session(2);
        write(a, new KeyValue(k, Operands.number(3), WriteKind.MAX));
        write(b, new KeyValue(k, Operands.number(9), WriteKind.MAX));
        write(a, new KeyValue(k, Operands.number(5), WriteKind.MAX));
        assertThat(TypedValues.max(read(c.session(3), k).value())).isEqualTo(9);
        for (String[] insert : new String[][]{{"p", "5"}, {"q", "7"}, {"p", "9"}, {"r", "1"}, {"s", "7"}})
            write(a, new KeyValue(j, Operands.topk(2, Long.parseLong(insert[1]), insert[0].getBytes(StandardCharsets.UTF_8)),
                    WriteKind.TOPK_INSERT));
        List<TypedValues.Scored> top = TypedValues.topk(read(c.session(3), j).value());
        assertThat(top).extracting(s -> new String(s.item(), StandardCharsets.UTF_8) + ":" + s.score()).containsExactly("p:9", "q:7");
        WriteTransaction otherK = c.runWrite(a.write(List.of(new KeyValue(j, Operands.topk(3, 1, new byte[]{1}),
                WriteKind.TOPK_INSERT)), random));
        assertThat(otherK.failure().message()).contains("top-2");
    }

    @Test
    void garbageCollectionFoldsOldOperationsIntoOneBaseAndReadsAgree() {
        ClientSession a = c.session(1);
        long sum = 0;
        for (int i = 1; i <= 20; i++) {
            write(a, add(k, i), setAdd(j, "e" + i));
            sum += i;
            if (i % 5 == 0) write(a, setRemove(j, "e" + (i - 1)));
        }
        assertThat(c.disks[0].versions(k)).hasSize(20);
        c.tickUntil(c.now() + 2 * RETENTION + 2 * GC_INTERVAL, GC_INTERVAL, 0, 1);
        assertThat(c.disks[0].versions(k)).singleElement().satisfies(v -> assertThat(v.kind()).isEqualTo(WriteKind.FOLDED));
        assertThat(c.disks[1].versions(j)).singleElement().satisfies(v -> assertThat(v.kind()).isEqualTo(WriteKind.FOLDED));
        assertThat(TypedValues.counter(read(c.session(3), k).value())).isEqualTo(sum);
        List<String> expected = new java.util.ArrayList<>();
        for (int i = 1; i <= 20; i++) if (!(i % 5 == 4)) expected.add("e" + i);
        assertThat(members(read(c.session(3), j))).containsExactlyInAnyOrderElementsOf(expected);
        // A remove after the fold still removes an add folded into the base, one its session saw.
        ClientSession seer = c.session(6);
        read(seer, j);
        write(seer, setRemove(j, "e1"));
        expected.remove("e1");
        assertThat(members(read(c.session(3), j))).containsExactlyInAnyOrderElementsOf(expected);
        write(a, add(k, 100));
        assertThat(TypedValues.counter(read(c.session(3), k).value())).isEqualTo(sum + 100);
    }

    /**
     * A hot counter's reads start from a running fold of what was within svc (RunningFolds) and fold only the rest; a
     * round two at an older clock than the running fold's folds the operations one by one, and both agree with a fold
     * of every operation.
     */
    @Test
    void aHotCounterIsReadFromItsRunningFoldAndOlderClocksStillFoldExactly() {
        ClientSession a = c.session(1);
        for (int i = 0; i < PartitionInternals.RUNNING_FOLD_MIN_VERSIONS; i++) write(a, add(k, 1));
        io.fastccs.protocol.messages.ReadReply old = c.read1(0, io.fastccs.core.primitives.VectorClock.zero(2), k).read();
        assertThat(TypedValues.counter(old.values().get(0).value())).isEqualTo(PartitionInternals.RUNNING_FOLD_MIN_VERSIONS);
        long expected = PartitionInternals.RUNNING_FOLD_MIN_VERSIONS;
        for (int i = 0; i < 50; i++) { // past the point where the running fold catches up with svc, several times
            write(a, add(k, 2), add(j, 1)); // also j, so that round one's clocks involve both partitions
            expected += 2;
            assertThat(TypedValues.counter(read(c.session(3), k).value())).isEqualTo(expected);
        }
        assertThat(c.p(0).metrics().runningFoldReads()).isGreaterThan(40);
        // Round two at the first read's snapshot: below the running fold's clock, so every operation is looked at.
        io.fastccs.protocol.messages.ReadReply again = c.read2(0, old.snapshot(), old.serverTime(), k).read();
        assertThat(TypedValues.counter(again.values().get(0).value())).isEqualTo(PartitionInternals.RUNNING_FOLD_MIN_VERSIONS);
    }

    /** Always picks the same coordinator index among the participants. */
    private static final class FixedChoice extends Random {
        private final int index;

        FixedChoice(int index) {
            this.index = index;
        }

        @Override
        public int nextInt(int bound) {
            return Math.min(index, bound - 1);
        }
    }
}
