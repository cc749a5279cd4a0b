package io.fastccs.tools.cli;

import io.fastccs.client.CausalToken;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.ring.TokenRing;
import io.fastccs.server.node.InProcessCluster;
import io.fastccs.tools.cli.Cli.Run;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static io.fastccs.tools.cli.Cli.run;
import static io.fastccs.tools.cli.Cli.runWithInput;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/fastccs write|read|shell} run in-process against real FastCCS nodes: a 3-partition
 * {@link InProcessCluster} on ephemeral loopback ports (never the fixed ports of a local Cassandra cluster), and
 * fake nodes that stay silent for the timeout paths.
 */
class ClientCommandTest {
    private static final String START_HINT = "is the cluster running? bin/fastccs cluster start --nodes 3";
    private static InProcessCluster cluster;
    /** Node 0 of {@link #cluster}, as HOST:PORT. */
    private static String host;
    /** A prefix that keeps each test's keys apart on the shared cluster. */
    private String p;

    @BeforeAll
    static void start() throws Exception {
        cluster = InProcessCluster.start(3);
        host = hostPort(cluster.contactPoints().get(0));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) cluster.close();
    }

    @org.junit.jupiter.api.BeforeEach
    void keyPrefix(TestInfo test) {
        p = test.getTestMethod().orElseThrow().getName() + "-" + System.nanoTime() + "-";
    }

    private static String hostPort(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    /** A loopback port nothing listens on. */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static Run eventually(Supplier<Run> attempt, Predicate<Run> done) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            Run r = attempt.get();
            if (done.test(r) || System.nanoTime() > deadline) return r;
            Thread.sleep(50);
        }
    }

    // ---- the commands working ------------------------------------------------------------------------------

    @Test
    void writeThenRead() throws Exception {
        Run w = run("write", "--host", host, p + "name=alice", p + "greeting=hello world=ok");

        assertThat(w.exit()).isZero();
        assertThat(w.err()).isEmpty();
        assertThat(w.outLines()).singleElement().asString().matches("committed keys=2 partitions=[12] txn=\\S+");

        // Another invocation is another session: without --token it sees the write once it is visible everywhere.
        Run r = eventually(() -> run("read", "--host", host, p + "name", p + "greeting", p + "never"),
                x -> x.out().contains(p + "name=alice"));
        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.outLines()).hasSize(4);
        assertThat(r.outLines().subList(0, 3))
                .containsExactly(p + "name=alice", p + "greeting=hello world=ok", p + "never (none)");
        assertThat(r.outLines().get(3)).matches("rounds=[12] partitions=[123]");
    }

    @Test
    void theTokenChainsCausalityAcrossInvocations() {
        // T=$(bin/fastccs write k=v1 --print-token | tail -1); bin/fastccs write k=v2 --token "$T" --print-token ...
        Run w1 = run("write", p + "k=v1", "--host", host, "--print-token");
        assertThat(w1.exit()).isZero();
        assertThat(w1.outLines()).hasSize(2);
        assertThat(w1.outLines().get(0)).startsWith("committed keys=1 partitions=1 txn=");
        String t1 = w1.lastLine();
        assertThat(t1).startsWith("fccs1.");

        Run w2 = run("write", p + "k=v2", "--host", host, "--token", t1, "--print-token");
        assertThat(w2.exit()).isZero();
        String t2 = w2.lastLine();

        // The first read with the token sees the latest write: no waiting, no retry.
        Run r = run("read", p + "k", "--host", host, "--token", t2, "--print-token");
        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.outLines()).hasSize(3);
        assertThat(r.outLines().get(0)).isEqualTo(p + "k=v2");
        assertThat(r.outLines().get(1)).matches("rounds=[12] partitions=1");
        long[] before = CausalToken.parse(t2).clock();
        long[] after = CausalToken.parse(r.lastLine()).clock();
        for (int i = 0; i < before.length; i++) assertThat(after[i]).isGreaterThanOrEqualTo(before[i]);
    }

    @Test
    void theShellKeepsOneSessionAndReadsCommandsFromAPipe() {
        String input = String.join("\n",
                "# a comment and a blank line are skipped",
                "",
                "write " + p + "a=1 " + p + "b=\"two words\"",
                "read " + p + "a " + p + "b " + p + "c",
                "write " + p + "a=updated",
                "READ " + p + "a",
                "token",
                "help",
                "quit",
                "write " + p + "after-quit=never") + "\n";

        Run s = runWithInput(input, "shell", "--host", host);

        assertThat(s.exit()).isZero();
        assertThat(s.err()).isEmpty();
        List<String> lines = s.outLines();
        assertThat(lines.get(0)).matches("committed keys=2 partitions=[12] txn=\\S+");
        // Read your writes at once: the shell is one session.
        assertThat(lines.subList(1, 4)).containsExactly(p + "a=1", p + "b=two words", p + "c (none)");
        assertThat(lines.get(4)).matches("rounds=[12] partitions=[123]");
        assertThat(lines.get(5)).startsWith("committed keys=1 partitions=1 txn=");
        assertThat(lines.get(6)).isEqualTo(p + "a=updated");
        assertThat(lines.get(7)).matches("rounds=[12] partitions=1");
        assertThat(lines.get(8)).startsWith("fccs1.");
        assertThat(CausalToken.parse(lines.get(8)).partitions()).isEqualTo(3);
        assertThat(String.join("\n", lines.subList(9, lines.size()))).isEqualTo(ClientCommand.SHELL_HELP);
        assertThat(s.out()).doesNotContain("fastccs>").doesNotContain("after-quit");
    }

    @Test
    void theShellResumesATokenAndKeepsItsOwnWrites() {
        String token = run("write", "--host", host, p + "elsewhere=from-another-process", "--print-token").lastLine();

        Run s = runWithInput("write " + p + "mine=1\nresume " + token + "\nread " + p + "elsewhere " + p + "mine\n",
                "shell", "--host", host);

        assertThat(s.exit()).isZero();
        assertThat(s.err()).isEmpty();
        assertThat(s.outLines()).contains("resumed", p + "elsewhere=from-another-process", p + "mine=1");
    }

    @Test
    void theShellStartsFromATokenAndEndsAtTheEndOfItsInput() {
        String token = run("write", "--host", host, p + "k=v", "--print-token").lastLine();

        Run s = runWithInput("read " + p + "k", "shell", "--host", host, "--token", token);

        assertThat(s.exit()).isZero();
        assertThat(s.outLines()).startsWith(p + "k=v");
    }

    @Test
    void aSecondContactPointIsTriedWhenTheFirstIsDown() throws IOException {
        Run r = run("read", "--host", "127.0.0.1:" + closedPort(), "--host", host, p + "x");

        assertThat(r.exit()).isZero();
        assertThat(r.outLines()).startsWith(p + "x (none)");
    }

    @Test
    void aOneMebibyteValueIsAccepted() {
        Run w = run("write", "--host", host, p + "big=" + "x".repeat(1 << 20));

        assertThat(w.exit()).isZero();
        assertThat(w.out()).startsWith("committed keys=1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"write", "read", "shell", "add", "max", "set-add", "set-remove", "topk-insert"})
    void everyCommandHasHelp(String command) {
        Run r = run(command, "--help");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("Usage: fastccs " + command).contains("--host", "--timeout", "--token");
        if (!command.equals("shell")) assertThat(r.out()).contains("--print-token");
        else assertThat(r.out()).contains("resume TOKEN", "quit");
    }

    // ---- exit code 3: the cluster cannot be reached --------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"write", "read", "shell"})
    void anUnreachableClusterExitsWith3AndSaysWhere(String command) throws IOException {
        String address = "127.0.0.1:" + closedPort();

        Run r = command.equals("shell") ? runWithInput("read k\n", command, "--host", address)
                : run(command, "--host", address, command.equals("write") ? "k=v" : "k");

        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("fastccs " + command + ": cannot reach the FastCCS cluster at " + address + " (")
                .contains("Connection refused").contains(START_HINT);
        assertThat(r.err().lines()).hasSize(1);
    }

    @Test
    void aNodeThatNeverAnswersTheHandshakeIsUnreachableAfterTheTimeout() throws IOException {
        try (SilentNode mute = new SilentNode(false)) {
            long start = System.nanoTime();
            Run r = run("read", "--host", mute.hostPort(), "--timeout", "0.3", "k");

            assertThat(r.exit()).isEqualTo(3);
            assertThat(r.err()).startsWith("fastccs read: cannot reach the FastCCS cluster at " + mute.hostPort())
                    .contains(START_HINT);
            assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
        }
    }

    // ---- exit code 2: usage and invalid input --------------------------------------------------------------

    static Stream<Arguments> invalidInput() {
        return Stream.of(
                Arguments.of(List.of("write", "k"), "fastccs write: 'k' is not KEY=VALUE; write takes pairs like name=alice"),
                Arguments.of(List.of("write", "a=1", "=v"), "fastccs write: '=v' has an empty key"),
                Arguments.of(List.of("write", "k="), "fastccs write: 'k=' has an empty value; FastCCS stores non-empty values only"),
                Arguments.of(List.of("write", "k=" + "x".repeat((1 << 20) + 1)),
                        "fastccs write: the value for key 'k' is 1048577 bytes, more than the maximum of 1048576 (1 MiB)"),
                Arguments.of(List.of("write", "a=1", "a=2"), "fastccs write: key 'a' is written twice"),
                Arguments.of(List.of("read", ""), "fastccs read: empty key"),
                Arguments.of(List.of("read", "a", "b", "a"), "fastccs read: key 'a' is given twice"),
                Arguments.of(List.of("read", "k".repeat(65_536)), "is 65536 bytes, more than the maximum of 65535"),
                Arguments.of(List.of("read", "--timeout", "soon", "k"), "fastccs read: --timeout 'soon': expected seconds"),
                Arguments.of(List.of("read", "--timeout", "0", "k"), "fastccs read: --timeout '0': must be more than 0"),
                Arguments.of(List.of("read", "--host", "127.0.0.1:99999", "k"),
                        "fastccs read: --host '127.0.0.1:99999': the port must be a number from 1 to 65535"),
                Arguments.of(List.of("read", "--token", "not-a-token", "k"),
                        "fastccs read: --token: 'not-a-token' is not a causal token (missing fccs1.)"),
                Arguments.of(List.of("shell", "--token", "fccs1.AAAA"), "fastccs shell: --token: 'fccs1.AAAA' is not a causal token"),
                Arguments.of(List.of("write"), "fastccs write: nothing to write: give KEY=VALUE pairs or operations"),
                Arguments.of(List.of("read", "--no-such-option", "k"), "Unknown option: '--no-such-option'"),
                Arguments.of(List.of(), "name a command: write, read, shell, add, max, set-add, set-remove or topk-insert"));
    }

    @ParameterizedTest
    @MethodSource("invalidInput")
    void invalidInputExitsWith2BeforeConnecting(List<String> args, String message) throws IOException {
        // An unreachable host: input is checked first, so these are 2 (input), not 3 (unreachable).
        List<String> withHost = new ArrayList<>(args);
        if (!args.isEmpty() && !args.contains("--host")) withHost.addAll(1, List.of("--host", "127.0.0.1:" + closedPort()));

        Run r = run(withHost.toArray(String[]::new));

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains(message);
    }

    @Test
    void aTokenFromAnotherClusterExitsWith2() throws Exception {
        String foreign;
        try (InProcessCluster other = InProcessCluster.start(2)) {
            foreign = run("write", "--host", hostPort(other.contactPoints().get(0)), "k=v", "--print-token").lastLine();
        }

        Run r = run("read", "--host", host, "--token", foreign, "k");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("fastccs read: --token: the causal token belongs to another cluster");
    }

    @Test
    void theShellReportsBadLinesWithTheirNumberAndGoesOn() {
        String input = String.join("\n",
                "frobnicate",
                "write " + p + "novalue",
                "read",
                "write " + p + "ok=1",
                "resume garbage",
                "token extra",
                "write \"unterminated",
                "read " + p + "ok") + "\n";

        Run s = runWithInput(input, "shell", "--host", host);

        assertThat(s.exit()).as("the exit code of the last failure").isEqualTo(2);
        assertThat(s.err().lines()).containsExactly(
                "line 1: frobnicate: unknown command 'frobnicate'; commands: write, read, add, max, set-add, set-remove, "
                        + "topk-insert, token, resume, continue, help, quit",
                "line 2: write: '" + CliInput.abbreviate(p + "novalue") + "' is not KEY=VALUE; write takes pairs like name=alice",
                "line 3: read: nothing to read: give one or more keys, e.g. read name",
                "line 5: resume: 'garbage' is not a causal token (missing fccs1.); a token is the fccs1.<base64> line "
                        + "--print-token or the shell's token command printed",
                "line 6: token: token takes no arguments",
                "line 7: unterminated \" quote");
        assertThat(s.outLines().get(0)).startsWith("committed keys=1");
        assertThat(s.outLines().get(1)).isEqualTo(p + "ok=1");
    }

    // ---- exit code 1: the transaction failed or timed out --------------------------------------------------

    @Test
    void aTransactionOnAStoppedNodeExitsWith1() throws Exception {
        try (InProcessCluster c = InProcessCluster.start(3)) {
            String contact = hostPort(c.contactPoints().get(0));
            TokenRing ring = TokenRing.of(c.node(0).ring().members());
            String onPartition2 = null;
            for (int i = 0; onPartition2 == null; i++)
                if (ring.ownerOf(Key.of(p + i)) == 2) onPartition2 = p + i;
            c.stop(2);

            Run r = run("read", "--host", contact, onPartition2);
            Run w = run("write", "--host", contact, onPartition2 + "=v");

            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.out()).isEmpty();
            assertThat(r.err()).startsWith("fastccs read: failed: ").contains("partition 2")
                    .contains("is that node running?");
            assertThat(w.exit()).isEqualTo(1);
            assertThat(w.err()).startsWith("fastccs write: failed: ").contains("partition 2");
        }
    }

    @Test
    void aReadWithoutAnswerTimesOutWithExit1() throws IOException {
        try (SilentNode silent = new SilentNode(true)) {
            Run r = run("read", "--host", silent.hostPort(), "--timeout", "300ms", "k");

            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.out()).isEmpty();
            assertThat(r.err()).startsWith("fastccs read: timed out: ")
                    .contains("the read had no effect, try again or raise --timeout");
        }
    }

    @Test
    void aWriteWithoutAnswerPrintsItsOutcomeAndExitsWith1() throws IOException {
        try (SilentNode silent = new SilentNode(true)) {
            Run w = run("write", "--host", silent.hostPort(), "--timeout", "0.3", "k=v", "--print-token");

            assertThat(w.exit()).isEqualTo(1);
            assertThat(w.outLines()).singleElement().asString().matches("not confirmed: outcome=UNKNOWN txn=\\S+");
            assertThat(w.err()).startsWith("fastccs write: timed out: ")
                    .contains("the outcome is unknown: the write may or may not take effect");
        }
    }

    @Test
    void theShellHoldsAnUnconfirmedWriteUntilToldToContinue() throws IOException {
        try (SilentNode silent = new SilentNode(true)) {
            Run s = runWithInput("write k=v\nread k\ncontinue\nread k\n", "shell", "--host", silent.hostPort(),
                    "--timeout", "0.3");

            assertThat(s.exit()).isEqualTo(1);
            assertThat(s.outLines().get(0)).startsWith("not confirmed: outcome=UNKNOWN");
            assertThat(s.outLines().get(1)).startsWith("continuing");
            List<String> err = s.err().lines().toList();
            assertThat(err).hasSize(3);
            assertThat(err.get(0)).startsWith("line 1: write: timed out: ");
            assertThat(err.get(1)).matches("line 2: read: refused: write \\S+ was not confirmed \\(outcome UNKNOWN\\), so this "
                    + "session cannot promise to see it; type 'continue' to go on without relying on it, or 'resume TOKEN'");
            // After continue, the read is sent (and times out: the node never answers).
            assertThat(err.get(2)).startsWith("line 4: read: timed out: ");
        }
    }
}
