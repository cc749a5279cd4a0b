package io.fastccs.protocol;

import io.fastccs.protocol.TestCluster.Envelope;
import io.fastccs.protocol.TestCluster.Txn;
import io.fastccs.protocol.messages.Settled;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.StabilizeDown;
import io.fastccs.protocol.messages.StabilizeUp;
import io.fastccs.core.primitives.Key;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.fastccs.protocol.TestCluster.HEARTBEAT;
import static io.fastccs.protocol.TestCluster.STABILIZATION_INTERVAL;
import static io.fastccs.protocol.TestCluster.clock;
import static io.fastccs.protocol.TestCluster.str;
import static io.fastccs.protocol.TestCluster.type;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stabilization up and down a tree, beyond {@code fanout + 1} partitions (docs/design/stabilization-tree.md,
 * "Stabilization up and down a tree"): the same knowledge as all-to-all, in 2(N-1) messages an interval.
 */
class StabilizationTreeTest {
    /** Seven partitions in a binary tree: 0 above 1 and 2, 1 above 3 and 4, 2 above 5 and 6. */
    private static TestCluster binaryTree() {
        return new TestCluster(7, TestCluster.defaultConfig().toBuilder().stabilizationFanout(2).build());
    }

    @Test
    void fewPartitionsStillTellEachOtherDirectly() {
        TestCluster c = new TestCluster(3, TestCluster.defaultConfig().toBuilder().stabilizationFanout(2).build());
        c.tick(1);
        assertThat(c.inFlight(type(Stabilize.class))).extracting(Envelope::to).containsExactlyInAnyOrder(0, 2);
    }

    @Test
    void aReportGoesUpToTheRootAtOnceAndComesDownToEveryPartition() {
        TestCluster c = binaryTree();
        c.writeLocal(c.key(4, 0), "x"); // partition 4 settles sequence number 1
        c.tick(4);
        assertThat(c.inFlight).containsExactly(new Envelope(4, 1, new StabilizeUp(4, List.of(new Settled(4, 1)))));
        c.deliverOne(type(StabilizeUp.class));
        assertThat(c.inFlight).as("relayed as it came").containsExactly(
                new Envelope(1, 0, new StabilizeUp(1, List.of(new Settled(4, 1)))));
        c.deliverOne(type(StabilizeUp.class));
        // The root sends it down at once (its first round: full, numbered, zeros left out) to its two children.
        assertThat(c.inFlight).extracting(Envelope::to).containsExactly(1, 2);
        assertThat(c.inFlight).extracting(Envelope::message)
                .containsOnly(new StabilizeDown(0, List.of(new Settled(4, 1)), 1, true));
        assertThat(c.deliverAll(type(StabilizeDown.class))).as("each forwards to its own children").isEqualTo(6);
        for (int p = 0; p < 7; p++) assertThat(c.p(p).snapshot().get(4)).as("partition %d", p).isEqualTo(1);
    }

    @Test
    void eachPartitionReportsItsSubtreeToItsParentOnly() {
        TestCluster c = binaryTree();
        c.writeLocal(c.key(3, 0), "x");
        c.writeLocal(c.key(4, 0), "y");
        c.writeLocal(c.key(4, 1), "z");
        c.tick(1); // its first report: every non-zero entry of its subtree it knows, to its parent only
        assertThat(c.inFlight).containsExactly(new Envelope(1, 0, new StabilizeUp(1, List.of())));
        c.drop(type(StabilizeUp.class));
        c.p(1).onPeerMessage(3, new StabilizeUp(3, List.of(new Settled(3, 1))));
        c.p(1).onPeerMessage(4, new StabilizeUp(4, List.of(new Settled(4, 2))));
        c.drop(type(StabilizeUp.class));
        c.advanceTo(STABILIZATION_INTERVAL);
        c.tick(1);
        assertThat(c.inFlight).as("relayed already: nothing rose since").isEmpty();
        c.advanceTo(HEARTBEAT);
        c.tick(1);
        assertThat(c.inFlight).containsExactly(new Envelope(1, 0,
                new StabilizeUp(1, List.of(new Settled(3, 1), new Settled(4, 2)))));
    }

    @Test
    void onlyWhatRoseIsSentUntilTheHeartbeatSendsEverything() {
        TestCluster c = binaryTree();
        c.tick(5);
        assertThat(c.drop(type(StabilizeUp.class))).isEqualTo(1);
        c.tickUntil(HEARTBEAT / 2, STABILIZATION_INTERVAL, 5);
        assertThat(c.inFlight).as("nothing rose, no heartbeat due").isEmpty();
        c.writeLocal(c.key(5, 0), "x");
        c.advanceTo(HEARTBEAT / 2 + STABILIZATION_INTERVAL);
        c.tick(5);
        assertThat(c.inFlight).extracting(Envelope::message).containsExactly(new StabilizeUp(5, List.of(new Settled(5, 1))));
        c.drop(type(StabilizeUp.class));
        c.advanceTo(HEARTBEAT);
        c.tick(5);
        assertThat(c.inFlight).as("the heartbeat repeats what did not rise").extracting(Envelope::message)
                .containsExactly(new StabilizeUp(5, List.of(new Settled(5, 1))));
    }

    @Test
    void reportsFromOutsideTheTreeOrAboutOthersSubtreesAreIgnored() {
        TestCluster c = binaryTree();
        c.p(1).onPeerMessage(5, new StabilizeUp(5, List.of(new Settled(5, 9))));          // 5 is not 1's child
        c.p(1).onPeerMessage(3, new StabilizeUp(3, List.of(new Settled(4, 9), new Settled(6, 9)))); // not 3's subtree
        c.p(1).onPeerMessage(3, new StabilizeUp(3, List.of(new Settled(1, 9))));          // about the receiver itself
        c.p(1).onPeerMessage(4, new StabilizeUp(3, List.of(new Settled(3, 9))));          // claims another sender
        c.p(1).onPeerMessage(2, new StabilizeDown(2, List.of(new Settled(5, 9))));        // 2 is not 1's parent
        assertThat(c.p(1).snapshot()).isEqualTo(clock(0, 0, 0, 0, 0, 0, 0));
        assertThat(c.inFlight).isEmpty();
        c.p(1).onPeerMessage(0, new StabilizeDown(0, List.of(new Settled(1, 9), new Settled(5, 9))));
        assertThat(c.p(1).snapshot()).as("never about itself").isEqualTo(clock(0, 0, 0, 0, 0, 9, 0));
        c.p(1).onPeerMessage(3, new StabilizeUp(3, List.of(new Settled(3, 4))));
        assertThat(c.p(1).snapshot()).isEqualTo(clock(0, 0, 0, 4, 0, 9, 0));
    }

    @Test
    void aMultiPartitionWriteBecomesVisibleEverywhereThroughTheTree() {
        TestCluster c = binaryTree();
        Key a = c.key(3, 0), b = c.key(6, 0);
        Txn t = c.txn(3, a, "t", b, "t");
        t.sendTo(3);
        t.sendTo(6);
        c.deliverAll();
        assertThat(str(c.readNow(3, a))).as("6's entry unknown at 3").isNull();
        for (int round = 0; round < 2; round++) {
            c.advanceTo(c.now() + STABILIZATION_INTERVAL);
            for (int p = 6; p >= 0; p--) {
                c.tick(p);
                c.deliverAll(type(StabilizeUp.class));
            }
            c.deliverAll(type(StabilizeDown.class));
        }
        assertThat(str(c.readNow(3, a))).isEqualTo("t");
        assertThat(str(c.readNow(6, b))).isEqualTo("t");
    }
}
