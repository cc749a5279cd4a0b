package io.fastccs.protocol;

import io.fastccs.core.primitives.Key;
import io.fastccs.protocol.TestCluster.Envelope;
import io.fastccs.protocol.TestCluster.Txn;
import io.fastccs.protocol.messages.Stabilize;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fastccs.protocol.TestCluster.HEARTBEAT;
import static io.fastccs.protocol.TestCluster.STABILIZATION_INTERVAL;
import static io.fastccs.protocol.TestCluster.clock;
import static io.fastccs.protocol.TestCluster.str;
import static io.fastccs.protocol.TestCluster.type;
import static org.assertj.core.api.Assertions.assertThat;

/** Stabilization (section 3.3.3): partitions exchange their settled prefix, svc[from] is a max-merge. */
class StabilizationTest {

    @Test
    void stabilizeRaisesSvcOfTheSenderAndNeverLowersIt() {
        TestCluster c = new TestCluster(3);
        c.p(0).onPeerMessage(1, new Stabilize(1, 5));
        assertThat(c.p(0).snapshot()).isEqualTo(clock(0, 5, 0));
        c.p(0).onPeerMessage(1, new Stabilize(1, 3)); // late, reordered
        assertThat(c.p(0).snapshot()).isEqualTo(clock(0, 5, 0));
        c.p(0).onPeerMessage(2, new Stabilize(2, 4));
        assertThat(c.p(0).snapshot()).isEqualTo(clock(0, 5, 4));
    }

    @Test
    void stabilizeClaimingAnotherSenderIsIgnored() {
        TestCluster c = new TestCluster(3);
        c.p(0).onPeerMessage(1, new Stabilize(2, 5));
        c.p(0).onPeerMessage(2, new Stabilize(1, 5));
        c.p(0).onPeerMessage(1, new Stabilize(0, 5)); // claims to be the receiver itself
        assertThat(c.p(0).snapshot()).isEqualTo(clock(0, 0, 0));
    }

    @Test
    void peerMessagesFromItselfOrFromOutsideTheClusterAreIgnored() {
        TestCluster c = new TestCluster(3);
        c.p(0).onPeerMessage(0, new Stabilize(0, 5));
        c.p(0).onPeerMessage(3, new Stabilize(3, 5));
        c.p(0).onPeerMessage(-1, new Stabilize(-1, 5));
        assertThat(c.p(0).snapshot()).isEqualTo(clock(0, 0, 0));
        assertThat(c.p(0).lastSequence()).isZero();
    }

    @Test
    void tickAnnouncesOnlyTheSettledPrefixToEveryPeer() {
        TestCluster c = new TestCluster(3);
        Key k1 = c.key(0, 0), k2 = c.key(0, 1);
        Txn t1 = c.txn(1, k1, "t1", c.key(1, 0), "t1");
        t1.sendTo(0);               // sn 1, undecided
        c.writeLocal(k2, "t2");     // sn 2, committed but behind sn 1
        c.tick(0);
        List<Envelope> sent = c.inFlight(type(Stabilize.class));
        assertThat(sent).extracting(Envelope::to).containsExactlyInAnyOrder(1, 2);
        assertThat(sent).extracting(e -> (Stabilize) e.message()).containsOnly(new Stabilize(0, 0));
        c.drop(type(Stabilize.class));

        t1.sendTo(1);
        c.deliverAll(TestCluster.about(t1.id));
        c.advanceTo(STABILIZATION_INTERVAL);
        c.tick(0);
        assertThat(c.inFlight(type(Stabilize.class))).extracting(e -> (Stabilize) e.message())
                .containsOnly(new Stabilize(0, 2)).hasSize(2);
    }

    @Test
    void unchangedPrefixIsRepeatedOnlyAtTheHeartbeat() {
        TestCluster c = new TestCluster(2);
        c.tick(0);
        assertThat(c.drop(type(Stabilize.class))).isEqualTo(1);
        c.tickUntil(HEARTBEAT - 1, STABILIZATION_INTERVAL, 0);
        assertThat(c.inFlight(type(Stabilize.class))).as("nothing changed, heartbeat not due").isEmpty();
        c.advanceTo(HEARTBEAT);
        c.tick(0);
        assertThat(c.inFlight(type(Stabilize.class))).hasSize(1);
        c.drop(type(Stabilize.class));
        // A change is announced at the next stabilization interval.
        c.writeLocal(c.key(0, 0), "x");
        c.advanceTo(HEARTBEAT + STABILIZATION_INTERVAL);
        c.tick(0);
        assertThat(c.inFlight(type(Stabilize.class))).extracting(e -> (Stabilize) e.message())
                .containsExactly(new Stabilize(0, 1));
    }

    @Test
    void stabilizationFromTicksMakesACommittedMultiPartitionWriteVisibleEverywhere() {
        TestCluster c = new TestCluster(3);
        Key a = c.key(0, 0), b = c.key(1, 0), d = c.key(2, 0);
        Txn t = c.txn(2, a, "t", b, "t", d, "t");
        for (int p = 0; p < 3; p++) t.sendTo(p);
        c.deliverAll();
        assertThat(str(c.readNow(0, a))).isNull();
        c.tickAll();
        c.deliverAll(type(Stabilize.class));
        assertThat(str(c.readNow(0, a))).isEqualTo("t");
        assertThat(str(c.readNow(1, b))).isEqualTo("t");
        assertThat(str(c.readNow(2, d))).isEqualTo("t");
        for (int p = 0; p < 3; p++) assertThat(c.p(p).snapshot()).isEqualTo(clock(1, 1, 1));
    }
}
