package io.fastccs.replication;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The test-only cut-off of a member's consensus traffic ({@link LinkFaults}) on three real Ratis servers over gRPC
 * (127.0.70.k): what the leader-isolation fault of the nemesis and the integration tests relies on, with no firewall.
 */
class LinkFaultsTest {
    private static final Duration ELECTION = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aCutOffLeaderLosesItsLeaseAndCommitsNothingWhileTheOthersElectALeaderThenItCatchesUpWhenHealed() throws Exception {
        ReplicaSettings settings = TestGroups.FAST.withLinkFaults(LinkFaults.controllable());
        try (TestGroups g = new TestGroups(dir, 3, 1, settings)) {
            int cut = g.awaitLeader(0, ELECTION);
            g.log(cut, 0).append(bytes("before")).get(30, TimeUnit.SECONDS);
            long termBefore = g.log(cut, 0).term();

            g.cutOff(cut);
            CompletableFuture<Long> stranded = g.log(cut, 0).append(bytes("stranded"));
            List<Integer> others = new ArrayList<>();
            for (int k = 0; k < 3; k++) if (k != cut) others.add(k);
            TestGroups.await(() -> others.stream().anyMatch(k -> g.log(k, 0).isLeaderReady()), ELECTION,
                    "one of the others leads");
            int elected = others.stream().filter(k -> g.log(k, 0).isLeaderReady()).findFirst().orElseThrow();
            assertThat(g.log(elected, 0).term()).isGreaterThan(termBefore);
            // The cut-off leader hears from nobody: its lease runs out and it may no longer answer reads.
            TestGroups.await(() -> {
                try {
                    g.log(cut, 0).readBarrier().get(2, TimeUnit.SECONDS);
                    return false;
                } catch (Exception e) {
                    return true;
                }
            }, ELECTION, "the cut-off leader refuses reads");
            g.log(elected, 0).append(bytes("after")).get(30, TimeUnit.SECONDS);
            // It steps down when it misses its followers' answers for an election timeout, failing what it held.
            assertThat(!stranded.isDone() || stranded.isCompletedExceptionally())
                    .as("an append at the cut-off leader does not commit while it is cut off (%s)", stranded).isTrue();
            assertThat(g.appliers[cut][0].applied()).containsExactly("before");

            g.heal();
            TestGroups.await(() -> g.appliers[cut][0].applied().contains("after"), Duration.ofSeconds(30),
                    "the healed member catches up");
            for (int k = 0; k < 3; k++) {
                int node = k;
                TestGroups.await(() -> g.appliers[node][0].applied().size() == g.appliers[elected][0].applied().size(),
                        Duration.ofSeconds(30), "node " + node + " applied what the leader did");
                assertThat(g.appliers[k][0].applied()).as("node %d applies the log of the new term", k)
                        .containsExactlyElementsOf(g.appliers[elected][0].applied()).doesNotContain("stranded");
            }
        }
    }

    @Test
    void linkFaultsOfAProductionMemberCannotBeSwitchedOn() {
        assertThat(LinkFaults.none().isControllable()).isFalse();
        assertThatThrownBy(() -> LinkFaults.none().cutOff(List.of("127.0.0.2")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("without controllable link faults");
        assertThat(LinkFaults.none().isCutOff("127.0.0.2")).isFalse();
    }
}
