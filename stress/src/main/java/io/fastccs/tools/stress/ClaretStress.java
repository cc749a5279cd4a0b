package io.fastccs.tools.stress;

import io.fastccs.check.CheckResult;
import io.fastccs.check.Op;
import io.fastccs.tools.cluster.ToolClock;
import io.fastccs.workload.KeyDistribution;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * {@code bin/fastccs stress claret}: Claret's raw operation mix (Holt et al., EuroSys 2016, section 6.1) as FastCCS's
 * transactions allow it: sets over {@code keys} (10,000) keys drawn Zipf, 4 distinct keys per transaction, which is
 * either a read-only transaction of the 4 sets' sizes or, with probability {@code adds}, a write-only transaction of
 * 4 set adds of unique elements. {@code -mode fastccs} uses FastCCS's add-wins sets; every other mode (eiger, wren,
 * eventual, cql) keeps a set as a plain value, {@code WID|e1,e2,...} (WID the write's unique id, for the history), and
 * an add is a read of the 4 values followed by a write of each with its element appended: concurrent adds to a key
 * lose each other's elements. At the end every set is read after 1 s of quiet: an element acknowledged as added that
 * the final read does not show is a lost add.
 */
public final class ClaretStress {
    static final String USAGE = String.join("\n",
            "usage: bin/fastccs stress claret [zipf=0.6] [adds=0.5] [keys=10000] [duration=30s | n=N] [cl=ONE|...]",
            "         [-rate threads=N] [-node H1,H2,...] [-port native=9042 fastccs=9142] [-log interval=1s]",
            "         [-warmup duration=5s] [-mode fastccs|eiger|wren|eventual|cql [user=U password=P]] [-check] [--history FILE]",
            "Claret's raw mix: 4 distinct set keys per transaction drawn zipf(1..keys, zipf); with probability adds the",
            "transaction adds a unique element to each (fastccs: a write-only transaction of 4 setAdds; other modes: the",
            "sets as plain values, read then written back with the element, losing concurrent adds), else it reads the 4",
            "sets' sizes (a read-only transaction). At the end: lost adds = acknowledged elements the final reads miss;",
            "exit code 1 if -mode fastccs lost one, or if -check finds anomalies.");

    static final int OPS_PER_TXN = 4;

    /** The parsed command line. */
    public record Options(StressOptions stress, double zipf, double adds, int keys) {
        public boolean typed() {
            return stress.mode == StressOptions.Mode.FASTCCS;
        }

        public String describe() {
            return String.format(Locale.ROOT, "claret zipf=%s adds=%s keys=%d mode=%s%s %s threads=%d", zipf, adds, keys,
                    stress.mode.word(), typed() ? " (typed sets)" : " (sets as plain values, read then written)",
                    stress.n > 0 ? "n=" + stress.n : "duration=" + stress.duration.toMillis() / 1000.0 + "s", stress.threads);
        }
    }

    /** {@code args} after the word {@code claret}. */
    public static Options parse(String... args) {
        double zipf = 0.6, adds = 0.5;
        int keys = 10_000;
        List<String> rest = new ArrayList<>(List.of("write"));
        boolean options = false;
        for (String a : args) {
            options |= a.startsWith("-");
            String lower = a.toLowerCase(Locale.ROOT);
            if (!options && lower.startsWith("zipf=")) {
                zipf = Double.parseDouble(a.substring(5));
                if (!(zipf > 0)) throw new IllegalArgumentException("zipf must be > 0");
            } else if (!options && lower.startsWith("adds=")) {
                adds = Double.parseDouble(a.substring(5));
                if (!(adds >= 0 && adds <= 1)) throw new IllegalArgumentException("adds must be in [0, 1]");
            } else if (!options && lower.startsWith("keys=")) {
                keys = Integer.parseInt(a.substring(5));
                if (keys < OPS_PER_TXN) throw new IllegalArgumentException("keys must be at least " + OPS_PER_TXN);
            } else if (lower.equals("-pop") || lower.equals("-txn") || lower.equals("-populate") || lower.equals("-schema")
                    || lower.startsWith("ratio(")) {
                throw new IllegalArgumentException(a + " is not an option of stress claret (zipf=, adds= and keys= set the mix)");
            } else rest.add(a);
        }
        StressOptions o = StressOptions.parse(rest.toArray(String[]::new));
        o.populate = false;
        if (o.mode == StressOptions.Mode.BATCH) throw new IllegalArgumentException("stress claret: -mode batch is not supported, use -mode cql");
        o.population = KeyDistribution.zipf(1, keys, zipf);
        return new Options(o, zipf, adds, keys);
    }

    /** {@code count} distinct keys from {@code d}, ascending. */
    static long[] pick(KeyDistribution d, SplittableRandom random, int count) {
        TreeSet<Long> ks = new TreeSet<>();
        while (ks.size() < count) ks.add(d.next(random));
        return ks.stream().mapToLong(Long::longValue).toArray();
    }

    /** An emulated set as a plain value: the write's id, then the elements. */
    static String encode(long writeId, List<String> elements) {
        return writeId + "|" + String.join(",", elements);
    }

    /** The elements of an emulated set value (none for null). */
    static List<String> elements(String value) {
        if (value == null) return List.of();
        String body = value.substring(value.indexOf('|') + 1);
        return body.isEmpty() ? List.of() : Arrays.asList(body.split(","));
    }

    /** The write id of an emulated set value (0 for none). */
    static long writeId(String value) {
        return value == null ? 0 : Long.parseLong(value.substring(0, value.indexOf('|')));
    }

    /** Elements acknowledged as added to each key; what the final reads miss of them is lost. */
    public static final class Acknowledged {
        final ConcurrentMap<Long, Set<String>> byKey = new ConcurrentHashMap<>();

        public void added(long key, String element) {
            byKey.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(element);
        }

        public long count() {
            return byKey.values().stream().mapToLong(Set::size).sum();
        }

        /** Acknowledged elements of {@code key} not in {@code finalSet}. */
        public long lost(long key, List<String> finalSet) {
            Set<String> acked = byKey.get(key);
            if (acked == null) return 0;
            Set<String> seen = new java.util.HashSet<>(finalSet);
            return acked.stream().filter(e -> !seen.contains(e)).count();
        }
    }

    public record Outcome(TypedStressRun.Result result, long acknowledgedAdds, long lostAdds, CheckResult check) {
        public double lostShare() {
            return acknowledgedAdds == 0 ? 0 : (double) lostAdds / acknowledgedAdds;
        }
    }

    public static Outcome run(Options opts, PrintStream out) throws Exception {
        try (TypedBackend backend = TypedBackend.of(opts.stress())) {
            return run(opts, backend, out);
        }
    }

    public static Outcome run(Options opts, TypedBackend backend, PrintStream out) throws Exception {
        StressOptions o = opts.stress();
        backend.prepare();
        String prefix = "claret-" + Long.toString(ToolClock.currentTimeMillis(), 36) + "-";
        HistoryRecorder history = new HistoryRecorder(o.history != null || o.check);
        Acknowledged acked = new Acknowledged();
        Set<Long> touched = ConcurrentHashMap.newKeySet();
        boolean typed = opts.typed();
        TypedBackend.Kind readKind = typed ? TypedBackend.Kind.SET : TypedBackend.Kind.PLAIN;
        TypedStressRun loop = new TypedStressRun(o, out);
        TypedStressRun.Result result = loop.run(backend.name(), t -> {
            TypedBackend.Session s = backend.session();
            long[] session = {history.newSession()};
            return random -> {
                long[] keys = pick(o.population, random, OPS_PER_TXN);
                List<String> names = new ArrayList<>(OPS_PER_TXN);
                for (long k : keys) names.add(prefix + k);
                boolean add = random.nextDouble() < opts.adds();
                try {
                    if (!add) {
                        List<Object> values = s.read(names, readKind);
                        recordRead(history, session[0], keys, values, typed);
                        return new TypedStressRun.Step(true, true, s.lastRounds());
                    }
                    for (long k : keys) touched.add(k);
                    List<TypedBackend.Update> updates = new ArrayList<>(OPS_PER_TXN);
                    List<Op> ops = new ArrayList<>(OPS_PER_TXN);
                    String[] elements = new String[OPS_PER_TXN];
                    int rounds = 0;
                    if (typed) {
                        for (int i = 0; i < OPS_PER_TXN; i++) {
                            long e = history.nextValue();
                            elements[i] = Long.toString(e);
                            updates.add(TypedBackend.Update.setAdd(names.get(i), elements[i]));
                            ops.add(Op.setAdd(keys[i], e));
                        }
                    } else {
                        List<Object> values = s.read(names, readKind);
                        rounds = s.lastRounds();
                        recordRead(history, session[0], keys, values, false);
                        for (int i = 0; i < OPS_PER_TXN; i++) {
                            long wid = history.nextValue();
                            elements[i] = Long.toString(wid);
                            List<String> set = new ArrayList<>(elements((String) values.get(i)));
                            set.add(elements[i]);
                            updates.add(TypedBackend.Update.put(names.get(i), encode(wid, set)));
                            ops.add(Op.write(keys[i], wid));
                        }
                    }
                    StressBackend.WriteStatus st = s.write(updates);
                    switch (st) {
                        case OK -> {
                            for (int i = 0; i < OPS_PER_TXN; i++) acked.added(keys[i], elements[i]);
                            history.typed(session[0], ops, true);
                        }
                        case COMMITTED_UNCONFIRMED -> history.typed(session[0], ops, true);
                        case ABORTED -> history.typed(session[0], ops, false);
                        default -> { }
                    }
                    if (s.takeReset()) session[0] = history.newSession();
                    return new TypedStressRun.Step(false, st == StressBackend.WriteStatus.OK, rounds);
                } catch (Exception e) {
                    if (s.takeReset()) session[0] = history.newSession();
                    return new TypedStressRun.Step(!add, false, 0);
                }
            };
        });
        Thread.sleep(StressRun.QUIESCENCE_MILLIS);
        TypedBackend.Session last = backend.session();
        long[] all = touched.stream().mapToLong(Long::longValue).sorted().toArray();
        long lost = 0;
        for (int from = 0; from < all.length; from += 64) {
            long[] part = Arrays.copyOfRange(all, from, Math.min(all.length, from + 64));
            List<String> names = new ArrayList<>();
            for (long k : part) names.add(prefix + k);
            List<Object> values = StressRun.finalRead(() -> last.read(names, readKind));
            recordRead(history, HistoryRecorder.FINAL_SESSION, part, values, typed);
            for (int i = 0; i < part.length; i++) lost += acked.lost(part[i], setOf(values.get(i), typed));
        }
        CheckResult check = history.writeAndCheck(o, out);
        Outcome outcome = new Outcome(result, acked.count(), lost, check);
        loop.printSummary(result, opts.describe());
        if (!o.quiet) {
            out.printf(Locale.ROOT, "Lost adds                 : %,10d      (of %,d elements acknowledged as added, %.3f %%; %,d sets)%n",
                    lost, outcome.acknowledgedAdds(), 100 * outcome.lostShare(), all.length);
            HistoryRecorder.printCheck(check, out);
        }
        return outcome;
    }

    @SuppressWarnings("unchecked")
    private static List<String> setOf(Object value, boolean typed) {
        return typed ? (List<String>) value : elements((String) value);
    }

    private static void recordRead(HistoryRecorder history, long session, long[] keys, List<Object> values, boolean typed) {
        if (!history.enabled()) return;
        List<Op> ops = new ArrayList<>(keys.length);
        for (int i = 0; i < keys.length; i++) {
            if (typed) {
                List<String> set = setOf(values.get(i), true);
                ops.add(Op.readSet(keys[i], set.stream().mapToLong(Long::parseLong).toArray()));
            } else ops.add(Op.read(keys[i], writeId((String) values.get(i))));
        }
        history.typed(session, ops, true);
    }

    public static void main(String[] args) {
        TypedStressRun.main("stress claret", USAGE, args, ClaretStress::parse, Options::describe, o -> run(o, System.out),
                (o, r) -> (r.check() != null && !r.check().ok()) || (o.typed() && r.lostAdds() > 0));
    }
}
