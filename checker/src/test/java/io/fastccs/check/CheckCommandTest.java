package io.fastccs.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckCommandTest {

    @TempDir
    Path dir;

    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    int run(String... args) {
        return CheckCommand.run(new PrintWriter(out), new PrintWriter(err), args);
    }

    Path file(String content) throws IOException {
        Path f = dir.resolve("history.txt");
        Files.writeString(f, content);
        return f;
    }

    @Test
    void cleanHistoryExitsZero() throws IOException {
        Path f = file("w(1,1,1,1)\nw(2,1,1,1)\nr(1,1,2,2)\nr(2,1,2,2)\nw(1,2,1,-1)\n");
        assertThat(run(f.toString())).isEqualTo(0);
        assertThat(out.toString()).contains("transactions: 3 (2 committed)", "reads:        2", "writes:       3",
                "time:", "OK");
    }

    @Test
    void anomaliesExitOneAndAreListed() throws IOException {
        Path f = file("w(1,1,1,1)\nw(2,1,1,1)\nr(1,1,2,2)\nr(2,0,2,2)\nr(5,9,3,3)\nr(6,9,3,4)\n");
        assertThat(run("check", f.toString(), "--max-report", "2")).isEqualTo(1);
        assertThat(out.toString()).contains("3 anomalies", "FRACTURED_READ", "THIN_AIR_READ",
                "THIN_AIR_READ key=5 txns=[3]", "1 more not shown");
        assertThat(run(f.toString(), "--max-report", "10")).isEqualTo(1);
        assertThat(out.toString()).contains("FRACTURED_READ key=2 txns=[1, 2]");
    }

    @Test
    void finalSessionOptionEnablesConvergenceChecks() throws IOException {
        Path f = file("w(1,1,1,1)\nw(1,2,2,2)\nr(1,1,7,3)\nr(1,2,8,4)\n");
        assertThat(run(f.toString())).isEqualTo(0);
        assertThat(run(f.toString(), "--final-session", "7", "--final-session", "8")).isEqualTo(1);
        assertThat(out.toString()).contains("NON_CONVERGENCE");
    }

    @Test
    void typedHistoriesAreChecked() throws IOException {
        Path clean = file("add(1,1,1,1)\nsadd(2,7,1,1)\nrc(1,1,2,2)\nrs(2,[7],2,2)\n");
        assertThat(run(clean.toString())).isEqualTo(0);
        Path lost = file("add(1,1,1,1)\nrc(1,0,1,2)\n");
        assertThat(run(lost.toString())).isEqualTo(1);
        assertThat(out.toString()).contains("READ_YOUR_WRITES key=1 txns=[1, 2]");
    }

    @Test
    void malformedInputExitsTwo() throws IOException {
        Path f = file("w(1,1,1,1)\nbogus\n");
        assertThat(run(f.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("line 2");
    }

    @Test
    void missingFileExitsTwo() {
        assertThat(run(dir.resolve("nope.txt").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("nope.txt");
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(run()).isEqualTo(2);
        assertThat(run("a", "--bogus")).isEqualTo(2);
        assertThat(run("a", "--max-report", "x")).isEqualTo(2);
    }

    @Test
    void helpExitsZero() {
        assertThat(run("--help")).isEqualTo(0);
        assertThat(out.toString()).contains("Usage: check", "--final-session", "--max-report");
    }
}
