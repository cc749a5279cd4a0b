package io.fastccs.sim;

import io.fastccs.check.CheckResult;
import io.fastccs.core.spi.Protocols;
import io.fastccs.baselines.eiger.EigerBug;
import io.fastccs.baselines.eiger.EigerProtocol;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.spi.ProtocolFactory;
import io.fastccs.baselines.wren.WrenBug;
import io.fastccs.baselines.wren.WrenProtocol;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Set;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Eiger and Wren as the thesis compares them: TCC-clean histories on seeded, contended runs with delay spikes and
 * reordering, and each deliberately broken variant caught by the checker within a bounded number of seeds. Every
 * failure prints its seed and the command that replays it.
 */
class ComparedProtocolsTest {
    private static final int CLEAN_SEEDS = 6;
    private static final int MAX_SEEDS = 30;

    /** A seed's run: hot or cold keys, few or many writes, 4 to 16 partitions, reordering links, delay spikes. */
    private static SimConfig config(Protocol protocol, long seed) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        return SimConfig.builder().partitions(4 + r.nextInt(13)).clients(16 + r.nextInt(49))
                .keys(r.nextBoolean() ? 100 + r.nextInt(400) : 10_000).writeFraction(0.05 + 0.45 * r.nextDouble())
                .keysPerRead(2 + r.nextInt(5)).keysPerWrite(2 + r.nextInt(5)).transactions(2_000 + r.nextInt(2_000))
                .fifo(r.nextBoolean()).faults(SimConfig.Faults.delaysOnly()).protocol(protocol).build();
    }

    private static SimResult run(Protocol protocol, ProtocolFactory factory, long seed) {
        return new Simulation(config(protocol, seed), seed, factory, s -> { }).run();
    }

    @ParameterizedTest
    @ValueSource(strings = {"eiger", "wren"})
    void cleanOnSeededContendedRuns(String word) {
        Protocol protocol = Protocol.parse(word);
        long first = Long.getLong("clean.from", 7000); // -Dclean.from=S runs another window of seeds
        for (long seed = first; seed < first + CLEAN_SEEDS; seed++) {
            SimResult r = run(protocol, Protocols.factory(protocol), seed);
            if (!r.clean()) fail(word + " seed " + seed + ": " + r.problems() + "\nreplay: " + r.replayCommand());
            System.out.printf("%s seed %d: %d txns, rounds/read %.4f, second rounds %.3f%%%n", word, seed,
                    r.stats().transactions(), r.stats().meanRoundsPerRead(), 100 * r.stats().secondRoundShare());
        }
    }

    @ParameterizedTest
    @EnumSource(EigerBug.class)
    void checkerCatchesBrokenEiger(EigerBug bug) {
        caught("eiger " + bug, Protocol.EIGER, () -> new EigerProtocol(Set.of(bug)));
    }

    @ParameterizedTest
    @EnumSource(WrenBug.class)
    void checkerCatchesBrokenWren(WrenBug bug) {
        caught("wren " + bug, Protocol.WREN, () -> new WrenProtocol(Set.of(bug)));
    }

    private static void caught(String variant, Protocol protocol, Supplier<ProtocolFactory> broken) {
        for (long seed = 8000; seed < 8000 + MAX_SEEDS; seed++) {
            SimResult r = run(protocol, broken.get(), seed);
            CheckResult check = r.check();
            if (!check.ok() || !r.stats().invariantViolations().isEmpty()) {
                System.out.printf("broken variant %s caught at seed %d (%d seeds): %s %s%n", variant, seed, seed - 7999,
                        check.counts(), r.stats().invariantViolations().stream().limit(1).toList());
                return;
            }
        }
        fail("the checker did not catch " + variant + " within " + MAX_SEEDS + " seeds");
    }
}
