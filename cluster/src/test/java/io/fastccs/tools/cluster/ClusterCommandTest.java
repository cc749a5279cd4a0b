package io.fastccs.tools.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterCommandTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"start", "status", "stop", "kill", "restart", "replace", "nodetool", "remove"})
    void everySubcommandHasHelp(String subcommand) {
        StringWriter out = new StringWriter();
        CommandLine commandLine = ClusterCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));

        int exit = commandLine.execute(subcommand, "--help");

        assertThat(exit).isZero();
        assertThat(out.toString()).startsWith("Usage: fastccs cluster " + subcommand).contains("--dir");
    }

    @Test
    void replaceIsAlsoCalledWipeAndSaysWhatItDeletes() {
        StringWriter out = new StringWriter();
        CommandLine commandLine = ClusterCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));

        assertThat(commandLine.execute("wipe", "--help")).isZero();
        assertThat(out.toString()).contains("replace_address_first_boot", "commitlog", "fastccs-raft", "replication factor 1");
    }

    @Test
    void nodetoolPassesEverythingAfterTheNodeNumberThrough() {
        CommandLine.ParseResult parsed = ClusterCommand.commandLine()
                .parseArgs("nodetool", "--dir", dir.toString(), "2", "ring", "-r", "--help");
        ClusterCommand.Nodetool nodetool = (ClusterCommand.Nodetool) parsed.subcommand().commandSpec().userObject();

        assertThat(nodetool.node).isEqualTo(2);
        assertThat(nodetool.args).containsExactly("ring", "-r", "--help");
    }

    @Test
    void startParsesItsOptions() {
        CommandLine.ParseResult parsed = ClusterCommand.commandLine()
                .parseArgs("start", "--nodes", "5", "--no-plugin", "--heap", "1G", "--dir", dir.toString());
        ClusterCommand.Start start = (ClusterCommand.Start) parsed.subcommand().commandSpec().userObject();

        assertThat(List.of(start.nodes, start.noPlugin, start.heap)).containsExactly(5, true, "1G");
    }

    @Test
    void aMissingClusterIsAOneLineErrorWithExitCodeOne() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = ClusterCommand.commandLine();
        commandLine.setErr(new PrintWriter(err));

        int exit = commandLine.execute("status", "--dir", dir.resolve("none").toString());

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).startsWith("cluster status: no cluster in ");
    }
}
