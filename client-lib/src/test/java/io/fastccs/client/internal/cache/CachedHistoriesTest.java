package io.fastccs.client.internal.cache;

import static io.fastccs.client.internal.cache.ModelCluster.key;
import static org.assertj.core.api.Assertions.assertThat;

import io.fastccs.check.Anomaly;
import io.fastccs.check.CheckResult;
import io.fastccs.check.TccChecker;
import io.fastccs.client.internal.cache.ModelReader.Read;
import io.fastccs.client.internal.cache.ModelReader.Rule;
import io.fastccs.core.primitives.Key;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * Histories of reads through the cache, checked by the TCC checker (docs/design/client-cache.md, "Why"): stale reads
 * are fine, inconsistent ones are anomalies. The rule as designed yields none; each broken rule yields the anomaly it
 * stands for, on a schedule written for it and on random ones.
 */
class CachedHistoriesTest {
    private static final long MILLI = 1_000_000;
    private static final long A = 1, B = 2, C = 3;
    /** Keys 0 and 2 live on partition 0, keys 1 and 3 on partition 1. */
    private static final Key K0 = key(0), K1 = key(1);

    private final AtomicLong now = new AtomicLong(1);
    private final ModelCluster cluster = new ModelCluster(2);
    private final ClientCache cache = new ClientCache(100 * MILLI, 1000, 1 << 20, now::get);

    private ModelReader reader(Rule rule) {
        return new ModelReader(cluster, cache, rule);
    }

    private static String value(Read r, Key k) {
        byte[] v = r.values().get(k).value();
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }

    @Test
    void aStaleReadFromTheCacheIsOneSnapshotAndNoAnomaly() {
        ModelReader reader = reader(Rule.AS_DESIGNED);
        reader.write(B, List.of(0L, 1L));
        assertThat(reader.read(A, List.of(K0, K1)).rounds()).isEqualTo(1);
        reader.write(B, List.of(0L, 1L));
        Read cached = reader.read(A, List.of(K0, K1));
        assertThat(cached.rounds()).isZero();
        assertThat(value(cached, K0)).isEqualTo("1").isEqualTo(value(cached, K1)); // B's first write, not its second
        assertThat(cache.zeroRoundReads()).isEqualTo(1);
        assertThat(TccChecker.check(cluster.history()).ok()).isTrue();
    }

    @Test
    void anEntryUsedPastItsNewestUpToIsAFracturedRead() {
        for (Rule rule : List.of(Rule.AS_DESIGNED, Rule.PAST_NEWEST_UP_TO)) {
            ModelCluster cluster = new ModelCluster(2);
            ModelReader reader = new ModelReader(cluster, new ClientCache(100 * MILLI, 1000, 1 << 20, now::get), rule);
            reader.read(A, List.of(K0)); // cached: no version, newest up to the empty clock
            reader.write(B, List.of(0L, 1L));
            reader.read(A, List.of(K1)); // cached: B's version, which depends on a newer version of K0
            Read r = reader.read(C, List.of(K0, K1));
            CheckResult check = TccChecker.check(cluster.history());
            if (rule == Rule.AS_DESIGNED) {
                assertThat(check.ok()).as(check.summary()).isTrue();
                assertThat(r.rounds()).isEqualTo(1); // K1 served, K0 read at a clock that covers K1's version
                assertThat(value(r, K0)).isEqualTo(value(r, K1));
            } else {
                assertThat(check.counts()).isEqualTo(Map.of(Anomaly.Kind.FRACTURED_READ, 1));
            }
        }
    }

    @Test
    void aSnapshotOlderThanTheSessionsPastMissesItsOwnWrite() {
        for (Rule rule : List.of(Rule.AS_DESIGNED, Rule.OLDER_THAN_SESSION_PAST)) {
            ModelCluster cluster = new ModelCluster(2);
            ModelReader reader = new ModelReader(cluster, new ClientCache(100 * MILLI, 1000, 1 << 20, now::get), rule);
            reader.read(A, List.of(K0));
            reader.write(A, List.of(0L));
            Read r = reader.read(A, List.of(K0));
            CheckResult check = TccChecker.check(cluster.history());
            if (rule == Rule.AS_DESIGNED) {
                assertThat(check.ok()).as(check.summary()).isTrue();
                assertThat(r.rounds()).isEqualTo(1);
                assertThat(value(r, K0)).isNotNull();
            } else {
                assertThat(check.counts()).isEqualTo(Map.of(Anomaly.Kind.READ_YOUR_WRITES, 1));
            }
        }
    }

    @Test
    void aPartialHitWhoseFetchedKeysComeFromAnotherSnapshotIsAFracturedRead() {
        for (Rule rule : List.of(Rule.AS_DESIGNED, Rule.PARTIAL_FROM_OTHER_SNAPSHOT)) {
            ModelCluster cluster = new ModelCluster(2);
            ModelReader reader = new ModelReader(cluster, new ClientCache(100 * MILLI, 1000, 1 << 20, now::get), rule);
            reader.read(A, List.of(K0));
            reader.write(B, List.of(0L, 1L));
            Read r = reader.read(C, List.of(K0, K1)); // K0 served, K1 fetched: B's, which K0's entry does not cover
            CheckResult check = TccChecker.check(cluster.history());
            if (rule == Rule.AS_DESIGNED) {
                assertThat(check.ok()).as(check.summary()).isTrue();
                assertThat(r.rounds()).isEqualTo(2); // K0 read again in round two at the merged clock
                assertThat(value(r, K0)).isEqualTo(value(r, K1));
            } else {
                assertThat(check.counts()).isEqualTo(Map.of(Anomaly.Kind.FRACTURED_READ, 1));
            }
        }
    }

    @Test
    void randomSchedulesThroughTheRuleAsDesignedHaveNoAnomalyAndUseTheCache() {
        for (long seed = 0; seed < 40; seed++) {
            Run run = run(Rule.AS_DESIGNED, seed);
            assertThat(run.check.ok()).as("seed " + seed + ": " + run.check.summary() + " " + run.check.anomalies()).isTrue();
            assertThat(run.maxRounds).as("seed " + seed).isLessThanOrEqualTo(2);
        }
        Run one = run(Rule.AS_DESIGNED, 1);
        assertThat(one.cache.zeroRoundReads()).isPositive();
        assertThat(one.cache.partialHits()).isPositive();
    }

    @Test
    void randomSchedulesGiveEachBrokenRuleAway() {
        for (Rule rule : List.of(Rule.PAST_NEWEST_UP_TO, Rule.OLDER_THAN_SESSION_PAST, Rule.PARTIAL_FROM_OTHER_SNAPSHOT)) {
            int caught = 0;
            for (long seed = 0; seed < 40; seed++) if (!run(rule, seed).check.ok()) caught++;
            assertThat(caught).as(rule.name()).isPositive();
        }
    }

    private record Run(CheckResult check, ClientCache cache, int maxRounds) {
    }

    /** Three sessions over six keys on two partitions, writes of one to three keys, time moving 0 to 20 ms a step. */
    private static Run run(Rule rule, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        AtomicLong clock = new AtomicLong(1);
        ModelCluster cluster = new ModelCluster(2);
        ClientCache cache = new ClientCache(100 * MILLI, 1000, 1 << 20, clock::get);
        ModelReader reader = new ModelReader(cluster, cache, rule);
        int maxRounds = 0;
        for (int step = 0; step < 300; step++) {
            clock.addAndGet(random.nextLong(20 * MILLI));
            long session = 1 + random.nextInt(3);
            List<Long> keys = new ArrayList<>();
            int size = 1 + random.nextInt(3);
            while (keys.size() < size) {
                long k = random.nextInt(6);
                if (!keys.contains(k)) keys.add(k);
            }
            if (random.nextInt(10) < 3) {
                reader.write(session, keys);
            } else {
                maxRounds = Math.max(maxRounds, reader.read(session, keys.stream().map(ModelCluster::key).toList()).rounds());
            }
        }
        return new Run(TccChecker.check(cluster.history()), cache, maxRounds);
    }
}
