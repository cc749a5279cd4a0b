package io.fastccs.protocol;

import io.fastccs.core.PartitionConfig;
import io.fastccs.protocol.TestCluster.ReplyBox;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static io.fastccs.protocol.TestCluster.bytes;
import static io.fastccs.protocol.TestCluster.str;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which of two writes of a key wins (docs/design/thesis.md, "The commit time comes first in the arbitration order"):
 * commit time first, so a write that began after another was acknowledged replaces it even when the two are causally
 * unrelated, and commit times grow along causality even when the coordinators' clocks disagree.
 */
class ArbitrationOrderTest {

    private static WriteTransaction write(TestCluster c, ClientSession s, Map<Key, byte[]> writes) {
        WriteTransaction w = c.runWrite(s.write(writes, new SplittableRandom(1)));
        assertThat(w.isConfirmed()).as("write %s confirmed", w.txnId()).isTrue();
        return w;
    }

    private static String readOne(TestCluster c, ClientSession s, Key k) {
        ReadTransaction r = c.runRead(s.read(List.of(k)));
        assertThat(r.succeeded()).isTrue();
        return str(r.result().values().get(k));
    }

    @Test
    void aBlindWriteOfANewSessionReplacesAnOlderWriteWhoseClockHasTheLargerSum() {
        TestCluster c = new TestCluster(3);
        Key k = c.key(0, 0);
        ClientSession busy = c.session(1);
        // Many writes over every partition: the last one's commit clock has large entries everywhere.
        for (int i = 0; i < 20; i++)
            write(c, busy, Map.of(k, bytes("busy" + i), c.key(1, 0), bytes("x" + i), c.key(2, 0), bytes("y" + i)));
        c.stabilizeAll();
        c.advanceTo(c.now() + 1_000);
        ClientSession fresh = c.session(2); // never read anything: its clock is zero
        WriteTransaction later = write(c, fresh, Map.of(k, bytes("fresh")));
        assertThat(later.commitClock().sum()).as("the later write's clock sum").isLessThan(busy.clock().sum());
        c.stabilizeAll();
        assertThat(readOne(c, c.session(3), k)).as("the write that began after the other was acknowledged wins")
                .isEqualTo("fresh");
    }

    /**
     * Partition 0's clock runs 0.5 ms ahead. A write over both partitions coordinated by partition 0 is read by a
     * session, which then writes b alone (partition 1, the slow clock, coordinates): returns the value a new reader
     * of b gets and checks the times.
     */
    private static String readAfterCausallyLaterWrite(TestCluster c, boolean expectStampedAbove) {
        Key a = c.key(0, 0), b = c.key(1, 0);
        c.clockOffset[0] = 500; // within the transaction timeout (1 ms here), beyond which writes are refused
        c.advanceTo(1_000);
        TestCluster.Txn first = c.txn(0, a, "a1", b, "b1");
        ReplyBox at0 = first.sendTo(0);
        first.sendTo(1);
        c.deliverAll();
        long firstTime = at0.write().commitTime();
        c.stabilizeAll();
        ClientSession reader = c.session(2);
        assertThat(readOne(c, reader, b)).isEqualTo("b1");
        assertThat(reader.time()).isEqualTo(firstTime);
        WriteTransaction after = write(c, reader, Map.of(b, bytes("b2")));
        if (expectStampedAbove) assertThat(after.commitTime()).as("stamped above the read").isGreaterThan(firstTime);
        else assertThat(after.commitTime()).as("stamped at the slow coordinator's clock").isLessThan(firstTime);
        c.stabilizeAll();
        return readOne(c, c.session(3), b);
    }

    @Test
    void aWriteIsStampedAboveWhatItsSessionReadEvenThroughACoordinatorWhoseClockIsBehind() {
        assertThat(readAfterCausallyLaterWrite(new TestCluster(2), true)).isEqualTo("b2");
    }

    @Test
    void theBrokenVariantStampsAtTheCoordinatorsClockAndHidesTheCausallyLaterWrite() {
        PartitionConfig broken = TestCluster.defaultConfig().withBugs(Set.of(Bug.COMMIT_TIME_IGNORES_DEPENDENCY));
        assertThat(readAfterCausallyLaterWrite(new TestCluster(2, broken), false))
                .as("a session's write of b hidden behind the value it read").isEqualTo("b1");
    }

    @Test
    void aDependencyTimeBeyondTheTransactionTimeoutIsRefusedAndNothingIsPrepared() {
        TestCluster c = new TestCluster(1);
        Key k = c.key(0, 0);
        c.advanceTo(5_000);
        WriteRequest forged = new WriteRequest(c.nextRequestId(), c.newTxnId(), 0, List.of(0),
                List.of(new io.fastccs.core.messages.KeyValue(k, bytes("v"))), VectorClock.zero(1),
                c.now() + TestCluster.TIMEOUT + 1);
        ReplyBox box = c.send(0, forged);
        assertThat(box.error().code()).isEqualTo(ErrorCode.INVALID_REQUEST);
        assertThat(box.error().message()).contains("dependency time").contains("ahead of this partition's clock");
        assertThat(c.p(0).lastSequence()).isZero();
        // Within the bound it commits, stamped above the dependency.
        WriteRequest ok = new WriteRequest(c.nextRequestId(), c.newTxnId(), 0, List.of(0),
                List.of(new io.fastccs.core.messages.KeyValue(k, bytes("w"))), VectorClock.zero(1), c.now() + 500);
        assertThat(c.send(0, ok).write().commitTime()).isEqualTo(c.now() + 501);
    }
}
