package io.fastccs.tools.experiment;

import io.fastccs.tools.stress.StressOptions;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The typed workloads' experiments ({@code hot-counter}, {@code claret}, {@code retwis}): their runs metered and written
 * as rows to a file beside the CSV, which replaces it only once the experiment ends with at least one run (as
 * {@link ExperimentCommand} does: an experiment cut short leaves the earlier results in place), and a table of every run
 * at the end.
 */
final class RunTable implements AutoCloseable {
    private final String name;
    private final Path csvFile, partial;
    private final PrintWriter csv;
    private final List<String> lines = new ArrayList<>();
    private final long[] nodePids;
    private int failed;

    RunTable(Path out, String name, String csvHeader, long[] nodePids) throws IOException {
        Files.createDirectories(out);
        this.name = name;
        this.csvFile = out.resolve(name + ".csv");
        this.partial = out.resolve(name + ".csv.partial");
        this.csv = new PrintWriter(Files.newBufferedWriter(partial));
        this.nodePids = nodePids;
        csv.println(csvHeader);
    }

    /**
     * The order of the modes, points or arms in repetition {@code rep} (from 1): as given, reversed every other
     * repetition, so drift does not favour one. Every experiment runs in this order.
     */
    static <T> List<T> orderOf(List<T> items, int rep) {
        List<T> order = new ArrayList<>(items);
        if (rep % 2 == 0) Collections.reverse(order);
        return order;
    }

    /** One measured run of a parsed stress command, quiet, its nodes' and client's CPU metered; null if it failed (said). */
    <R> Metered<R> run(StressOptions o, Callable<R> run) {
        o.quiet = true;
        CpuMeter cpu = new CpuMeter(nodePids);
        o.atMeasureStart = cpu::start;
        o.atMeasureEnd = cpu::stop;
        try {
            return new Metered<>(run.call(), cpu);
        } catch (Exception failure) {
            System.out.println("    run failed, left out: " + failure);
            failed++;
            return null;
        }
    }

    /** A run's outcome and its CPU meter. */
    record Metered<R>(R outcome, CpuMeter cpu) {
    }

    /** A run's row and its line in the table (printed at once too). */
    void add(String csvRow, String tableLine) {
        csv.println(csvRow);
        csv.flush();
        lines.add(tableLine);
        System.out.println("    " + tableLine);
    }

    /** Ends the experiment: the CSV replaced if a run succeeded, the table printed under {@code tableHeader}; 1 if a run failed. */
    int finish(String tableHeader) throws IOException {
        csv.close();
        if (lines.isEmpty()) {
            Files.delete(partial);
            System.out.println("no run of " + name + " succeeded; " + csvFile + " is left as it was");
            return 1;
        }
        Files.move(partial, csvFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.printf("%n%s: every run%n%s%n", name, tableHeader);
        lines.forEach(System.out::println);
        System.out.println("wrote " + csvFile);
        return failed > 0 ? 1 : 0;
    }

    @Override
    public void close() {
        csv.close();
    }
}
