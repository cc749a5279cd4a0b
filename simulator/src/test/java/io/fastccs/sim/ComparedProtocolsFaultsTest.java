package io.fastccs.sim;

import io.fastccs.check.CheckResult;
import io.fastccs.baselines.eiger.EigerBug;
import io.fastccs.baselines.eiger.EigerProtocol;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.spi.Protocols;
import io.fastccs.core.spi.ProtocolFactory;
import io.fastccs.baselines.wren.WrenBug;
import io.fastccs.baselines.wren.WrenProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Eiger, Wren and eventual under the fault mix of {@code sim --faults} for them: message loss, delay spikes and clients
 * dying in the middle of a write (no partition crashes: their state is in memory). Eiger and Wren stay TCC-clean, every
 * write's outcome is settled, and their broken variants are still caught; eventual's histories show anomalies, and the
 * run still ends with every write settled. Every failure prints its seed and the command that replays it.
 */
class ComparedProtocolsFaultsTest {
    private static final int CLEAN_SEEDS = 6;
    /** Every broken variant is caught under faults at this seed (found by trying 8000 up). */
    private static final long BROKEN_SEED = 8005;
    /** Hot keys, many writes (as in {@link ProtocolsSimulationTest}), where eventual shows anomalies. */
    private static final long EVENTUAL_SEED = 4242;

    /** ComparedProtocolsTest's runs (4 to 16 partitions, hot or cold keys, 5 to 50% writes) with the protocol's faults. */
    static SimConfig config(Protocol protocol, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return SimConfig.builder().partitions(4 + r.nextInt(13)).clients(16 + r.nextInt(49))
                .keys(r.nextBoolean() ? 100 + r.nextInt(400) : 10_000).writeFraction(0.05 + 0.45 * r.nextDouble())
                .keysPerRead(2 + r.nextInt(5)).keysPerWrite(2 + r.nextInt(5)).transactions(2_000 + r.nextInt(2_000))
                .fifo(r.nextBoolean()).faults(SimConfig.Faults.standardFor(protocol)).protocol(protocol).build();
    }

    private static SimResult run(SimConfig config, ProtocolFactory factory, long seed) {
        try {
            return new Simulation(config, seed, factory, s -> { }).run();
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError(config.protocol().word() + " seed " + seed + " crashed; replay: "
                    + SimResult.replayCommand(config, seed, false), e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"eiger", "wren"})
    void cleanUnderLossClientCrashesAndDelaySpikes(String word) {
        Protocol protocol = Protocol.parse(word);
        long first = Long.getLong("clean.from", 7000); // -Dclean.from=S runs another window of seeds
        long lost = 0, crashes = 0, settled = 0;
        for (long seed = first; seed < first + CLEAN_SEEDS; seed++) {
            SimResult r = run(config(protocol, seed), Protocols.factory(protocol), seed);
            if (!r.clean()) fail(word + " seed " + seed + ": " + r.problems() + "\nreplay: " + r.replayCommand());
            SimStats s = r.stats();
            System.out.printf("%s seed %d under faults: %d txns, %d messages lost, %d clients crashed mid-write, "
                            + "%d write timeouts, outcomes settled %s%n", word, seed, s.transactions(), s.messagesLost(),
                    s.clientCrashes(), s.writeTimeouts(), s.outcomesResolved());
            lost += s.messagesLost();
            crashes += s.clientCrashes();
            settled += s.outcomesResolved().values().stream().mapToLong(Long::longValue).sum();
        }
        assertThat(lost).as("%s: messages lost on seeds %d..%d", word, first, first + CLEAN_SEEDS - 1).isPositive();
        assertThat(crashes).as("%s: clients crashed mid-write", word).isPositive();
        assertThat(settled).as("%s: outcomes settled by asking the coordinator", word).isPositive();
    }

    @ParameterizedTest
    @EnumSource(EigerBug.class)
    void brokenEigerIsCaughtUnderFaults(EigerBug bug) {
        caught("eiger " + bug, config(Protocol.EIGER, BROKEN_SEED), new EigerProtocol(Set.of(bug)));
    }

    @ParameterizedTest
    @EnumSource(WrenBug.class)
    void brokenWrenIsCaughtUnderFaults(WrenBug bug) {
        caught("wren " + bug, config(Protocol.WREN, BROKEN_SEED), new WrenProtocol(Set.of(bug)));
    }

    private static void caught(String variant, SimConfig config, ProtocolFactory broken) {
        SimResult r = run(config, broken, BROKEN_SEED);
        CheckResult check = r.check();
        System.out.printf("broken variant %s under faults, seed %d: %s, %d messages lost, %d clients crashed%n", variant,
                BROKEN_SEED, check.counts(), r.stats().messagesLost(), r.stats().clientCrashes());
        assertThat(r.stats().messagesLost()).isPositive();
        if (check.ok() && r.stats().invariantViolations().isEmpty())
            fail("the checker did not catch " + variant + " under faults at seed " + BROKEN_SEED + "; replay (the real "
                    + "protocol): " + r.replayCommand());
    }

    /**
     * Eventual has no atomicity: a write its client lost track of (a lost reply, a crash mid-write) is committed if a
     * partition applied it, else aborted, so the run ends with every outcome known; the checker finds the anomalies.
     */
    @Test
    void eventualUnderFaultsShowsAnomaliesAndSettlesEveryWrite() {
        SimConfig config = SimConfig.builder().partitions(8).clients(64).keys(200).writeFraction(0.3).transactions(4_000)
                .fifo(false).faults(SimConfig.Faults.standardFor(Protocol.EVENTUAL)).protocol(Protocol.EVENTUAL).build();
        SimResult r = run(config, Protocols.factory(Protocol.EVENTUAL), EVENTUAL_SEED);
        CheckResult check = r.check();
        SimStats s = r.stats();
        System.out.printf("eventual under faults, seed %d: %d txns, %d messages lost, %d clients crashed mid-write, "
                        + "outcomes settled %s, %s; replay: %s%n", EVENTUAL_SEED, s.transactions(), s.messagesLost(),
                s.clientCrashes(), s.outcomesResolved(), check.counts(), r.replayCommand());
        assertThat(s.messagesLost()).isPositive();
        assertThat(s.clientCrashes()).isPositive();
        assertThat(s.outcomesResolved().getOrDefault(Outcome.COMMITTED, 0L))
                .as("partly applied writes settled as committed (seed %d)", EVENTUAL_SEED).isPositive();
        assertThat(s.invariantViolations()).as("seed %d: %s", EVENTUAL_SEED, r.replayCommand())
                .noneMatch(v -> v.contains("no known outcome"));
        assertThat(check.anomalies()).as("the checker found no anomaly in eventual's history (seed %d)", EVENTUAL_SEED)
                .isNotEmpty();
    }
}
