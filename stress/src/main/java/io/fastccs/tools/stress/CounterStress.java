package io.fastccs.tools.stress;

import io.fastccs.check.CheckResult;
import io.fastccs.check.Op;
import io.fastccs.tools.cluster.ToolClock;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * {@code bin/fastccs stress counter}: Doppel's INCR, a hot counter. Every operation increments one of {@code keys}
 * counters (1: one hot key), each run on counters of its own (fresh key names), so that at the end the counters must
 * add up to the increments acknowledged during the run (warm-up included):
 * <ul>
 *   <li>{@code op=add}: a write-only transaction {@code add(key, 1)} (FastCCS's commutative counter), or with
 *       {@code -mode cql} Cassandra's native counter column ({@code UPDATE ... SET c = c + 1});</li>
 *   <li>{@code op=put}: a blind put of a unique value to the key (no read: the upper bound, counts nothing);</li>
 *   <li>{@code op=rmw}: read the plain key (its count), then put count + 1: two transactions, any mode, losing
 *       updates under concurrency.</li>
 * </ul>
 * A plain counter value is {@code COUNT#ID}: the decimal count, then the write's unique id (the history checker needs
 * unique values).
 */
public final class CounterStress {
    public enum CounterOp { ADD, PUT, RMW }

    static final String USAGE = String.join("\n",
            "usage: bin/fastccs stress counter [keys=1] [op=add|put|rmw] [duration=30s | n=N] [cl=ONE|...]",
            "         [-rate threads=N] [-node H1,H2,...] [-port native=9042 fastccs=9142] [-log interval=1s]",
            "         [-warmup duration=5s] [-mode fastccs|eiger|wren|eventual|cql [user=U password=P]] [-check] [--history FILE]",
            "Increments keys=K counters (default 1: one hot key), fresh ones every run, uniformly at random:",
            "op=add (default) a write-only transaction add(key, 1): FastCCS, or -mode cql with Cassandra's counter column;",
            "op=put a blind put of a unique value (no read, the upper bound); op=rmw read the plain value, write it + 1",
            "(any mode; loses updates under concurrency). At the end the counters are read after 1 s of quiet and",
            "compared with the increments acknowledged (warm-up included): lost updates = acknowledged - final when positive.",
            "For op=add the final value must lie in [acknowledged, acknowledged + unconfirmed]; exit code 1 if not, or",
            "if -check finds anomalies.");

    /** What a counter run ends with: the counts summed over its keys. */
    public record Verdict(long finalValue, long acknowledged, long unconfirmed, long lost, long overcounted) {
        /** Every acknowledged increment is in the final value, and nothing beyond the unconfirmed ones. */
        public boolean exact() {
            return lost == 0 && overcounted == 0;
        }
    }

    /** Per key: increments acknowledged and left unconfirmed (timeouts, unknown outcomes), thread-safe. */
    public static final class Tally {
        final AtomicLongArray acknowledged, unconfirmed;

        public Tally(int keys) {
            acknowledged = new AtomicLongArray(keys);
            unconfirmed = new AtomicLongArray(keys);
        }

        public void acknowledged(int key) { acknowledged.incrementAndGet(key); }

        public void unconfirmed(int key) { unconfirmed.incrementAndGet(key); }

        /** The verdict against the final value of every key: lost and overcounted are summed per key. */
        public Verdict verdict(long[] finals) {
            long f = 0, a = 0, u = 0, lost = 0, over = 0;
            for (int k = 0; k < finals.length; k++) {
                long ack = acknowledged.get(k), unc = unconfirmed.get(k);
                f += finals[k];
                a += ack;
                u += unc;
                lost += Math.max(0, ack - finals[k]);
                over += Math.max(0, finals[k] - ack - unc);
            }
            return new Verdict(f, a, u, lost, over);
        }
    }

    /** A plain counter value: the count and the unique id of the write. */
    static String plainValue(long count, long id) {
        return count + "#" + id;
    }

    /** The count of a plain counter value (0 for none). */
    static long count(String value) {
        if (value == null) return 0;
        int hash = value.indexOf('#');
        return Long.parseLong(hash < 0 ? value : value.substring(0, hash));
    }

    /** The write id of a plain value (0 for none, as the history writes it). */
    static long id(String value) {
        if (value == null) return 0;
        int hash = value.indexOf('#');
        return hash < 0 ? 0 : Long.parseLong(value.substring(hash + 1));
    }

    /** The parsed command line: the stress options and the counter's own. */
    public record Options(StressOptions stress, int keys, CounterOp op) {
        public String describe() {
            return "counter keys=" + keys + " op=" + op.name().toLowerCase(Locale.ROOT) + " mode=" + stress.mode.word()
                    + " " + (stress.n > 0 ? "n=" + stress.n : "duration=" + stress.duration.toMillis() / 1000.0 + "s")
                    + " threads=" + stress.threads;
        }
    }

    /** {@code args} after the word {@code counter}. */
    public static Options parse(String... args) {
        int keys = 1;
        CounterOp op = CounterOp.ADD;
        List<String> rest = new ArrayList<>(List.of("write"));
        boolean options = false;
        for (String a : args) {
            options |= a.startsWith("-");
            String lower = a.toLowerCase(Locale.ROOT);
            if (!options && lower.startsWith("keys=")) {
                keys = Integer.parseInt(a.substring(5));
                if (keys <= 0) throw new IllegalArgumentException("keys must be positive");
            } else if (!options && lower.startsWith("op=")) {
                try {
                    op = CounterOp.valueOf(a.substring(3).trim().toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("unknown op '" + a.substring(3) + "' (add, put or rmw)");
                }
            } else if (lower.equals("-pop") || lower.equals("-txn") || lower.equals("-populate") || lower.equals("-schema")
                    || lower.startsWith("ratio(")) {
                throw new IllegalArgumentException(a + " is not an option of stress counter (keys= picks the counters)");
            } else rest.add(a);
        }
        StressOptions o = StressOptions.parse(rest.toArray(String[]::new));
        o.populate = false;
        if (o.mode == StressOptions.Mode.BATCH) throw new IllegalArgumentException("stress counter: -mode batch has nothing to batch (one key per operation): use -mode cql");
        if (op == CounterOp.ADD && !(o.mode == StressOptions.Mode.FASTCCS || o.mode == StressOptions.Mode.CQL))
            throw new IllegalArgumentException("op=add is FastCCS's commutative counter (or Cassandra's counter column with -mode cql); "
                    + "-mode " + o.mode.word() + " has no counter: use op=rmw (read, then write + 1)");
        return new Options(o, keys, op);
    }

    /** Runs a parsed counter workload on a backend it opens and closes; the verdict is null for op=put. */
    public record Outcome(TypedStressRun.Result result, Verdict verdict, CheckResult check) {}

    public static Outcome run(Options opts, PrintStream out) throws Exception {
        try (TypedBackend backend = TypedBackend.of(opts.stress())) {
            return run(opts, backend, out);
        }
    }

    public static Outcome run(Options opts, TypedBackend backend, PrintStream out) throws Exception {
        StressOptions o = opts.stress();
        backend.prepare();
        String tag = Long.toString(ToolClock.currentTimeMillis(), 36);
        String[] names = new String[opts.keys()];
        for (int k = 0; k < names.length; k++) names[k] = "hot-" + tag + "-" + (k + 1);
        Tally tally = new Tally(opts.keys());
        HistoryRecorder history = new HistoryRecorder(o.history != null || o.check);
        CounterOp op = opts.op();
        TypedStressRun loop = new TypedStressRun(o, out);
        TypedStressRun.Result result = loop.run(backend.name(), t -> {
            TypedBackend.Session s = backend.session();
            long[] session = {history.newSession()};
            return random -> {
                int k = opts.keys() == 1 ? 0 : random.nextInt(opts.keys());
                long hk = k + 1;
                String key = names[k];
                try {
                    int rounds = 0;
                    StressBackend.WriteStatus st;
                    long id = history.nextValue();
                    switch (op) {
                        case ADD -> st = s.write(List.of(TypedBackend.Update.add(key, 1)));
                        case PUT -> st = s.write(List.of(TypedBackend.Update.put(key, plainValue(0, id))));
                        default -> {
                            String v;
                            try {
                                v = (String) s.read(List.of(key), TypedBackend.Kind.PLAIN).get(0);
                            } catch (Exception readFailed) {
                                if (s.takeReset()) session[0] = history.newSession();
                                return new TypedStressRun.Step(false, false, 0);
                            }
                            rounds = s.lastRounds();
                            history.read(session[0], new long[] {hk}, new long[] {id(v)});
                            st = s.write(List.of(TypedBackend.Update.put(key, plainValue(count(v) + 1, id))));
                        }
                    }
                    Op written = op == CounterOp.ADD ? Op.add(hk, 1) : Op.write(hk, id);
                    switch (st) {
                        case OK -> { tally.acknowledged(k); history.typed(session[0], List.of(written), true); }
                        case COMMITTED_UNCONFIRMED -> { tally.unconfirmed(k); history.typed(session[0], List.of(written), true); }
                        case ABORTED -> history.typed(session[0], List.of(written), false);
                        default -> tally.unconfirmed(k);
                    }
                    if (s.takeReset()) session[0] = history.newSession();
                    return new TypedStressRun.Step(false, st == StressBackend.WriteStatus.OK, rounds);
                } catch (Exception unknown) {
                    tally.unconfirmed(k);
                    if (s.takeReset()) session[0] = history.newSession();
                    return new TypedStressRun.Step(false, false, 0);
                }
            };
        });
        // The final reads, after the nodes settled (Wren acknowledges before it is visible), in history session 0.
        Thread.sleep(StressRun.QUIESCENCE_MILLIS);
        Verdict verdict = null;
        long[] finals = new long[opts.keys()];
        TypedBackend.Session last = backend.session();
        List<Op> finalOps = new ArrayList<>();
        for (int from = 0; from < names.length; from += 64) {
            List<String> part = List.of(names).subList(from, Math.min(names.length, from + 64));
            TypedBackend.Kind kind = op == CounterOp.ADD ? TypedBackend.Kind.COUNTER : TypedBackend.Kind.PLAIN;
            List<Object> values = StressRun.finalRead(() -> last.read(part, kind));
            for (int i = 0; i < part.size(); i++) {
                long hk = from + i + 1;
                if (op == CounterOp.ADD) {
                    finals[from + i] = (Long) values.get(i);
                    finalOps.add(Op.readCounter(hk, finals[from + i]));
                } else {
                    String v = (String) values.get(i);
                    finals[from + i] = count(v);
                    finalOps.add(Op.read(hk, id(v)));
                }
            }
        }
        if (history.enabled()) history.typed(HistoryRecorder.FINAL_SESSION, finalOps, true);
        if (op != CounterOp.PUT) verdict = tally.verdict(finals);
        CheckResult check = history.writeAndCheck(o, out);
        loop.printSummary(result, opts.describe());
        if (!o.quiet) {
            if (verdict == null) out.println("Final value               :        n/a      (op=put writes unique values and counts nothing)");
            else {
                out.printf(Locale.ROOT, "Final value               : %,10d      (%,d increments acknowledged, %,d unconfirmed, %d key%s)%n",
                        verdict.finalValue(), verdict.acknowledged(), verdict.unconfirmed(), opts.keys(), opts.keys() == 1 ? "" : "s");
                out.printf(Locale.ROOT, "Lost updates              : %,10d      (%.3f %% of acknowledged)%s%n", verdict.lost(),
                        verdict.acknowledged() == 0 ? 0.0 : 100.0 * verdict.lost() / verdict.acknowledged(),
                        verdict.overcounted() > 0 ? String.format(Locale.ROOT, "; %,d counted beyond acknowledged + unconfirmed", verdict.overcounted()) : "");
            }
            HistoryRecorder.printCheck(check, out);
        }
        return new Outcome(result, verdict, check);
    }

    public static void main(String[] args) {
        TypedStressRun.main("stress counter", USAGE, args, CounterStress::parse, Options::describe, o -> run(o, System.out),
                (o, r) -> (r.check() != null && !r.check().ok()) || (o.op() == CounterOp.ADD && r.verdict() != null && !r.verdict().exact()));
    }
}
