package io.fastccs.tools.cli;

import io.fastccs.server.node.InProcessCluster;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The program of docs/java-client.md, "A complete program", compiles (it is {@link ReadmeExample}), runs, and is the
 * same text.
 */
class ReadmeExampleTest {
    private static final Path PAGE = Path.of("..", "docs", "java-client.md");
    private static final Path SOURCE = Path.of("src/test/java/io/fastccs/tools/cli/ReadmeExample.java");

    @Test
    void theExampleRunsAgainstARealCluster() throws Exception {
        try (InProcessCluster cluster = InProcessCluster.start(3)) {
            InetSocketAddress node = cluster.contactPoints().get(1);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream stdout = System.out;
            PrintStream stderr = System.err;
            int exit;
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            try {
                exit = ReadmeExample.run(node.getHostString() + ":" + node.getPort());
            } finally {
                System.setOut(stdout);
                System.setErr(stderr);
            }
            String printed = out.toString(StandardCharsets.UTF_8);
            System.out.println("$ java ReadmeExample " + node.getHostString() + ":" + node.getPort() + "\n" + printed
                    + err.toString(StandardCharsets.UTF_8) + "[exit " + exit + "]");

            assertThat(exit).isZero();
            assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
            assertThat(printed.lines()).hasSize(3);
            assertThat(printed.lines().toList().get(0)).matches("committed 2 keys on [12] partition\\(s\\)");
            assertThat(printed.lines().toList().get(1))
                    .matches("alice:status=online alice:seen=2024-05-01 bob:status exists=false rounds=[12]");
            assertThat(printed.lines().toList().get(2)).matches("resumed fccs1\\.\\S+: alice:status=online");
        }
    }

    @Test
    void theExampleReportsAnUnreachableCluster() throws IOException {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        PrintStream stderr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = ReadmeExample.run("127.0.0.1:" + port);
        } finally {
            System.setErr(stderr);
        }
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("FastCCS: no contact point gave the ring");
    }

    @Test
    void theJavaClientPageShowsExactlyThisProgram() throws IOException {
        String page = Files.readString(PAGE);
        Matcher block = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(page);
        String shown = null;
        while (block.find())
            if (block.group(1).contains("public class ReadmeExample")) shown = block.group(1);
        assertThat(shown).as("a ```java block with ReadmeExample in " + PAGE.toAbsolutePath()).isNotNull();
        String source = Files.readString(SOURCE).replaceFirst("^package [^;]+;\n\n", "");
        assertThat(shown).isEqualTo(source);
    }
}
