package io.fastccs.protocol;

import io.fastccs.core.primitives.Key;
import io.fastccs.protocol.TestCluster.ReplyBox;
import io.fastccs.protocol.TestCluster.Txn;
import io.fastccs.protocol.messages.ReadReply;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fastccs.protocol.TestCluster.clock;
import static io.fastccs.protocol.TestCluster.str;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that claims a clock beyond anything committed (found by the hostile-input test on the real cluster, issue
 * 7). Entries of other partitions in a client's clock are trusted for that client's own read (it says it saw them
 * settle), but they must not raise what the partition shows to everybody else: otherwise one lying read makes every
 * later reader see a transaction on one partition before its other participants settled it (a fractured read), and
 * a version written with a forged clock becomes visible and spreads its forged entries into honest sessions.
 */
class HostileClockTest {

    @Test
    void aForgedClockInOneReadDoesNotMakeOtherReadersSeeAFracturedTransaction() {
        TestCluster c = new TestCluster(2);
        Key a = c.key(0, 0), b = c.key(1, 0);
        c.writeLocal(a, "old");
        c.writeLocal(b, "old");
        c.stabilizeAll();
        // A transaction stuck on B (its client died): B's later sequence numbers cannot settle for now.
        Txn stuck = c.txn(0, c.key(0, 1), "stuck", c.key(1, 1), "stuck");
        stuck.sendTo(1);
        // T writes a and b: committed on both, settled on A, not on B (behind the stuck one).
        Txn t = c.txn(0, a, "t", b, "t");
        ReplyBox onA = t.sendTo(0);
        t.sendTo(1);
        c.deliverAll(TestCluster.about(t.id));
        assertThat(onA.responses).as("A answers only once every participant voted").isNotEmpty();
        c.stabilizeAll();
        assertThat(str(c.readNow(0, a))).as("ct(T) is not within A's snapshot: B has not settled it").isEqualTo("old");

        // A hostile client reads a with a clock claiming B settled far beyond anything that exists.
        ReadReply hostile = c.read1(0, clock(0, 1L << 40), a).read();
        assertThat(hostile.values()).hasSize(1);

        // An honest client that never heard of T reads a and b: both old, or both T; never a mix.
        ReadTransaction read = c.runRead(c.session(9).read(List.of(a, b)));
        List<String> got = read.result().values().values().stream().map(TestCluster::str).toList();
        assertThat(got).as("an honest read after the forged clock").containsAnyOf("old", "t").hasSize(2);
        assertThat(got.get(0)).as("fractured: %s", got).isEqualTo(got.get(1));
        assertThat(c.p(0).snapshot().get(1)).as("A's settled view of B still comes only from B").isLessThan(1L << 40);
    }

    @Test
    void aVersionWrittenWithAForgedClockStaysInvisibleToHonestReaders() {
        TestCluster c = new TestCluster(2);
        Key a = c.key(0, 0), b = c.key(1, 0);
        c.writeLocal(a, "honest");
        c.stabilizeAll();
        // A write on A alone whose client clock claims B's sequence 2^40: its commit clock carries that entry.
        Txn forged = c.txn(0, clock(0, 1L << 40), a, "forged");
        ReplyBox reply = forged.sendTo(0);
        c.deliverAll();
        assertThat(reply.write().commitClock().get(1)).isEqualTo(1L << 40);
        // The same client then reads with the forged clock: it may see its own version...
        c.read1(0, clock(0, 1L << 40), a).read();
        // ...but nobody else does, and no honest session picks up the forged entry.
        ClientSession honest = c.session(9);
        ReadTransaction read = c.runRead(honest.read(List.of(a, b)));
        assertThat(read.result().values().values()).extracting(TestCluster::str).containsExactly("honest", null);
        assertThat(honest.clock().get(1)).isLessThan(1L << 40);
    }
}
