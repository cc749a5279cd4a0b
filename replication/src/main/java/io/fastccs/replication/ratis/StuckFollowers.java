package io.fastccs.replication.ratis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Tells, on a group's leader, which followers have stopped taking entries although they answer. Seen on five real
 * nodes (Ratis 3.3.0): after a member came back, its leader recorded it as holding one entry more than it held, so the
 * leader sent every following entry after that one, the member refused each for the missing entry ("previous log entry
 * not found"), and the leader, which never goes below the index it recorded, sent the same again, for minutes. The group
 * then commits with its other follower alone; the stuck member cannot be caught up by this leader, and a leadership
 * transfer to it times out. A new leader starts from what each member says it holds. Time comes in as arguments.
 *
 * <p>A follower is stuck when, for {@code stuckMillis} in which it kept answering (each time within
 * {@code heardWithinMillis}), its match index has not moved, while the leader's log holds the entries it misses (not a
 * follower waiting for a snapshot) and is more than {@code gap} entries ahead of it. A follower catching up, however
 * slowly, moves its match index; one that is down is Raft's business.
 */
final class StuckFollowers {
    private final long stuckNanos;
    private final long heardWithinMillis;
    private final long gap;
    /** Per follower: the match index last seen and since when (nanos) it has been that. */
    private final Map<String, long[]> progress = new HashMap<>();

    StuckFollowers(long stuckMillis, long heardWithinMillis, long gap) {
        this.stuckNanos = TimeUnit.MILLISECONDS.toNanos(stuckMillis);
        this.heardWithinMillis = heardWithinMillis;
        this.gap = gap;
    }

    /** One follower as the leader sees it. */
    record Follower(String id, long matchIndex, long lastRpcElapsedMillis) {
    }

    /**
     * @param lastIndex  the leader's last log index
     * @param startIndex the first index the leader's log still holds
     * @return the followers stuck now, in the given order
     */
    List<String> observe(List<Follower> followers, long lastIndex, long startIndex, long nowNanos) {
        List<String> stuck = new ArrayList<>();
        for (Follower f : followers) {
            long[] seen = progress.get(f.id());
            boolean answering = f.lastRpcElapsedMillis() <= heardWithinMillis;
            // The span counts while the follower answers: one back from a restart starts it afresh, though its match
            // index stood still while it was down (counting that span stepped leaders down at every restart).
            if (seen == null || seen[0] != f.matchIndex() || !answering) {
                progress.put(f.id(), new long[]{f.matchIndex(), nowNanos});
                continue;
            }
            boolean entriesHere = f.matchIndex() >= 0 && f.matchIndex() + 1 >= startIndex;
            boolean behind = lastIndex - f.matchIndex() > gap;
            if (entriesHere && behind && nowNanos - seen[1] >= stuckNanos) stuck.add(f.id());
        }
        return stuck;
    }

    /** Forgets what was seen, for a new term (a new leader starts from what its followers say). */
    void reset() {
        progress.clear();
    }
}
