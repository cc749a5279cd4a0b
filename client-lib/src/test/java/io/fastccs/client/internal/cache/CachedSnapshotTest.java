package io.fastccs.client.internal.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The rule for a cached snapshot on hand-made entries (docs/design/client-cache.md, "The rule for a cached snapshot"). */
class CachedSnapshotTest {
    private static final Key X = Key.of("x"), Y = Key.of("y"), Z = Key.of("z");
    private static final long NOW = 1_000;

    /** x and z on partition 0, y on partition 1. */
    private static int ownerOf(Key k) {
        return k.equals(Y) ? 1 : 0;
    }

    private static CachedVersion entry(Key k, VectorClock commit, VectorClock newestUpTo, long partitionTime, long leaseEnd) {
        return new CachedVersion(new ReadValue(k, new byte[] {1}, commit.get(ownerOf(k))), ownerOf(k), commit, 1,
                newestUpTo, partitionTime, 0, leaseEnd);
    }

    private static CachedVersion entry(Key k, VectorClock commit, VectorClock newestUpTo) {
        return entry(k, commit, newestUpTo, 0, NOW + 1);
    }

    @Test
    void entriesThatAreOneSnapshotIncludingTheSessionsPastAreAFullHit() {
        CachedVersion x = entry(X, VectorClock.of(2, 1), VectorClock.of(5, 5));
        CachedVersion y = entry(Y, VectorClock.of(1, 3), VectorClock.of(4, 6));
        CachedSnapshot.Choice c = CachedSnapshot.choose(VectorClock.of(1, 1), List.of(X, Y), Map.of(X, x, Y, y),
                CachedSnapshotTest::ownerOf, NOW);
        assertThat(c.fullHit()).isTrue();
        assertThat(c.snapshot()).isEqualTo(VectorClock.of(2, 3));
        assertThat(c.servedCommitClock(VectorClock.of(1, 1))).isEqualTo(VectorClock.of(2, 3));
        assertThat(c.servedCommitTime()).isEqualTo(1);
    }

    @Test
    void anEntryNotNewestUpToTheOthersCommitClockIsAMiss() {
        CachedVersion x = entry(X, VectorClock.of(1, 0), VectorClock.of(1, 0)); // not known newest beyond x's own write
        CachedVersion y = entry(Y, VectorClock.of(2, 3), VectorClock.of(2, 3)); // depends on a newer write on partition 0
        CachedSnapshot.Choice c = CachedSnapshot.choose(VectorClock.zero(2), List.of(X, Y), Map.of(X, x, Y, y),
                CachedSnapshotTest::ownerOf, NOW);
        assertThat(c.misses()).containsExactly(X);
        assertThat(c.served()).containsOnlyKeys(Y);
        assertThat(c.partialHit()).isTrue();
        assertThat(c.snapshot()).isEqualTo(VectorClock.of(2, 3)); // the clock x's round one carries
    }

    @Test
    void anEntryOlderThanTheSessionsPastIsAMiss() {
        CachedVersion x = entry(X, VectorClock.of(1, 0), VectorClock.of(1, 0));
        CachedSnapshot.Choice c = CachedSnapshot.choose(VectorClock.of(2, 0), List.of(X), Map.of(X, x),
                CachedSnapshotTest::ownerOf, NOW);
        assertThat(c.misses()).containsExactly(X);
        assertThat(c.served()).isEmpty();
    }

    @Test
    void anEntryWhoseLeaseEndedIsAMiss() {
        CachedVersion x = entry(X, VectorClock.of(1, 0), VectorClock.of(3, 3), 0, NOW);
        CachedSnapshot.Choice c = CachedSnapshot.choose(VectorClock.zero(2), List.of(X), Map.of(X, x),
                CachedSnapshotTest::ownerOf, NOW);
        assertThat(c.fullHit()).isFalse();
        assertThat(c.misses()).containsExactly(X);
    }

    @Test
    void aPartitionReadAnywayServesNothingFromTheCache() {
        CachedVersion x = entry(X, VectorClock.of(1, 0), VectorClock.of(3, 3));
        CachedVersion y = entry(Y, VectorClock.of(0, 1), VectorClock.of(3, 3));
        CachedSnapshot.Choice c = CachedSnapshot.choose(VectorClock.zero(2), List.of(X, Y, Z), Map.of(X, x, Y, y),
                CachedSnapshotTest::ownerOf, NOW);
        assertThat(c.misses()).containsExactly(X, Z); // z misses on partition 0, so x is read from it too
        assertThat(c.served()).containsOnlyKeys(Y);
        assertThat(c.snapshot()).isEqualTo(VectorClock.of(0, 1));
    }

    @Test
    void servedAndFetchedEntriesThatDoNotFitTheMergedClockAreReadAgainWithTheirRoundOneTime() {
        CachedVersion servedX = entry(X, VectorClock.of(1, 0), VectorClock.of(1, 1), 70, NOW + 1);
        CachedVersion servedZ = entry(Z, VectorClock.of(1, 0), VectorClock.of(1, 1), 50, NOW + 1);
        CachedVersion fetchedY = entry(Y, VectorClock.of(2, 2), VectorClock.of(2, 2)); // a newer write on partition 0
        CachedSnapshot.Combined c = CachedSnapshot.combine(VectorClock.zero(2), List.of(servedX, servedZ), List.of(fetchedY));
        assertThat(c.merged()).isEqualTo(VectorClock.of(2, 2));
        assertThat(c.fitting()).containsOnlyKeys(Y);
        assertThat(c.readAgain()).containsOnlyKeys(0);
        assertThat(c.readAgain().get(0)).isEqualTo(new CachedSnapshot.RoundTwo(List.of(X, Z), 50));
        assertThat(c.done()).isFalse();
    }

    @Test
    void aRoundTwoReadsAtTheMergedClockCappedAtThePartitionsSnapshot() {
        assertThat(CachedVersion.readAtInRoundTwo(VectorClock.of(4, 7), VectorClock.of(3, 9), 0)).isEqualTo(VectorClock.of(3, 7));
        assertThat(CachedVersion.readAtInRoundTwo(VectorClock.of(4, 7), VectorClock.of(3, 9), 1)).isEqualTo(VectorClock.of(4, 7));
    }
}
