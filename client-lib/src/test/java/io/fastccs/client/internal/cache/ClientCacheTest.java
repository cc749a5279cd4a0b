package io.fastccs.client.internal.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** Leases, bounds and metrics of the shared cache, on an injected clock. */
class ClientCacheTest {
    private static final long MS = 1_000_000;
    private static final VectorClock CLOCK = VectorClock.of(1, 1);

    private final AtomicLong now = new AtomicLong(1);

    private static void put(ClientCache cache, String key, long sequence, int valueBytes) {
        cache.put(new ReadValue(Key.of(key), new byte[valueBytes], sequence), 0, CLOCK, 1, CLOCK, 0);
    }

    @Test
    void anEntryIsServedUntilItsLeaseEnds() {
        ClientCache cache = new ClientCache(100 * MS, 10, 1 << 20, now::get);
        put(cache, "a", 1, 1);
        now.addAndGet(99 * MS);
        assertThat(cache.lookup(List.of(Key.of("a")))).containsOnlyKeys(Key.of("a"));
        now.addAndGet(MS);
        assertThat(cache.lookup(List.of(Key.of("a")))).isEmpty();
        assertThat(cache.size()).isZero();
        assertThat(cache.bytes()).isZero();
    }

    @Test
    void aKeyWrittenOftenGetsAShorterLeaseThanTheBound() {
        ClientCache cache = new ClientCache(100 * MS, 10, 1 << 20, now::get);
        Key a = Key.of("a");
        for (int i = 0; i < 20; i++) { // read every ms, a new version every 2 ms
            cache.lookup(List.of(a));
            if (i % 2 == 0) put(cache, "a", i, 1);
            now.addAndGet(MS);
        }
        cache.lookup(List.of(a));
        put(cache, "a", 100, 1);
        CachedVersion e = cache.lookup(List.of(a)).get(a);
        assertThat(e.leaseEndNanos() - e.fetchedAtNanos()).isPositive().isLessThan(100 * MS);
    }

    @Test
    void theMostReadKeysStayWhenTheEntryBoundIsReached() {
        ClientCache cache = new ClientCache(100 * MS, 2, 1 << 20, now::get);
        Key hot = Key.of("hot"), warm = Key.of("warm"), fresh = Key.of("fresh");
        for (Key k : List.of(hot, warm)) { // a miss is looked up, then entered
            cache.lookup(List.of(k));
            put(cache, new String(k.toBytes()), 1, 1);
            now.addAndGet(MS);
        }
        cache.lookup(List.of(hot));
        cache.lookup(List.of(fresh));
        put(cache, "fresh", 1, 1); // read as often as warm, but warm was held longer
        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.evictions()).isEqualTo(1);
        assertThat(cache.lookup(List.of(hot, warm, fresh))).containsOnlyKeys(hot, fresh);
    }

    @Test
    void aScanOfKeysReadOnceKeepsTheRatesBounded() {
        ClientCache cache = new ClientCache(100 * MS, 10, 1 << 20, now::get);
        for (int i = 0; i < 10_000; i++) cache.lookup(List.of(Key.of("scan:" + i)));
        assertThat(cache.trackedKeys()).isLessThanOrEqualTo(40);
    }

    @Test
    void theByteBoundEvictsAndAValueTooLargeIsNotKept() {
        ClientCache cache = new ClientCache(100 * MS, 100, 4400, now::get);
        put(cache, "big", 1, 1101); // beyond a quarter of the bound
        assertThat(cache.size()).isZero();
        for (String k : List.of("a", "b", "c", "d", "e")) put(cache, k, 1, 900); // about 1030 bytes each
        assertThat(cache.bytes()).isLessThanOrEqualTo(4400);
        assertThat(cache.size()).isEqualTo(4);
        assertThat(cache.evictions()).isEqualTo(1);
    }

    @Test
    void aZeroBoundTurnsTheCacheOff() {
        ClientCache cache = new ClientCache(0, 10, 1 << 20, now::get);
        put(cache, "a", 1, 1);
        assertThat(cache.enabled()).isFalse();
        assertThat(cache.lookup(List.of(Key.of("a")))).isEmpty();
    }

    @Test
    void servedReadsAreCountedWithTheAgeOfWhatTheyServed() {
        ClientCache cache = new ClientCache(100 * MS, 10, 1 << 20, now::get);
        put(cache, "a", 1, 1);
        now.addAndGet(30 * MS);
        CachedSnapshot.Choice full = CachedSnapshot.choose(VectorClock.zero(2), List.of(Key.of("a")),
                cache.lookup(List.of(Key.of("a"))), k -> 0, now.get());
        cache.recordServed(full, now.get());
        assertThat(cache.keysServed()).isEqualTo(1);
        assertThat(cache.zeroRoundReads()).isEqualTo(1);
        assertThat(cache.partialHits()).isZero();
        assertThat(cache.servedAge().getValueAtPercentile(50)).isBetween(29_900L, 30_100L);
    }
}
