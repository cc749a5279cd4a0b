package io.fastccs.tools.cli;

import io.fastccs.server.node.InProcessCluster;
import io.fastccs.tools.cli.Cli.Run;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.fastccs.tools.cli.Cli.run;
import static io.fastccs.tools.cli.Cli.runWithInput;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/fastccs add|max|set-add|set-remove|topk-insert}, {@code write}'s options of the same names, the shell's
 * commands and how {@code read} prints typed keys, in-process against real FastCCS nodes (a 3-partition
 * {@link InProcessCluster} on ephemeral loopback ports).
 */
class OperationCommandsTest {
    private static InProcessCluster cluster;
    private static String host;
    /** A prefix that keeps each test's keys apart on the shared cluster. */
    private String p;

    @BeforeAll
    static void start() throws Exception {
        cluster = InProcessCluster.start(3);
        host = cluster.contactPoints().get(0).getHostString() + ":" + cluster.contactPoints().get(0).getPort();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) cluster.close();
    }

    @BeforeEach
    void keyPrefix(TestInfo test) {
        p = test.getTestMethod().orElseThrow().getName() + "-" + System.nanoTime() + "-";
    }

    /** Runs {@code args} after the command with {@code --host} and {@code --print-token}: the token is the last line. */
    private static String committed(String token, String command, String... args) {
        List<String> all = new ArrayList<>(List.of(command, "--host", host, "--print-token"));
        if (token != null) all.addAll(List.of("--token", token));
        all.addAll(List.of(args));
        Run r = run(all.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.outLines().get(0)).startsWith("committed keys=");
        return r.lastLine();
    }

    private static List<String> read(String token, String... keys) {
        List<String> all = new ArrayList<>(List.of("read", "--host", host, "--token", token));
        all.addAll(List.of(keys));
        Run r = run(all.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        return r.outLines().subList(0, keys.length);
    }

    @Test
    void eachCommandWritesItsOperationAndReadPrintsTheTypedValues() {
        String t = committed(null, "add", p + "likes", "5");
        t = committed(t, "add", p + "likes", "-2");
        t = committed(t, "max", p + "best", "-7");
        t = committed(t, "max", p + "best", "-9");
        t = committed(t, "set-add", p + "tags", "java");
        t = committed(t, "set-add", p + "tags", "hello world");
        t = committed(t, "topk-insert", p + "top", "2", "alice", "950");
        t = committed(t, "topk-insert", p + "top", "2", "bob", "900");
        t = committed(t, "topk-insert", p + "top", "2", "carol", "10");
        assertThat(read(t, p + "likes", p + "best", p + "tags", p + "top", p + "never")).containsExactly(
                p + "likes=3 (counter)",
                p + "best=-7 (max)",
                p + "tags={hello world, java} (set)",
                p + "top=[alice=950, bob=900] (top-k)",
                p + "never (none)");
    }

    @Test
    void setRemoveReadsTheSetFirstSoItRemovesEveryAddVisibleThen() throws InterruptedException {
        String added = committed(null, "set-add", p + "s", "x");
        // Another invocation, without the token: its session has seen nothing, but reads the set before removing.
        long deadline = System.nanoTime() + 10_000_000_000L;
        String removed;
        while (true) {
            removed = committed(null, "set-remove", p + "s", "x");
            if (read(removed, p + "s").get(0).equals(p + "s={} (set)") || System.nanoTime() > deadline) break;
            Thread.sleep(50); // the add was not visible to that session yet: it removed nothing
        }
        assertThat(read(removed, p + "s")).containsExactly(p + "s={} (set)");
        assertThat(read(committed(added, "set-add", p + "s", "y"), p + "s")).containsExactly(p + "s={y} (set)");
    }

    @Test
    void writeCombinesPutsAndOperationsInOneTransaction() {
        String t = committed(null, "write", p + "post=hello", "--add", p + "count", "1", "--add", p + "count", "2",
                "--max", p + "best", "4", "--set-add", p + "tags", "java", "--topk-insert", p + "top", "3", "alice", "-950");
        assertThat(read(t, p + "post", p + "count", p + "best", p + "tags", p + "top")).containsExactly(
                p + "post=hello", p + "count=3 (counter)", p + "best=4 (max)", p + "tags={java} (set)",
                p + "top=[alice=-950] (top-k)");
        t = committed(t, "write", "--set-remove", p + "tags", "java", "--add", p + "count", "-3");
        assertThat(read(t, p + "count", p + "tags")).containsExactly(p + "count=0 (counter)", p + "tags={} (set)");
    }

    @Test
    void aWrongTypedOperationIsRefusedWithTheNodesMessageAndExits2() {
        String t = committed(null, "add", p + "c", "1");
        Run r = run("write", "--host", host, "--token", t, p + "c=oops", p + "other=fine");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("fastccs write: invalid request: ")
                .contains("key " + p + "c is a counter (add): PUT refused (a key keeps the type of its first operation)");
        Run k = run("topk-insert", "--host", host, "--token", committed(t, "topk-insert", p + "top", "2", "a", "1"),
                p + "top", "3", "b", "1");
        assertThat(k.exit()).isEqualTo(2);
        assertThat(k.err()).contains("is a top-2");
        assertThat(read(t, p + "c", p + "other")).containsExactly(p + "c=1 (counter)", p + "other (none)");
    }

    @Test
    void theShellHasTheOperationsAndReadsItsOwn() {
        String input = String.join("\n",
                "add " + p + "c 2",
                "add " + p + "c -5",
                "max " + p + "m 3",
                "set-add " + p + "s 'two words'",
                "set-remove " + p + "s 'two words'",
                "set-add " + p + "s z",
                "topk-insert " + p + "t 1 a 7",
                "read " + p + "c " + p + "m " + p + "s " + p + "t",
                "add " + p + "c",
                "topk-insert " + p + "t 1 a") + "\n";

        Run s = runWithInput(input, "shell", "--host", host);

        assertThat(s.exit()).isEqualTo(2);
        List<String> lines = s.outLines();
        for (int i = 0; i < 7; i++) assertThat(lines.get(i)).startsWith("committed keys=1");
        assertThat(lines.subList(7, 11)).containsExactly(p + "c=-3 (counter)", p + "m=3 (max)", p + "s={z} (set)",
                p + "t=[a=7] (top-k)");
        assertThat(s.err().lines()).containsExactly(
                "line 9: add: add takes KEY DELTA (2 arguments, 1 given)",
                "line 10: topk-insert: topk-insert takes KEY K ITEM SCORE (4 arguments, 3 given)");
    }

    static Stream<Arguments> invalidInput() {
        return Stream.of(
                Arguments.of(List.of("add", "k", "x"), "fastccs add: DELTA 'x' for key 'k' is not a whole number"),
                Arguments.of(List.of("add", "k", "1.5"), "is not a whole number"),
                Arguments.of(List.of("add", "", "1"), "fastccs add: empty key"),
                Arguments.of(List.of("add", "k"), "Missing required parameter: 'DELTA'"),
                Arguments.of(List.of("max", "k", "99999999999999999999"), "fastccs max: VALUE '99999999999999999999' for key 'k'"),
                Arguments.of(List.of("set-add", "k", ""), "fastccs set-add: empty ELEMENT for key 'k'"),
                Arguments.of(List.of("set-remove", "k", ""), "fastccs set-remove: empty ELEMENT for key 'k'"),
                Arguments.of(List.of("topk-insert", "k", "0", "a", "1"), "fastccs topk-insert: K for key 'k' is 0; it must be 1 to 1024"),
                Arguments.of(List.of("topk-insert", "k", "1025", "a", "1"), "is 1025; it must be 1 to 1024"),
                Arguments.of(List.of("topk-insert", "k", "3", "", "1"), "empty ITEM for key 'k'"),
                Arguments.of(List.of("topk-insert", "k", "3", "a", "high"), "SCORE 'high' for key 'k' is not a whole number"),
                Arguments.of(List.of("write", "k=v", "--add", "k", "1"),
                        "fastccs write: key 'k' has two operations (put and add); a transaction applies one operation per key"),
                Arguments.of(List.of("write", "--set-add", "k", "a", "--set-remove", "k", "a"), "(set-add and set-remove)"),
                Arguments.of(List.of("write", "--topk-insert", "k", "3", "a"), "--topk-insert"));
    }

    @ParameterizedTest
    @MethodSource("invalidInput")
    void invalidInputExitsWith2BeforeConnecting(List<String> args, String message) throws IOException {
        List<String> withHost = new ArrayList<>(args);
        withHost.addAll(1, List.of("--host", "127.0.0.1:" + closedPort()));

        Run r = run(withHost.toArray(String[]::new));

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains(message);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
