package io.fastccs.protocol;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.TestCluster.Txn;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.ReadReply;
import org.junit.jupiter.api.Test;

import static io.fastccs.protocol.TestCluster.GC_INTERVAL;
import static io.fastccs.protocol.TestCluster.RETENTION;
import static io.fastccs.protocol.TestCluster.clock;
import static io.fastccs.protocol.TestCluster.str;
import static org.assertj.core.api.Assertions.assertThat;

/** Section 3.7 and pitfall 3: Eiger-style GC bounded by the version retention, and SNAPSHOT_EXPIRED. */
class GarbageCollectionTest {

    /**
     * Key k on partition 0 (GC ticks every 100us, retention 1000us): v1 written at 0, a round one reads v1 at 400,
     * v2 and v3 are written at 500. Partition 0 has ticked up to and including 500.
     */
    private static final class History {
        final TestCluster c = new TestCluster(2);
        final Key k = c.key(0, 0);
        ReadReply roundOne;

        History() {
            c.writeLocal(k, "v1");
            c.tickUntil(400, GC_INTERVAL, 0);
            roundOne = c.read1(0, VectorClock.zero(2), k).read();
            c.advanceTo(500);
            c.writeLocal(k, "v2");
            c.writeLocal(k, "v3");
            c.tick(0);
            assertThat(str(roundOne.values().get(0))).isEqualTo("v1");
            assertThat(roundOne.serverTime()).isEqualTo(400);
        }
    }

    @Test
    void versionsOlderThanTheNewestVersionVisibleOneRetentionAgoAreCollected() {
        History h = new History();
        TestCluster c = h.c;
        c.tickUntil(400 + RETENTION, GC_INTERVAL, 0);
        assertThat(c.disks[0].versions(h.k)).as("at %d v1 was still the newest visible version of %d", c.now(), c.now() - RETENTION)
                .hasSize(3);
        c.advanceTo(500 + RETENTION + 1); // the sample must be strictly older than now - retention
        c.tick(0);
        assertThat(c.disks[0].versions(h.k)).extracting(v -> new String(v.value())).containsExactly("v3");
        assertThat(c.p(0).metrics().versionsCollected()).isEqualTo(2);
        assertThat(str(c.readNow(0, h.k))).isEqualTo("v3");
    }

    /** GC never waits for the disk: a key whose versions are not in memory is left for a later pass, not dropped. */
    @Test
    void keysNotInMemoryAreCollectedOnALaterPass() {
        History h = new History();
        TestCluster c = h.c;
        c.versionsOnDiskOnly(0, h.k, true);
        c.advanceTo(500 + RETENTION + 1);
        c.tick(0);
        c.tickUntil(500 + 3 * RETENTION, GC_INTERVAL, 0);
        assertThat(c.disks[0].versions(h.k)).as("not read while on disk only").hasSize(3);
        c.versionsOnDiskOnly(0, h.k, false);
        c.advanceTo(c.now() + GC_INTERVAL); // the next GC pass
        c.tick(0);
        assertThat(c.disks[0].versions(h.k)).extracting(v -> new String(v.value())).containsExactly("v3");
        assertThat(c.p(0).metrics().versionsCollected()).isEqualTo(2);
    }

    @Test
    void versionARoundTwoWithinTheRetentionMayStillAskForIsKept() {
        History h = new History();
        TestCluster c = h.c;
        c.tickUntil(400 + RETENTION, GC_INTERVAL, 0);
        // Round two for the read whose round one returned v1 at 400, exactly one retention later.
        ReadReply r = c.read2(0, h.roundOne.maxCommitClock(), h.roundOne.serverTime(), h.k).read();
        assertThat(str(r.values().get(0))).isEqualTo("v1");
        assertThat(r.values().get(0).sequence()).isEqualTo(1);
    }

    @Test
    void roundTwoOlderThanTheVersionRetentionGetsSnapshotExpired() {
        History h = new History();
        TestCluster c = h.c;
        c.tickUntil(400 + RETENTION + 1, GC_INTERVAL, 0);
        ErrorReply e = c.read2(0, clock(1, 7), h.roundOne.serverTime(), h.k).error();
        assertThat(e.code()).isEqualTo(ErrorCode.SNAPSHOT_EXPIRED);
        assertThat(c.p(0).metrics().snapshotsExpired()).isEqualTo(1);
        assertThat(c.p(0).metrics().secondRoundReads()).isZero();
        assertThat(c.p(0).snapshot().get(1)).as("a refused request changes nothing").isZero();
        // The same round two one microsecond earlier would have been served.
        TestCluster fresh = new History().c;
        fresh.tickUntil(400 + RETENTION, GC_INTERVAL, 0);
        assertThat(fresh.read2(0, clock(1, 0), 400, fresh.key(0, 0)).read().values().get(0).exists()).isTrue();
    }

    @Test
    void newestVisibleVersionIsKeptWhileANewerOneIsNotYetCoveredBySvc() {
        TestCluster c = new TestCluster(2);
        Key k = c.key(0, 0);
        c.writeLocal(k, "v1");                    // ct [1,0]
        Txn t = c.txn(1, k, "v2", c.key(1, 0), "x");
        t.sendTo(0);
        t.sendTo(1);
        c.deliverAll();                           // ct [2,1]: settled on 0, but svc_0[1] = 0
        c.tickUntil(5 * RETENTION, GC_INTERVAL, 0);
        assertThat(c.disks[0].versions(k)).hasSize(2);
        assertThat(str(c.readNow(0, k))).isEqualTo("v1");

        // v2 becomes visible just after the GC tick at `now`; the first svc sample that covers it is the next one.
        c.stabilize(1, 0);
        long firstSampleCoveringV2 = c.now() + GC_INTERVAL;
        assertThat(str(c.readNow(0, k))).isEqualTo("v2");
        c.tickUntil(firstSampleCoveringV2 + RETENTION, GC_INTERVAL, 0);
        assertThat(c.disks[0].versions(k)).hasSize(2);
        c.tickUntil(firstSampleCoveringV2 + RETENTION + GC_INTERVAL, GC_INTERVAL, 0);
        assertThat(c.disks[0].versions(k)).extracting(v -> new String(v.value())).containsExactly("v2");
    }

    @Test
    void keysWithASingleVersionAreLeftAlone() {
        TestCluster c = new TestCluster(2);
        for (int i = 0; i < 3; i++) c.writeLocal(c.key(0, i), "only");
        c.tickUntil(5 * RETENTION, GC_INTERVAL, 0);
        assertThat(c.disks[0].versionCount()).isEqualTo(3);
        assertThat(c.p(0).metrics().versionsCollected()).isZero();
    }

    @Test
    void collectionResumesAfterARestartForKeysWrittenAfterIt() {
        TestCluster c = new TestCluster(2);
        Key k = c.key(0, 0);
        c.writeLocal(k, "v1");
        c.restart(0);
        c.writeLocal(k, "v2");
        c.tickUntil(3 * RETENTION, GC_INTERVAL, 0);
        assertThat(c.disks[0].versions(k)).extracting(v -> new String(v.value())).containsExactly("v2");
    }

    @Test
    void versionsWrittenBeforeARestartAreStillCollectedAfterIt() {
        TestCluster c = new TestCluster(2);
        Key k = c.key(0, 0);
        c.writeLocal(k, "v1");
        c.writeLocal(k, "v2");
        c.tick(0); // saves the snapshot: the transaction records up to sn 2 are dropped
        c.restart(0);
        c.tickUntil(3 * RETENTION, GC_INTERVAL, 0);
        assertThat(c.disks[0].versions(k)).extracting(v -> new String(v.value())).containsExactly("v2");
    }

    @Test
    void roundTwoAtExactlyTheRetentionBoundaryStillFindsTheVersionItsRoundOneSaw() {
        TestCluster c = new TestCluster(2);
        Key k = c.key(0, 0);
        c.writeLocal(k, "v1");
        c.tickUntil(400, GC_INTERVAL, 0);
        c.advanceTo(500);
        ReadReply roundOne = c.read1(0, VectorClock.zero(2), k).read(); // at 500, before the tick of 500
        assertThat(str(roundOne.values().get(0))).isEqualTo("v1");
        c.writeLocal(k, "v2");                                          // also at 500
        c.tickUntil(500 + RETENTION, GC_INTERVAL, 0);
        ReplyOrExpired r2 = ReplyOrExpired.of(c.read2(0, roundOne.maxCommitClock(), roundOne.serverTime(), k));
        assertThat(r2.expired() || "v1".equals(r2.value()))
                .as("round two at exactly the retention must either be refused or see v1, got %s", r2).isTrue();
    }

    private record ReplyOrExpired(boolean expired, String value) {
        static ReplyOrExpired of(TestCluster.ReplyBox box) {
            if (box.only() instanceof ErrorReply e && e.code() == ErrorCode.SNAPSHOT_EXPIRED) return new ReplyOrExpired(true, null);
            return new ReplyOrExpired(false, str(box.read().values().get(0)));
        }
    }
}
