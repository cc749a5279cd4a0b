package io.fastccs.sim;

import io.fastccs.check.CheckResult;
import io.fastccs.core.primitives.Protocol;
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
    void otherProtocolsRefusePartitionCrashesAndReplicaGroups() {
        for (Protocol p : new Protocol[] {Protocol.EIGER, Protocol.WREN, Protocol.EVENTUAL}) {
            assertThatThrownBy(() -> SimConfig.builder().protocol(p).faults(SimConfig.Faults.standard()).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(p.word() + " keeps its partitions' state in memory")
                    .hasMessageContaining("no partition crashes");
            SimConfig.Faults theirs = SimConfig.Faults.standardFor(p);
            assertThat(theirs.partitionCrashesPerSecond()).isZero();
            assertThat(theirs.messageLoss()).isEqualTo(SimConfig.Faults.standard().messageLoss());
            assertThat(theirs.clientCrashPerWrite()).isEqualTo(SimConfig.Faults.standard().clientCrashPerWrite());
            assertThat(SimConfig.builder().protocol(p).faults(theirs).build().faults()).isEqualTo(theirs);
            SimConfig config = SimConfig.builder().protocol(p).transactions(100).build();
            assertThatThrownBy(() -> new Simulation(config, 1).replicate())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("replica groups are simulated for FastCCS only, not " + p.word())
                    .hasMessageContaining("state in memory");
        }
        assertThat(SimConfig.Faults.standardFor(Protocol.FASTCCS)).isEqualTo(SimConfig.Faults.standard());
    }

    @Test
    void replayCommandNamesTheProtocol() {
        SimResult r = new Simulation(SimConfig.builder().protocol(Protocol.EVENTUAL).transactions(200).build(), 5).run();
        assertThat(r.replayCommand()).endsWith("--protocol eventual");
    }
}
