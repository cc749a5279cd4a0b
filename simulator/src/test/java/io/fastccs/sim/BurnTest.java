package io.fastccs.sim;

import io.fastccs.core.primitives.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many seeds per run, each a random configuration (2-16 partitions, 1-8 keys per transaction, 5-50% writes,
 * uniform/gaussian/zipf keys, FIFO or reordering links, with or without faults), every history checked by the
 * TCC checker and the simulator's own invariants. Each CI run explores new seeds; a failure names its seed and the
 * command that replays it.
 *
 * <p>{@code -Dburn.seed=S} starts from seed S, {@code -Dburn.count=C} runs C seeds.
 */
class BurnTest {
    @Test
    void randomConfigurationsStayCausallyConsistent() {
        long first = Long.getLong("burn.seed", new SplittableRandom().nextLong());
        int count = Integer.getInteger("burn.count", 200);
        System.out.printf("burn: %d seeds from %d (replay one with: bin/fastccs sim --burn-seed SEED)%n", count, first);
        long txns = 0, checked = 0, faults = 0;
        long started = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long seed = first + i;
            SimResult result = run(seed);
            List<String> problems = result.problems();
            assertThat(problems)
                    .as("burn seed %d (%s) failed; replay: bin/fastccs sim --burn-seed %d", seed, result.config(), seed)
                    .isEmpty();
            txns += result.history().transactions().size();
            checked++;
            if (result.config().faults().any()) faults++;
        }
        System.out.printf(Locale.ROOT, "burn: %d histories (%d with faults), %,d transactions checked in %.1f s%n",
                checked, faults, txns, (System.nanoTime() - started) / 1e9);
    }

    /**
     * The compared protocols on the same random configurations, with the faults that they take (no partition crashes):
     * eiger and wren stay TCC-clean with every outcome settled; eventual's runs end with every write settled, and the
     * checker finds its anomalies. {@code -Dburn.compared.count=C} runs C seeds per protocol.
     */
    @ParameterizedTest
    @ValueSource(strings = {"eiger", "wren", "eventual"})
    void comparedProtocolsUnderFaults(String word) {
        Protocol protocol = Protocol.parse(word);
        long first = Long.getLong("burn.seed", new SplittableRandom().nextLong());
        int count = Integer.getInteger("burn.compared.count", 20);
        System.out.printf("burn %s: %d seeds from %d (replay one with: bin/fastccs sim --burn-seed SEED --protocol %s)%n",
                word, count, first, word);
        long txns = 0, faults = 0, lost = 0, crashes = 0, anomalies = 0;
        for (int i = 0; i < count; i++) {
            long seed = first + i;
            SimResult result = run(seed, protocol);
            String replay = "bin/fastccs sim --burn-seed " + seed + " --protocol " + word;
            List<String> problems = result.problems();
            if (protocol == Protocol.EVENTUAL)
                assertThat(result.stats().invariantViolations()).as("burn seed %d (%s); replay: %s", seed, result.config(), replay)
                        .noneMatch(v -> v.contains("no known outcome"));
            else
                assertThat(problems).as("burn seed %d (%s) failed; replay: %s", seed, result.config(), replay).isEmpty();
            txns += result.history().transactions().size();
            anomalies += result.check().anomalies().size();
            lost += result.stats().messagesLost();
            crashes += result.stats().clientCrashes();
            if (result.config().faults().any()) faults++;
        }
        System.out.printf(Locale.ROOT, "burn %s: %d histories (%d with faults), %,d transactions, %,d messages lost, "
                + "%,d clients crashed mid-write, %,d anomalies%n", word, count, faults, txns, lost, crashes, anomalies);
        if (protocol == Protocol.EVENTUAL && count >= 10)
            assertThat(anomalies).as("the checker found no anomaly in %d eventual histories from seed %d", count, first)
                    .isPositive();
    }

    static SimResult run(long seed) {
        return run(seed, Protocol.FASTCCS);
    }

    static SimResult run(long seed, Protocol protocol) {
        try {
            return new Simulation(BurnConfigs.forSeed(seed, protocol), seed).run();
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError("burn seed " + seed + " crashed; replay: bin/fastccs sim --burn-seed " + seed
                    + (protocol == Protocol.FASTCCS ? "" : " --protocol " + protocol.word()), e);
        }
    }
}
