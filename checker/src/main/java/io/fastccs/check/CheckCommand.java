package io.fastccs.check;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Command line: {@code check FILE [--final-session S]... [--max-report N]} checks a Plume-format
 * history (with our typed-operation lines, see {@link PlumeText}) for TCC. Exit code 0 when clean,
 * 1 when anomalies were found, 2 on bad input or usage.
 * A leading literal {@code check} argument is accepted and ignored, so launchers may pass it.
 */
@Command(name = "check", mixinStandardHelpOptions = true, version = "fastccs-checker 0.1.0",
        description = "Checks a Plume-format history (r/w(key,value,session,txn) per line, plus our typed lines: "
                + "add, max, sadd, srem, topk, rc, rm, rs, rt) for transactional causal consistency. "
                + "Exit code: 0 = consistent, 1 = anomalies found, 2 = bad input or usage.")
public final class CheckCommand implements Callable<Integer> {

    static final int EXIT_OK = 0;
    static final int EXIT_ANOMALIES = 1;
    static final int EXIT_BAD_INPUT = 2;

    @Parameters(index = "0", paramLabel = "FILE", description = "history file in Plume text format")
    Path file;

    @Option(names = "--final-session", paramLabel = "S",
            description = "session whose transactions ran after the workload quiesced (repeatable)")
    List<Long> finalSessions = new ArrayList<>();

    @Option(names = "--max-report", paramLabel = "N", defaultValue = "100",
            description = "print at most N anomalies (default: ${DEFAULT-VALUE})")
    int maxReport;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (maxReport < 0) {
            err.println("--max-report must be >= 0");
            return EXIT_BAD_INPUT;
        }
        History history;
        try {
            history = PlumeText.read(file, new LinkedHashSet<>(finalSessions));
        } catch (IOException | IllegalArgumentException e) {
            err.println("cannot read " + file + ": "
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()));
            return EXIT_BAD_INPUT;
        }
        long start = MonotonicClock.nanoTime();
        CheckResult result = TccChecker.check(history, Math.max(TccChecker.DEFAULT_MAX_STORED, maxReport));
        long millis = (MonotonicClock.nanoTime() - start) / 1_000_000;
        out.println("history:      " + file);
        out.println("transactions: " + result.transactions() + " (" + result.committedTransactions() + " committed)");
        out.println("reads:        " + result.reads());
        out.println("writes:       " + result.writes());
        out.println("time:         " + millis + " ms");
        if (result.ok()) {
            out.println("result:       OK, no TCC anomalies");
            out.flush();
            return EXIT_OK;
        }
        out.println("result:       " + result.totalAnomalies() + " anomalies");
        for (Map.Entry<Anomaly.Kind, Integer> e : result.counts().entrySet()) {
            out.printf("  %-20s %d%n", e.getKey(), e.getValue());
        }
        int shown = Math.min(maxReport, result.anomalies().size());
        for (int i = 0; i < shown; i++) {
            Anomaly a = result.anomalies().get(i);
            out.println(a.kind() + (a.key().isPresent() ? " key=" + a.key().getAsLong() : "") + " txns="
                    + a.txnIds() + ": " + a.description());
        }
        if (result.totalAnomalies() > shown) {
            out.println("... " + (result.totalAnomalies() - shown) + " more not shown (--max-report)");
        }
        out.flush();
        return EXIT_ANOMALIES;
    }

    /** Runs the command without exiting; returns the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        String[] a = args;
        if (a.length >= 2 && a[0].equals("check")) {
            a = Arrays.copyOfRange(a, 1, a.length);
        }
        CommandLine cl = new CommandLine(new CheckCommand());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("error: " + ex);
            return EXIT_BAD_INPUT;
        });
        int code = cl.execute(a);
        out.flush();
        err.flush();
        return code;
    }

    /** Entry point; exits with {@link #run}'s code. */
    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }
}
