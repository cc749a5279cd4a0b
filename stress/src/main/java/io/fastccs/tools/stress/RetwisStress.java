package io.fastccs.tools.stress;

import io.fastccs.check.CheckResult;
import io.fastccs.check.Op;
import io.fastccs.tools.cluster.ToolClock;
import io.fastccs.workload.KeyDistribution;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bin/fastccs stress retwis}: a Twitter clone after Retwis, as Claret (Holt et al., EuroSys 2016, section 6.3)
 * ran it, in FastCCS's read-only and write-only transactions. {@code users} users (1,000) each follow
 * {@code follows} (10) others drawn Zipf(1.0) over the users, so followers are power-law distributed; the follower
 * sets are written first. Then:
 * <ul>
 *   <li>add-user (5 %): a put of a new user's profile;</li>
 *   <li>follow/unfollow (15 %, half each): read the followee's follower set; add a follower drawn uniformly, or remove
 *       one the read showed;</li>
 *   <li>post-tweet (30 %): read the author's (Zipf) follower set, then one write: the post, and the post's id added
 *       to the timeline set of each follower (at most {@code fanout}, 200, of them);</li>
 *   <li>get-timeline (50 %): read a user's timeline set, then the newest 10 posts on it.</li>
 * </ul>
 * {@code -mode fastccs} uses typed add-wins sets; the other modes keep a set as a plain value (as {@code stress
 * claret}: read, then written back), losing concurrent updates. Lost updates at the end: timeline entries acknowledged
 * and not in the final timeline, and follows acknowledged, never unfollowed, and not in the final follower set.
 */
public final class RetwisStress {
    static final String USAGE = String.join("\n",
            "usage: bin/fastccs stress retwis [users=1000] [follows=10] [fanout=200] [duration=30s | n=N]",
            "         [-rate threads=N] [-node H1,H2,...] [-port native=9042 fastccs=9142] [-log interval=1s]",
            "         [-warmup duration=5s] [-mode fastccs|eiger|wren|eventual|cql [user=U password=P]] [-check] [--history FILE]",
            "Retwis: add-user 5 %, follow/unfollow 15 %, post-tweet 30 % (the post and its id added to each follower's",
            "timeline, one write), get-timeline 50 % (the timeline and its newest 10 posts); followers power-law. fastccs",
            "uses typed sets, other modes sets as plain values (read then written). Reports lost timeline entries and lost",
            "follows; exit code 1 if -mode fastccs lost one, or if -check finds anomalies.");

    static final long FOLLOWERS = 0, TIMELINE = 1_000_000_000L, POST = 2_000_000_000L, PROFILE = 3_000_000_000L;
    static final int POSTS_PER_TIMELINE_READ = 10;

    public enum Action { ADD_USER, FOLLOW, UNFOLLOW, POST, TIMELINE }

    /** The action of a draw in [0, 1): 5 % add-user, 7.5 % follow, 7.5 % unfollow, 30 % post, 50 % timeline. */
    static Action action(double u) {
        if (u < 0.05) return Action.ADD_USER;
        if (u < 0.125) return Action.FOLLOW;
        if (u < 0.20) return Action.UNFOLLOW;
        if (u < 0.50) return Action.POST;
        return Action.TIMELINE;
    }

    public record Options(StressOptions stress, int users, int follows, int fanout) {
        public boolean typed() {
            return stress.mode == StressOptions.Mode.FASTCCS;
        }

        public String describe() {
            return String.format(Locale.ROOT, "retwis users=%d follows=%d fanout=%d mode=%s%s %s threads=%d", users, follows, fanout,
                    stress.mode.word(), typed() ? " (typed sets)" : " (sets as plain values)",
                    stress.n > 0 ? "n=" + stress.n : "duration=" + stress.duration.toMillis() / 1000.0 + "s", stress.threads);
        }
    }

    public static Options parse(String... args) {
        int users = 1000, follows = 10, fanout = 200;
        List<String> rest = new ArrayList<>(List.of("write"));
        boolean options = false;
        for (String a : args) {
            options |= a.startsWith("-");
            String lower = a.toLowerCase(Locale.ROOT);
            if (!options && lower.startsWith("users=")) users = Integer.parseInt(a.substring(6));
            else if (!options && lower.startsWith("follows=")) follows = Integer.parseInt(a.substring(8));
            else if (!options && lower.startsWith("fanout=")) fanout = Integer.parseInt(a.substring(7));
            else if (lower.equals("-pop") || lower.equals("-txn") || lower.equals("-populate") || lower.equals("-schema")
                    || lower.startsWith("ratio(")) {
                throw new IllegalArgumentException(a + " is not an option of stress retwis");
            } else rest.add(a);
        }
        if (users < 2 || follows < 1 || follows >= users || fanout < 1 || fanout > 1000)
            throw new IllegalArgumentException("need users >= 2, 1 <= follows < users, 1 <= fanout <= 1000");
        StressOptions o = StressOptions.parse(rest.toArray(String[]::new));
        o.populate = false;
        if (o.mode == StressOptions.Mode.BATCH) throw new IllegalArgumentException("stress retwis: -mode batch is not supported, use -mode cql");
        o.population = KeyDistribution.zipf(1, users, 1.0);
        return new Options(o, users, follows, fanout);
    }

    /** Each user's followers: user f follows {@code follows} distinct others drawn Zipf(1.0), a power law of followers. */
    static Map<Long, Set<Long>> followerGraph(int users, int follows, long seed) {
        KeyDistribution popular = KeyDistribution.zipf(1, users, 1.0);
        SplittableRandom r = new SplittableRandom(seed);
        Map<Long, Set<Long>> followers = new LinkedHashMap<>();
        for (long u = 1; u <= users; u++) followers.put(u, new TreeSet<>());
        for (long f = 1; f <= users; f++) {
            Set<Long> chosen = new HashSet<>();
            while (chosen.size() < follows) {
                long u = popular.next(r);
                if (u != f) chosen.add(u);
            }
            for (long u : chosen) followers.get(u).add(f);
        }
        return followers;
    }

    public record Outcome(TypedStressRun.Result result, long timelineAdds, long lostTimeline, long follows, long lostFollows,
                          CheckResult check) {}

    public static Outcome run(Options opts, PrintStream out) throws Exception {
        try (TypedBackend backend = TypedBackend.of(opts.stress())) {
            return run(opts, backend, out);
        }
    }

    public static Outcome run(Options opts, TypedBackend backend, PrintStream out) throws Exception {
        StressOptions o = opts.stress();
        backend.prepare();
        String prefix = "retwis-" + Long.toString(ToolClock.currentTimeMillis(), 36) + "-";
        boolean typed = opts.typed();
        HistoryRecorder history = new HistoryRecorder(o.history != null || o.check);
        TypedBackend.Kind setKind = typed ? TypedBackend.Kind.SET : TypedBackend.Kind.PLAIN;
        Names names = new Names(prefix);

        // The follower graph, written first (acknowledged follows, for the lost-follow count).
        Map<Long, Set<Long>> graph = followerGraph(opts.users(), opts.follows(), 15);
        ClaretStress.Acknowledged timelineAcked = new ClaretStress.Acknowledged(), followAcked = new ClaretStress.Acknowledged();
        Set<String> unfollowed = ConcurrentHashMap.newKeySet();
        long t0 = ToolClock.nanoTime();
        TypedBackend.Session pop = backend.session();
        long popSession = history.newSession();
        List<Long> users = new ArrayList<>(graph.keySet());
        // Transactions of up to 50 distinct keys (one operation per key): typed, round j adds the j-th follower of
        // every user that has one; plain, each set is written whole.
        List<List<long[]>> batches = new ArrayList<>();
        if (typed) {
            Map<Long, List<Long>> lists = new LinkedHashMap<>();
            graph.forEach((u, fs) -> lists.put(u, new ArrayList<>(fs)));
            int most = graph.values().stream().mapToInt(Set::size).max().orElse(0);
            for (int j = 0; j < most; j++) {
                List<long[]> round = new ArrayList<>();
                for (var e : lists.entrySet()) if (e.getValue().size() > j) round.add(new long[] {e.getKey(), e.getValue().get(j)});
                for (int from = 0; from < round.size(); from += 50) batches.add(round.subList(from, Math.min(round.size(), from + 50)));
            }
        } else {
            List<long[]> all = new ArrayList<>();
            for (long u : users) if (!graph.get(u).isEmpty()) all.add(new long[] {u, 0});
            for (int from = 0; from < all.size(); from += 50) batches.add(all.subList(from, Math.min(all.size(), from + 50)));
        }
        for (List<long[]> batch : batches) {
            List<TypedBackend.Update> updates = new ArrayList<>();
            List<Op> ops = new ArrayList<>();
            for (long[] edge : batch) {
                long u = edge[0];
                if (typed) {
                    String element = follower(edge[1], history.nextValue());
                    updates.add(TypedBackend.Update.setAdd(names.followers(u), element));
                    ops.add(Op.setAdd(FOLLOWERS + u, elementId(element)));
                    followAcked.added(FOLLOWERS + u, element);
                } else {
                    long wid = history.nextValue();
                    List<String> elements = new ArrayList<>();
                    for (long f : graph.get(u)) elements.add(follower(f, history.nextValue()));
                    updates.add(TypedBackend.Update.put(names.followers(u), ClaretStress.encode(wid, elements)));
                    ops.add(Op.write(FOLLOWERS + u, wid));
                    for (String e : elements) followAcked.added(FOLLOWERS + u, e);
                }
            }
            StressBackend.WriteStatus st = null;
            for (int attempt = 1; st != StressBackend.WriteStatus.OK; attempt++) {
                if (attempt > 5) throw new IllegalStateException("populate: the follower sets not written after 5 attempts (" + st + ")");
                st = pop.write(updates);
                if (st == StressBackend.WriteStatus.COMMITTED_UNCONFIRMED || st == StressBackend.WriteStatus.UNKNOWN)
                    throw new IllegalStateException("populate: a write left in doubt (" + st + "); run again");
            }
            history.typed(popSession, ops, true);
        }
        if (!o.quiet) out.printf(Locale.ROOT, "Populated %,d follows of %,d users in %.1f s (most followers: %,d)%n", followAcked.count(),
                opts.users(), (ToolClock.nanoTime() - t0) / 1e9, graph.values().stream().mapToInt(Set::size).max().orElse(0));

        AtomicLong nextUser = new AtomicLong(opts.users() + 1);
        Set<Long> touchedTimelines = ConcurrentHashMap.newKeySet();
        TypedStressRun loop = new TypedStressRun(o, out);
        TypedStressRun.Result result = loop.run(backend.name(), t -> {
            TypedBackend.Session s = backend.session();
            long[] session = {history.newSession()};
            return random -> {
                Action a = action(random.nextDouble());
                try {
                    TypedStressRun.Step step = switch (a) {
                        case ADD_USER -> {
                            long u = nextUser.getAndIncrement(), id = history.nextValue();
                            StressBackend.WriteStatus st = s.write(List.of(TypedBackend.Update.put(names.profile(u), id + "#user" + u)));
                            record(history, session[0], st, List.of(Op.write(PROFILE + u, id)));
                            yield new TypedStressRun.Step(false, st == StressBackend.WriteStatus.OK, 0);
                        }
                        case FOLLOW, UNFOLLOW -> {
                            long u = o.population.next(random);
                            String key = names.followers(u);
                            Object v = s.read(List.of(key), setKind).get(0);
                            int rounds = s.lastRounds();
                            recordSetRead(history, session[0], FOLLOWERS + u, v, typed);
                            List<String> current = setOf(v, typed);
                            String f;
                            boolean follow = a == Action.FOLLOW || current.isEmpty();
                            if (follow) {
                                long x = 1 + random.nextInt(opts.users());
                                if (x == u) x = x % opts.users() + 1;
                                f = follower(x, history.nextValue());
                            } else f = current.get(random.nextInt(current.size()));
                            if (!follow) unfollowed.add(u + "/" + f);
                            TypedBackend.Update update;
                            Op op;
                            if (typed) {
                                update = follow ? TypedBackend.Update.setAdd(key, f) : TypedBackend.Update.setRemove(key, f);
                                op = follow ? Op.setAdd(FOLLOWERS + u, elementId(f)) : Op.setRemove(FOLLOWERS + u, elementId(f));
                            } else {
                                long wid = history.nextValue();
                                List<String> next = new ArrayList<>(current);
                                if (follow) next.add(f);
                                else next.remove(f);
                                update = TypedBackend.Update.put(key, ClaretStress.encode(wid, next));
                                op = Op.write(FOLLOWERS + u, wid);
                            }
                            StressBackend.WriteStatus st = s.write(List.of(update));
                            record(history, session[0], st, List.of(op));
                            if (st == StressBackend.WriteStatus.OK && follow) followAcked.added(FOLLOWERS + u, f);
                            yield new TypedStressRun.Step(false, st == StressBackend.WriteStatus.OK, rounds);
                        }
                        case POST -> {
                            long author = o.population.next(random);
                            Object v = s.read(List.of(names.followers(author)), setKind).get(0);
                            int rounds = s.lastRounds();
                            recordSetRead(history, session[0], FOLLOWERS + author, v, typed);
                            List<String> fs = new ArrayList<>(new java.util.TreeSet<>(setOf(v, typed).stream().map(e -> Long.toString(userOf(e))).toList()));
                            while (fs.size() > opts.fanout()) fs.remove(random.nextInt(fs.size()));
                            long pid = history.nextValue();
                            List<TypedBackend.Update> updates = new ArrayList<>();
                            List<Op> ops = new ArrayList<>();
                            updates.add(TypedBackend.Update.put(names.post(pid), pid + "#tweet by " + author));
                            ops.add(Op.write(POST + pid, pid));
                            long[] timelines = fs.stream().mapToLong(Long::parseLong).toArray();
                            if (typed) {
                                for (long f : timelines) {
                                    updates.add(TypedBackend.Update.setAdd(names.timeline(f), Long.toString(pid)));
                                    ops.add(Op.setAdd(TIMELINE + f, pid));
                                }
                            } else if (timelines.length > 0) {
                                List<String> keys = new ArrayList<>();
                                for (long f : timelines) keys.add(names.timeline(f));
                                List<Object> values = s.read(keys, TypedBackend.Kind.PLAIN);
                                List<Op> reads = new ArrayList<>();
                                for (int i = 0; i < timelines.length; i++) {
                                    String tv = (String) values.get(i);
                                    reads.add(Op.read(TIMELINE + timelines[i], ClaretStress.writeId(tv)));
                                    long wid = history.nextValue();
                                    List<String> next = new ArrayList<>(ClaretStress.elements(tv));
                                    next.add(Long.toString(pid));
                                    updates.add(TypedBackend.Update.put(keys.get(i), ClaretStress.encode(wid, next)));
                                    ops.add(Op.write(TIMELINE + timelines[i], wid));
                                }
                                history.typed(session[0], reads, true);
                            }
                            for (long f : timelines) touchedTimelines.add(f);
                            StressBackend.WriteStatus st = s.write(updates);
                            record(history, session[0], st, ops);
                            if (st == StressBackend.WriteStatus.OK)
                                for (long f : timelines) timelineAcked.added(TIMELINE + f, Long.toString(pid));
                            yield new TypedStressRun.Step(false, st == StressBackend.WriteStatus.OK, rounds);
                        }
                        case TIMELINE -> {
                            long u = 1 + random.nextInt(opts.users());
                            Object v = s.read(List.of(names.timeline(u)), setKind).get(0);
                            int rounds = s.lastRounds();
                            recordSetRead(history, session[0], TIMELINE + u, v, typed);
                            long[] newest = setOf(v, typed).stream().mapToLong(Long::parseLong).sorted().toArray();
                            newest = Arrays.copyOfRange(newest, Math.max(0, newest.length - POSTS_PER_TIMELINE_READ), newest.length);
                            if (newest.length > 0) {
                                List<String> keys = new ArrayList<>();
                                for (long p : newest) keys.add(names.post(p));
                                List<Object> posts = s.read(keys, TypedBackend.Kind.PLAIN);
                                rounds = Math.max(rounds, s.lastRounds());
                                List<Op> reads = new ArrayList<>();
                                for (int i = 0; i < newest.length; i++) reads.add(Op.read(POST + newest[i], postId((String) posts.get(i))));
                                history.typed(session[0], reads, true);
                            }
                            yield new TypedStressRun.Step(true, true, rounds);
                        }
                    };
                    if (s.takeReset()) session[0] = history.newSession();
                    return step;
                } catch (Exception e) {
                    if (s.takeReset()) session[0] = history.newSession();
                    return new TypedStressRun.Step(a == Action.TIMELINE, false, 0);
                }
            };
        });

        Thread.sleep(StressRun.QUIESCENCE_MILLIS);
        TypedBackend.Session last = backend.session();
        long lostTimeline = finalReads(last, history, names, TIMELINE, touchedTimelines.stream().mapToLong(Long::longValue).sorted().toArray(),
                setKind, typed, timelineAcked, null);
        long lostFollows = finalReads(last, history, names, FOLLOWERS, users.stream().mapToLong(Long::longValue).toArray(),
                setKind, typed, followAcked, unfollowed);
        CheckResult check = history.writeAndCheck(o, out);
        Outcome outcome = new Outcome(result, timelineAcked.count(), lostTimeline, followAcked.count(), lostFollows, check);
        loop.printSummary(result, opts.describe());
        if (!o.quiet) {
            out.printf(Locale.ROOT, "Lost timeline entries     : %,10d      (of %,d acknowledged)%n", lostTimeline, outcome.timelineAdds());
            out.printf(Locale.ROOT, "Lost follows              : %,10d      (of %,d acknowledged, never unfollowed)%n", lostFollows, outcome.follows());
            HistoryRecorder.printCheck(check, out);
        }
        return outcome;
    }

    /**
     * A follower set's element: the follower and the follow's unique id ({@code F.ID}), since the history checker takes
     * an element added twice for a malformed history; a follow of someone already following adds a second element for
     * the same user (posts go to distinct users), an unfollow removes the one element it drew from its read.
     */
    static String follower(long user, long id) {
        return user + "." + id;
    }

    static long userOf(String element) {
        int dot = element.indexOf('.');
        return Long.parseLong(dot < 0 ? element : element.substring(0, dot));
    }

    /** The element's id in the history: the follow's id, or the whole element (a post id on a timeline). */
    static long elementId(String element) {
        int dot = element.indexOf('.');
        return Long.parseLong(dot < 0 ? element : element.substring(dot + 1));
    }

    /** The id leading a post's or profile's value {@code ID#text} (0 for none). */
    static long postId(String value) {
        return value == null ? 0 : Long.parseLong(value.substring(0, value.indexOf('#')));
    }

    /** Key names of one run. */
    record Names(String prefix) {
        String followers(long u) { return prefix + "followers:" + u; }
        String timeline(long u) { return prefix + "timeline:" + u; }
        String post(long p) { return prefix + "post:" + p; }
        String profile(long u) { return prefix + "user:" + u; }
    }

    private static void record(HistoryRecorder history, long session, StressBackend.WriteStatus st, List<Op> ops) {
        switch (st) {
            case OK, COMMITTED_UNCONFIRMED -> history.typed(session, ops, true);
            case ABORTED -> history.typed(session, ops, false);
            default -> { }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> setOf(Object value, boolean typed) {
        return typed ? (List<String>) value : ClaretStress.elements((String) value);
    }

    private static void recordSetRead(HistoryRecorder history, long session, long key, Object value, boolean typed) {
        if (!history.enabled()) return;
        Op op = typed ? Op.readSet(key, setOf(value, true).stream().mapToLong(RetwisStress::elementId).toArray())
                : Op.read(key, ClaretStress.writeId((String) value));
        history.typed(session, List.of(op), true);
    }

    /** Reads every set of a kind in session 0; returns the acknowledged elements missing (not counting unfollowed pairs). */
    private static long finalReads(TypedBackend.Session last, HistoryRecorder history, Names names, long base, long[] users,
                                   TypedBackend.Kind kind, boolean typed, ClaretStress.Acknowledged acked, Set<String> removed) throws Exception {
        long lost = 0;
        for (int from = 0; from < users.length; from += 64) {
            long[] part = Arrays.copyOfRange(users, from, Math.min(users.length, from + 64));
            List<String> keys = new ArrayList<>();
            for (long u : part) keys.add(base == TIMELINE ? names.timeline(u) : names.followers(u));
            List<Object> values = StressRun.finalRead(() -> last.read(keys, kind));
            List<Op> ops = new ArrayList<>();
            for (int i = 0; i < part.length; i++) {
                List<String> set = setOf(values.get(i), typed);
                ops.add(typed ? Op.readSet(base + part[i], set.stream().mapToLong(RetwisStress::elementId).toArray())
                        : Op.read(base + part[i], ClaretStress.writeId((String) values.get(i))));
                Set<String> seen = new HashSet<>(set);
                Set<String> ack = acked.byKey.get(base + part[i]);
                if (ack == null) continue;
                long u = part[i];
                for (String e : ack) if (!seen.contains(e) && (removed == null || !removed.contains(u + "/" + e))) lost++;
            }
            history.typed(HistoryRecorder.FINAL_SESSION, ops, true);
        }
        return lost;
    }

    public static void main(String[] args) {
        TypedStressRun.main("stress retwis", USAGE, args, RetwisStress::parse, Options::describe, o -> run(o, System.out),
                (o, r) -> (r.check() != null && !r.check().ok()) || (o.typed() && (r.lostTimeline() > 0 || r.lostFollows() > 0)));
    }
}
