package io.fastccs.replication.ratis;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class StuckFollowersTest {
    private static final long S = TimeUnit.SECONDS.toNanos(1);

    private static StuckFollowers.Follower f(String id, long match, long elapsedMillis) {
        return new StuckFollowers.Follower(id, match, elapsedMillis);
    }

    @Test
    void aFollowerThatAnswersButTakesNoEntryForTheWholeSpanIsStuck() {
        StuckFollowers watch = new StuckFollowers(6000, 1000, 100);
        assertThat(watch.observe(List.of(f("a", 42345, 10), f("b", 50000, 10)), 50000, 1, 0)).isEmpty();
        assertThat(watch.observe(List.of(f("a", 42345, 10), f("b", 51000, 10)), 51000, 1, 5 * S)).isEmpty();
        assertThat(watch.observe(List.of(f("a", 42345, 10), f("b", 52000, 10)), 52000, 1, 6 * S)).containsExactly("a");
    }

    @Test
    void aFollowerCatchingUpSlowlyIsNotStuck() {
        StuckFollowers watch = new StuckFollowers(6000, 1000, 100);
        for (int second = 0; second <= 20; second++)
            assertThat(watch.observe(List.of(f("a", 1000 + second, 10)), 90000, 1, second * S)).isEmpty();
    }

    @Test
    void anIdleGroupASilentFollowerAndOneAwaitingASnapshotAreNotStuck() {
        StuckFollowers watch = new StuckFollowers(6000, 1000, 100);
        List<StuckFollowers.Follower> followers = List.of(
                f("idle", 5000, 10),       // holds all but the last few entries: nothing to take
                f("silent", 100, 30_000),  // down: Raft's business, not ours
                f("snapshot", 100, 10));   // needs entries the leader no longer holds (its log starts at 2000)
        watch.observe(followers, 5050, 2000, 0);
        assertThat(watch.observe(followers, 5050, 2000, 60 * S)).isEmpty();
    }

    @Test
    void aFollowerBackFromARestartGetsTheWholeSpanToMoveAgain() {
        StuckFollowers watch = new StuckFollowers(6000, 1000, 100);
        for (int second = 0; second <= 60; second += 10) // down for a minute: its match index stands still
            assertThat(watch.observe(List.of(f("a", 4000, 30_000)), 9000 + second * 100, 1, second * S)).isEmpty();
        assertThat(watch.observe(List.of(f("a", 4000, 10)), 15_000, 1, 61 * S)).as("answers again").isEmpty();
        assertThat(watch.observe(List.of(f("a", 4000, 10)), 15_000, 1, 65 * S)).isEmpty();
        assertThat(watch.observe(List.of(f("a", 4000, 10)), 15_000, 1, 66 * S)).as("six seconds answering, no entry taken")
                .containsExactly("a");
    }

    @Test
    void aStuckFollowerHeardFromOnlyEveryFewSecondsIsStuckToo() {
        // Ratis's appender backs off after each refusal: a reply every 5 s (seen on real nodes).
        StuckFollowers watch = new StuckFollowers(10_000, 6000, 100);
        for (int second = 0; second < 10; second++)
            assertThat(watch.observe(List.of(f("a", 33431, (second % 5) * 1000L)), 48000, 1, second * S)).isEmpty();
        assertThat(watch.observe(List.of(f("a", 33431, 0)), 48000, 1, 10 * S)).containsExactly("a");
    }

    @Test
    void aNewTermStartsTheWatchOver() {
        StuckFollowers watch = new StuckFollowers(6000, 1000, 100);
        watch.observe(List.of(f("a", 10, 10)), 9000, 1, 0);
        watch.reset();
        assertThat(watch.observe(List.of(f("a", 10, 10)), 9000, 1, 7 * S)).isEmpty();
        assertThat(watch.observe(List.of(f("a", 10, 10)), 9000, 1, 13 * S)).containsExactly("a");
    }
}
