package io.fastccs.tools.stress;

import io.fastccs.workload.KeyDistribution;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.messages.RingMember;
import io.fastccs.core.ring.TokenRing;
import io.fastccs.server.node.InProcessCluster;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionSpreadTest {
    private static TokenRing ring(int partitions) {
        List<RingMember> members = new ArrayList<>();
        for (int p = 0; p < partitions; p++)
            members.add(new RingMember(p, "127.0.0." + (p + 1), 9142, InProcessCluster.evenToken(p, partitions), true));
        return TokenRing.of(members);
    }

    @ParameterizedTest(name = "{0} keys over {1} of {2} partitions")
    @CsvSource({"5,1,3", "5,2,3", "5,3,3", "2,2,3", "10,4,8", "5,5,5"})
    void everyTransactionSpansExactlyTheAskedPartitions(int keys, int spread, int partitions) {
        TokenRing ring = ring(partitions);
        KeyDistribution population = KeyDistribution.gaussian(1, 10_000);
        PartitionSpread picker = new PartitionSpread(population, ring, spread);
        SplittableRandom random = new SplittableRandom(42);
        int[] firstPartitionCount = new int[partitions];
        for (int i = 0; i < 2_000; i++) {
            long[] picked = picker.pick(random, keys);
            assertThat(picked).hasSize(keys);
            assertThat(Arrays.stream(picked).distinct().count()).isEqualTo(keys);
            assertThat(picked).isSorted();
            assertThat(Arrays.stream(picked).map(k -> ring.ownerOf(Key.of(StressBackend.keyName(k)))).distinct().count())
                    .as("partitions of %s", Arrays.toString(picked)).isEqualTo(spread);
            for (long k : picked) assertThat(k).isBetween(population.min(), population.max());
            firstPartitionCount[picker.partitionOf(picked[0])]++;
        }
        // Every partition takes part: the choice of partitions is not stuck on one.
        assertThat(Arrays.stream(firstPartitionCount).allMatch(c -> c > 0)).as("first keys per partition %s", Arrays.toString(firstPartitionCount)).isTrue();
    }
}
