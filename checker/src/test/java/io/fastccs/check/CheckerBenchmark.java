package io.fastccs.check;

import java.io.StringReader;
import java.io.StringWriter;
import java.util.Random;

/**
 * Times the checker on a generated valid history: 100,000 transactions, 64 sessions, 5 operations
 * per transaction, 5% write transactions, 100,000 keys chosen with a gaussian, 4 final sessions.
 * Run: {@code java -cp target/classes:target/test-classes io.fastccs.check.CheckerBenchmark
 * [txns [sessions [writeFraction [keys]]]]}.
 */
public final class CheckerBenchmark {

    private CheckerBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int txns = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int sessions = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        double writeFraction = args.length > 2 ? Double.parseDouble(args[2]) : 0.05;
        int keys = args.length > 3 ? Integer.parseInt(args[3]) : 100_000;
        long t0 = System.nanoTime();
        History h = HistoryGen.serial(new Random(7),
                new HistoryGen.Params(txns, sessions, keys, 5, writeFraction, 0.01, true, 4, 1000));
        System.out.printf("generated %d transactions in %d ms%n", h.transactions().size(), ms(t0));
        for (int run = 1; run <= 3; run++) {
            long t = System.nanoTime();
            CheckResult r = TccChecker.check(h);
            System.out.printf("run %d: checked in %d ms: %s%n", run, ms(t), r.summary());
            if (!r.ok()) {
                throw new AssertionError("generated history should be valid: " + r.anomalies());
            }
        }
        long t = System.nanoTime();
        StringWriter w = new StringWriter();
        PlumeText.write(h, w);
        History back = PlumeText.read(new StringReader(w.toString()), h.finalSessions());
        // Aborted transactions come back renamed and merged per session, so compare the committed ones.
        boolean same = back.transactions().stream().filter(Txn::committed).toList()
                .equals(h.transactions().stream().filter(Txn::committed).toList());
        System.out.printf("Plume text write + read (%d bytes) in %d ms, committed transactions equal: %s%n",
                w.getBuffer().length(), ms(t), same);
    }

    private static long ms(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
