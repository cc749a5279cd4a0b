package io.fastccs.protocol;

import io.fastccs.protocol.partition.Partition;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.ReadReply;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.fastccs.protocol.TestCluster.RETENTION;
import static io.fastccs.protocol.TestCluster.str;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A host that holds a round one back (to load its keys from disk) answers it at the snapshot it arrived at: exactly
 * what an immediate answer would have been, so the delay does not show in the clocks (and cause second rounds).
 */
class DeferredReadTest {
    private static ReadReply deferred(TestCluster c, int partition, FirstRoundRead r, Partition.ReadSnapshot arrival) {
        List<ClientResponse> replies = new ArrayList<>();
        c.p(partition).onFirstRoundRead(replies::add, r, arrival);
        assertThat(replies).hasSize(1);
        return (ReadReply) replies.get(0);
    }

    @Test
    void aDeferredRoundOneIsAnsweredAsItWouldHaveBeenOnArrival() {
        TestCluster c = new TestCluster(2);
        Key k = c.key(0, 0);
        c.writeLocal(k, "v1");
        c.advanceTo(100);
        ReadReply immediate = c.read1(0, VectorClock.zero(2), k).read();
        Partition.ReadSnapshot arrival = c.p(0).readSnapshotNow();

        c.advanceTo(300);
        c.writeLocal(k, "v2"); // committed and visible while the read waits
        assertThat(str(c.readNow(0, k))).isEqualTo("v2");

        ReadReply late = deferred(c, 0, new FirstRoundRead(1, List.of(k), VectorClock.zero(2)), arrival);
        assertThat(str(late.values().get(0))).isEqualTo("v1");
        assertThat(late.snapshot()).isEqualTo(immediate.snapshot());
        assertThat(late.maxCommitClock()).isEqualTo(immediate.maxCommitClock());
        assertThat(late.serverTime()).as("round two's expiry counts from the arrival").isEqualTo(100);
    }

    @Test
    void aSnapshotOlderThanTheRetentionIsNotUsed() {
        TestCluster c = new TestCluster(2);
        Key k = c.key(0, 0);
        c.writeLocal(k, "v1");
        Partition.ReadSnapshot arrival = c.p(0).readSnapshotNow();
        c.advanceTo(10);
        c.writeLocal(k, "v2");
        c.advanceTo(RETENTION + 10); // GC may have dropped what the old snapshot would return
        ReadReply late = deferred(c, 0, new FirstRoundRead(1, List.of(k), VectorClock.zero(2)), arrival);
        assertThat(str(late.values().get(0))).isEqualTo("v2");
        assertThat(late.serverTime()).isEqualTo(RETENTION + 10);
    }
}
