package io.fastccs.tools.cli;

import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs {@code bin/fastccs write|read|shell ...} in-process (what {@link ClientCommand#main} runs, without the exit),
 * capturing standard output and error, and logs a transcript of each run to the test output.
 */
final class Cli {
    private Cli() {
    }

    /** What a run printed and returned. */
    record Run(int exit, String out, String err) {
        List<String> outLines() {
            return out.lines().collect(Collectors.toList());
        }

        String lastLine() {
            List<String> lines = outLines();
            return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
        }
    }

    static Run run(String... args) {
        return runWithInput(null, args);
    }

    /** A run whose standard input is {@code input} (a pipe: no prompts). */
    static Run runWithInput(String input, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = ClientCommand.commandLine(
                new ByteArrayInputStream((input == null ? "" : input).getBytes(StandardCharsets.UTF_8)), false);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exit = commandLine.execute(args);
        Run run = new Run(exit, out.toString(), err.toString());
        System.out.println(transcript(input, args, run));
        return run;
    }

    private static String transcript(String input, String[] args, Run run) {
        StringBuilder b = new StringBuilder();
        String command = "bin/fastccs " + Arrays.stream(args).map(Cli::quote).collect(Collectors.joining(" "));
        if (input != null) b.append("$ printf '").append(input.replace("\n", "\\n")).append("' | ").append(command);
        else b.append("$ ").append(command);
        b.append('\n');
        run.out().lines().forEach(l -> b.append(abbreviate(l)).append('\n'));
        run.err().lines().forEach(l -> b.append("[stderr] ").append(abbreviate(l)).append('\n'));
        b.append("[exit ").append(run.exit()).append(']');
        return b.toString();
    }

    private static String quote(String arg) {
        String a = abbreviate(arg);
        return a.isEmpty() || a.chars().anyMatch(c -> " '\"$\\".indexOf(c) >= 0) ? "'" + a.replace("'", "'\\''") + "'" : a;
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 120) + "...(" + s.length() + " chars)";
    }
}
