package io.fastccs.protocol;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.TestCluster.ReplyBox;
import io.fastccs.protocol.TestCluster.Txn;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.WriteReply;
import org.junit.jupiter.api.Test;

import static io.fastccs.protocol.TestCluster.GC_INTERVAL;
import static io.fastccs.protocol.TestCluster.TIMEOUT;
import static io.fastccs.protocol.TestCluster.clock;
import static io.fastccs.protocol.TestCluster.str;
import static io.fastccs.protocol.TestCluster.type;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Duplicated write requests (docs/design/faults.md, "Duplicated write requests"): within 2 x timeout they are answered
 * from memory; later they are prepared again and the coordinator's decision makes the duplicate report the real
 * outcome.
 */
class DuplicateRequestTest {

    /** T on partitions 0 (coordinator) and 1, committed and settled at time 0. */
    private static final class Committed {
        final TestCluster c = new TestCluster(2);
        final Key a = c.key(0, 0), b = c.key(1, 0);
        final Txn t = c.txn(0, a, "t", b, "t");
        final VectorClock ct = clock(1, 1);

        Committed() {
            t.sendTo(0);
            t.sendTo(1);
            c.deliverAll();
        }

        /** Moves past 2 x timeout with GC ticks, so the partitions forget the settled transaction. */
        void forget() {
            c.tickUntil(2 * TIMEOUT + GC_INTERVAL, GC_INTERVAL, 0, 1);
            c.drop(type(Stabilize.class));
        }
    }

    @Test
    void duplicateWithinTwoTimeoutsIsAnsweredFromMemoryWithoutPreparing() {
        Committed s = new Committed();
        for (int p = 0; p < 2; p++) {
            WriteReply r = s.t.sendTo(p).write();
            assertThat(r.outcome()).isEqualTo(Outcome.COMMITTED);
            assertThat(r.commitClock()).isEqualTo(s.ct);
            assertThat(s.c.p(p).lastSequence()).isEqualTo(1);
        }
        assertThat(s.c.inFlight).isEmpty();
    }

    @Test
    void laterDuplicateAtAParticipantIsSkippedAndReportsTheRealOutcome() {
        Committed s = new Committed();
        s.forget();
        ReplyBox dup = s.t.sendTo(1); // prepared again as sn 2
        s.c.deliverAll();
        assertThat(dup.write().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(dup.write().commitClock()).isEqualTo(s.ct);
        assertThat(s.c.p(1).snapshot().get(1)).as("sn 2 skipped").isEqualTo(2);
        assertThat(s.c.disks[1].versions(s.b)).as("no second version").hasSize(1);
        assertThat(s.c.queryOutcome(0, s.t.id).outcome().outcome()).isEqualTo(Outcome.COMMITTED);
    }

    @Test
    void laterDuplicateAtTheCoordinatorNeverTurnsACommitIntoAnAbort() {
        Committed s = new Committed();
        TestCluster c = s.c;
        s.forget();
        ReplyBox dup = s.t.sendTo(0);
        c.tickUntil(c.now() + 2 * TIMEOUT, GC_INTERVAL, 0, 1);
        c.deliverAll();
        assertThat(c.queryOutcome(0, s.t.id).outcome().outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(dup.responses).allMatch(r -> ((WriteReply) r).outcome() == Outcome.COMMITTED);
        c.stabilizeAll();
        assertThat(str(c.readNow(0, s.a))).isEqualTo("t");
    }

    @Test
    void duplicateAtARestartedCoordinatorNeverTurnsACommitIntoAnAbort() {
        Committed s = new Committed();
        TestCluster c = s.c;
        c.restart(0);
        s.t.sendTo(0);
        c.tickUntil(c.now() + 2 * TIMEOUT, GC_INTERVAL, 0, 1);
        c.deliverAll();
        assertThat(c.queryOutcome(0, s.t.id).outcome().outcome()).isEqualTo(Outcome.COMMITTED);
    }
}
