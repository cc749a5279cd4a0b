package io.fastccs.sim;

import io.fastccs.check.CheckResult;
import io.fastccs.protocol.primitives.Protocol;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The simulator runs the protocols FastCCS is compared with through the same neutral interfaces, and the checker tells
 * them apart: on a contended workload the eventual baseline shows anomalies where FastCCS, on the same seed, shows none.
 */
class ProtocolsSimulationTest {
    /** Hot keys and many writes: where eventual consistency shows fractured and non-causal reads. */
    private static SimConfig contended(Protocol protocol) {
        return SimConfig.builder().partitions(8).clients(64).keys(200).writeFraction(0.3).transactions(4_000)
                .fifo(false).faults(SimConfig.Faults.delaysOnly()).protocol(protocol).build();
    }

    @Test
    void checkerFindsEventualAnomaliesWhereFastCcsHasNone() {
        long seed = 4242;
        SimResult eventual = new Simulation(contended(Protocol.EVENTUAL), seed).run();
        CheckResult check = eventual.check();
        System.out.printf("eventual, seed %d: %s; replay: %s%n", seed, check.counts(), eventual.replayCommand());
        assertThat(check.ok()).as("the checker found no anomaly in eventual's history (seed %d)", seed).isFalse();
        assertThat(eventual.stats().invariantViolations()).as("seed %d", seed).isEmpty();
        assertThat(eventual.stats().secondRoundShare()).isZero();

        SimResult fastccs = new Simulation(contended(Protocol.FASTCCS), seed).run();
        assertThat(fastccs.problems()).as("FastCCS, seed %d: %s", seed, fastccs.replayCommand()).isEmpty();
    }

    @Test
    void otherProtocolsRefuseFaultsTheyCannotSurviveYet() {
        assertThatThrownBy(() -> SimConfig.builder().protocol(Protocol.EVENTUAL).faults(SimConfig.Faults.standard()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("eventual runs in the simulator with delay spikes and reordering only");
        SimConfig eventual = SimConfig.builder().protocol(Protocol.EVENTUAL).transactions(100).build();
        assertThatThrownBy(() -> new Simulation(eventual, 1).replicate())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("replica groups are simulated for FastCCS only, not eventual");
    }

    @Test
    void replayCommandNamesTheProtocol() {
        SimResult r = new Simulation(SimConfig.builder().protocol(Protocol.EVENTUAL).transactions(200).build(), 5).run();
        assertThat(r.replayCommand()).endsWith("--protocol eventual");
    }
}
