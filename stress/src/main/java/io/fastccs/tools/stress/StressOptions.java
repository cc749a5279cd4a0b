package io.fastccs.tools.stress;

import io.fastccs.core.primitives.Protocol;
import io.fastccs.workload.KeyDistribution;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The options of {@code bin/fastccs stress}, in cassandra-stress's syntax:
 * <pre>
 * stress read|write|mixed [ratio(write=W,read=R)] [n=N | duration=30s] [cl=ONE|QUORUM|ALL|LOCAL_QUORUM]
 *        [-rate threads=N [fixed=R/s]] [-pop dist=gaussian(1..K)|uniform(1..K)|zipf(1..K[,S])]
 *        [-node 127.0.0.1,127.0.0.2] [-port native=9042 fastccs=9142] [-log interval=1s hdrfile=FILE]
 *        [-warmup duration=5s] [-txn keys-per-read=5 keys-per-write=5 value-size=128 write-fraction=0.05 partitions=P]
 *        [-mode fastccs|eiger|wren|eventual|cql|batch [user=U password=P]] [-transport truststore=FILE truststore-password=P]
 *        [-schema replication(factor=N)] [-populate on|off] [-check] [--history FILE]
 * </pre>
 * The modes {@code fastccs}, {@code eiger}, {@code wren} and {@code eventual} are the consistency protocols, all on the
 * FastCCS port through the client library (built {@code withProtocol} that protocol; the nodes' {@code protocol}
 * setting must name the same); {@code cql} and {@code batch} are plain Cassandra through the Java driver (older
 * result files call {@code cql} {@code eventual}). {@code cl=} and {@code -schema} are for the plain-Cassandra
 * modes: the protocols have their own consistency, and their replication is the nodes' {@code replication_factor}.
 */
public final class StressOptions {
    public enum Command { READ, WRITE, MIXED }

    /** What a run talks to: one of the protocols on the FastCCS port, or plain Cassandra through CQL. */
    public enum Mode {
        FASTCCS(Protocol.FASTCCS), EIGER(Protocol.EIGER), WREN(Protocol.WREN), EVENTUAL(Protocol.EVENTUAL),
        /** Plain Cassandra: a multi-key write is parallel single-key writes. */
        CQL(null),
        /** Plain Cassandra: a multi-key write is one LOGGED batch. */
        BATCH(null);

        private final Protocol protocol;

        Mode(Protocol protocol) {
            this.protocol = protocol;
        }

        /** The protocol the client speaks on the FastCCS port; null for the plain-Cassandra modes. */
        public Protocol protocol() {
            return protocol;
        }

        /** Plain Cassandra through the Java driver ({@code cql}, {@code batch}). */
        public boolean plainCassandra() {
            return protocol == null;
        }

        /** The word on the command line, in results and in the CSV files. */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The mode named {@code word}, any case. */
        public static Mode parse(String word) {
            for (Mode m : values()) if (m.word().equalsIgnoreCase(word.trim())) return m;
            throw new IllegalArgumentException("unknown mode '" + word + "' (" + WORDS + ")");
        }

        static final String WORDS = "fastccs, eiger, wren or eventual: that protocol on the FastCCS port; cql or batch: "
                + "plain Cassandra";
    }

    /** The Java driver's consistency levels that a plain-Cassandra run may ask for, as cassandra-stress spells them. */
    public enum Consistency { ONE, QUORUM, ALL, LOCAL_QUORUM }

    public Command command = Command.MIXED;
    /** Share of write transactions; read: 0, write: 1, mixed: W / (W + R), default 0.05 (Table 4.1). */
    public double writeFraction = 0.05;
    /** Measured operations; -1 when the run is timed. */
    public long n = -1;
    public Duration duration = Duration.ofSeconds(30);
    public int threads = 16;
    /** Total target rate in operations per second (open loop); 0 for a closed loop. */
    public double fixedRate = 0;
    public KeyDistribution population = KeyDistribution.gaussian(1, 10_000);
    public List<String> nodes = new ArrayList<>(List.of("127.0.0.1"));
    public int nativePort = 9042, fastccsPort = 9142;
    public Duration logInterval = Duration.ofSeconds(1);
    public Path hdrFile;
    public Duration warmup = Duration.ZERO;
    public int keysPerRead = 5, keysPerWrite = 5, valueSize = 128;
    /** Partitions each transaction's keys span (figure 4.7); 0 leaves it to the key distribution. */
    public int partitionsPerTxn = 0;
    public Mode mode = Mode.FASTCCS;
    /** Consistency of every CQL request in the plain-Cassandra modes ({@code cql}, {@code batch}). */
    public Consistency consistency = Consistency.ONE;
    /** Replication factor of the keyspace {@code stress_plain} in the plain-Cassandra modes. */
    public int replicationFactor = 1;
    /** Credentials for FastCCS and CQL alike (Cassandra's PasswordAuthenticator), or null. */
    public String user, password;
    /** TLS (client_encryption_options): the truststore, or null for plain connections. */
    public Path truststore;
    public String truststorePassword;
    public boolean populate = true;
    public boolean check;
    public Path history;
    /** Lines per interval and the summary; the demo turns them off. */
    public boolean quiet;
    /** Called when the measured part begins and ends (after warm-up; before final reads): the experiments meter CPU. */
    public Runnable atMeasureStart = () -> { }, atMeasureEnd = () -> { };

    private static final Pattern RATIO = Pattern.compile("ratio\\((.*)\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern REPLICATION = Pattern.compile("replication\\((.*)\\)", Pattern.CASE_INSENSITIVE);

    public static StressOptions parse(String... args) {
        StressOptions o = new StressOptions();
        boolean ratioGiven = false;
        Double txnWriteFraction = null;
        int i = 0;
        if (args.length == 0) throw new IllegalArgumentException("missing command: read, write or mixed");
        switch (args[i++].toLowerCase(Locale.ROOT)) {
            case "read" -> { o.command = Command.READ; o.writeFraction = 0; }
            case "write" -> { o.command = Command.WRITE; o.writeFraction = 1; }
            case "mixed" -> o.command = Command.MIXED;
            default -> throw new IllegalArgumentException("unknown command '" + args[0] + "' (read, write or mixed)");
        }
        for (; i < args.length && !args[i].startsWith("-"); i++) {
            String a = args[i];
            Matcher r = RATIO.matcher(a);
            if (r.matches()) {
                if (o.command != Command.MIXED) throw new IllegalArgumentException("ratio(...) is for mixed only");
                Map<String, String> kv = keyValues(List.of(r.group(1).split(",")), "ratio");
                double w = Double.parseDouble(kv.getOrDefault("write", "0")), rd = Double.parseDouble(kv.getOrDefault("read", "0"));
                for (String k : kv.keySet()) if (!k.equals("write") && !k.equals("read")) throw new IllegalArgumentException("ratio: unknown '" + k + "'");
                if (w < 0 || rd < 0 || w + rd <= 0) throw new IllegalArgumentException("bad ratio " + a);
                o.writeFraction = w / (w + rd);
                ratioGiven = true;
            } else if (a.startsWith("n=")) {
                o.n = parseCount(a.substring(2));
                o.duration = null;
            } else if (a.startsWith("duration=")) {
                o.duration = parseDuration(a.substring(9));
                o.n = -1;
            } else if (a.toLowerCase(Locale.ROOT).startsWith("cl=")) {
                o.consistency = parseConsistency(a.substring(3));
            } else throw new IllegalArgumentException("unknown argument '" + a + "'");
        }
        while (i < args.length) {
            String opt = args[i++];
            List<String> params = new ArrayList<>();
            while (i < args.length && !args[i].startsWith("-")) params.add(args[i++]);
            switch (opt.toLowerCase(Locale.ROOT)) {
                case "-rate" -> {
                    Map<String, String> kv = keyValues(params, opt);
                    for (var e : kv.entrySet()) switch (e.getKey()) {
                        case "threads" -> o.threads = positive(Integer.parseInt(e.getValue()), "threads");
                        case "fixed", "throttle" -> {
                            String v = e.getValue().replaceAll("(?i)/s$", "");
                            o.fixedRate = Double.parseDouble(v);
                            if (!(o.fixedRate > 0)) throw new IllegalArgumentException("fixed rate must be > 0");
                        }
                        default -> throw new IllegalArgumentException("-rate: unknown '" + e.getKey() + "'");
                    }
                }
                case "-pop" -> {
                    Map<String, String> kv = keyValues(params, opt);
                    for (var e : kv.entrySet()) {
                        if (!e.getKey().equals("dist")) throw new IllegalArgumentException("-pop: unknown '" + e.getKey() + "'");
                        o.population = KeyDistribution.parse(e.getValue());
                    }
                }
                case "-node" -> {
                    if (params.size() != 1) throw new IllegalArgumentException("-node takes one comma-separated list");
                    o.nodes = new ArrayList<>();
                    for (String h : params.get(0).split(",")) if (!h.isBlank()) o.nodes.add(h.trim());
                    if (o.nodes.isEmpty()) throw new IllegalArgumentException("-node: no hosts");
                }
                case "-port" -> {
                    for (var e : keyValues(params, opt).entrySet()) switch (e.getKey()) {
                        case "native" -> o.nativePort = Integer.parseInt(e.getValue());
                        case "fastccs" -> o.fastccsPort = Integer.parseInt(e.getValue());
                        default -> throw new IllegalArgumentException("-port: unknown '" + e.getKey() + "'");
                    }
                }
                case "-log" -> {
                    for (var e : keyValues(params, opt).entrySet()) switch (e.getKey()) {
                        case "interval" -> o.logInterval = parseDuration(e.getValue());
                        case "hdrfile" -> o.hdrFile = Path.of(e.getValue());
                        default -> throw new IllegalArgumentException("-log: unknown '" + e.getKey() + "'");
                    }
                    if (o.logInterval.toMillis() < 10) throw new IllegalArgumentException("-log interval must be at least 10ms");
                }
                case "-warmup" -> {
                    for (var e : keyValues(params, opt).entrySet()) {
                        if (!e.getKey().equals("duration")) throw new IllegalArgumentException("-warmup: unknown '" + e.getKey() + "'");
                        o.warmup = parseDuration(e.getValue());
                    }
                }
                case "-txn" -> {
                    for (var e : keyValues(params, opt).entrySet()) switch (e.getKey()) {
                        case "keys-per-read" -> o.keysPerRead = positive(Integer.parseInt(e.getValue()), e.getKey());
                        case "keys-per-write" -> o.keysPerWrite = positive(Integer.parseInt(e.getValue()), e.getKey());
                        case "value-size" -> o.valueSize = Integer.parseInt(e.getValue());
                        case "write-fraction" -> txnWriteFraction = Double.parseDouble(e.getValue());
                        case "partitions" -> o.partitionsPerTxn = positive(Integer.parseInt(e.getValue()), e.getKey());
                        default -> throw new IllegalArgumentException("-txn: unknown '" + e.getKey() + "'");
                    }
                }
                case "-mode" -> {
                    if (params.isEmpty()) throw new IllegalArgumentException("-mode takes " + Mode.WORDS);
                    for (Map.Entry<String, String> e : keyValues(params.subList(1, params.size()), opt).entrySet()) {
                        switch (e.getKey()) {
                            case "user" -> o.user = e.getValue();
                            case "password" -> o.password = e.getValue();
                            default -> throw new IllegalArgumentException("-mode: unknown '" + e.getKey() + "' (user=U password=P)");
                        }
                    }
                    if ((o.user == null) != (o.password == null))
                        throw new IllegalArgumentException("-mode: user= and password= go together");
                    o.mode = Mode.parse(params.get(0));
                }
                case "-schema" -> {
                    if (params.isEmpty()) throw new IllegalArgumentException("-schema takes replication(factor=N)");
                    for (String p : params) {
                        Matcher m = REPLICATION.matcher(p);
                        if (!m.matches()) throw new IllegalArgumentException("-schema: unknown '" + p + "' (replication(factor=N))");
                        for (var e : keyValues(List.of(m.group(1).split(",")), "replication").entrySet()) {
                            if (!e.getKey().equals("factor"))
                                throw new IllegalArgumentException("-schema replication: unknown '" + e.getKey() + "' (factor=N)");
                            o.replicationFactor = positive(Integer.parseInt(e.getValue()), "replication factor");
                        }
                    }
                }
                case "-populate" -> {
                    if (params.size() > 1) throw new IllegalArgumentException("-populate takes on or off");
                    String v = params.isEmpty() ? "on" : params.get(0).toLowerCase(Locale.ROOT);
                    if (!v.equals("on") && !v.equals("off")) throw new IllegalArgumentException("-populate takes on or off");
                    o.populate = v.equals("on");
                }
                case "-check" -> { noParams(opt, params); o.check = true; }
                case "-transport" -> {
                    for (Map.Entry<String, String> e : keyValues(params, opt).entrySet()) {
                        switch (e.getKey()) {
                            case "truststore" -> o.truststore = Path.of(e.getValue());
                            case "truststore-password" -> o.truststorePassword = e.getValue();
                            default -> throw new IllegalArgumentException("-transport: unknown '" + e.getKey()
                                    + "' (truststore=FILE truststore-password=P)");
                        }
                    }
                    if (o.truststore == null) throw new IllegalArgumentException("-transport needs truststore=FILE");
                }
                case "--history", "-history" -> {
                    if (params.size() != 1) throw new IllegalArgumentException(opt + " takes a file name");
                    o.history = Path.of(params.get(0));
                }
                default -> throw new IllegalArgumentException("unknown option '" + opt + "'");
            }
        }
        if (txnWriteFraction != null) {
            if (o.command != Command.MIXED || ratioGiven) throw new IllegalArgumentException("write-fraction is for mixed without ratio(...)");
            if (txnWriteFraction < 0 || txnWriteFraction > 1) throw new IllegalArgumentException("write-fraction must be in [0, 1]");
            o.writeFraction = txnWriteFraction;
        }
        if (!o.mode.plainCassandra() && o.consistency != Consistency.ONE)
            throw new IllegalArgumentException("cl=" + o.consistency + " is for -mode cql and batch (plain Cassandra): "
                    + ownConsistency(o.mode) + formerly(o.mode));
        if (!o.mode.plainCassandra() && o.replicationFactor != 1)
            throw new IllegalArgumentException("-schema replication(factor=" + o.replicationFactor + ") is for -mode cql and "
                    + "batch (plain Cassandra): " + (o.mode == Mode.FASTCCS ? "FastCCS replicates" : "-mode " + o.mode.word()
                    + " runs on the FastCCS port, whose nodes replicate") + " its partitions by the nodes' replication_factor "
                    + "setting (cluster start --rf)" + formerly(o.mode));
        if (o.valueSize < 24) throw new IllegalArgumentException("value-size must be at least 24 bytes (the value id leads each value)");
        if (o.partitionsPerTxn > Math.min(o.keysPerRead, o.keysPerWrite))
            throw new IllegalArgumentException("partitions=" + o.partitionsPerTxn + " needs at least that many keys per read and per write");
        int most = Math.max(o.writeFraction < 1 ? o.keysPerRead : 0, o.writeFraction > 0 ? o.keysPerWrite : 0);
        if (most > o.population.size()) throw new IllegalArgumentException("the population has fewer keys than a transaction needs");
        return o;
    }

    private static String ownConsistency(Mode mode) {
        return switch (mode) {
            case FASTCCS -> "FastCCS has its own consistency (causal, every transaction), which no consistency level changes";
            case EVENTUAL -> "-mode eventual is the eventual protocol on the FastCCS port, which takes no consistency level";
            default -> "-mode " + mode.word() + " is the " + mode.word() + " protocol on the FastCCS port, which has its own "
                    + "consistency (causal) that no consistency level changes";
        };
    }

    /** A hint for command lines written when {@code eventual} named plain Cassandra. */
    private static String formerly(Mode mode) {
        return mode == Mode.EVENTUAL ? " (-mode eventual used to mean plain Cassandra through CQL: that is -mode cql now)" : "";
    }

    private static Consistency parseConsistency(String level) {
        try {
            return Consistency.valueOf(level.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown consistency level '" + level + "' (cl=ONE, QUORUM, ALL or LOCAL_QUORUM)");
        }
    }

    private static void noParams(String opt, List<String> params) {
        if (!params.isEmpty()) throw new IllegalArgumentException(opt + " takes no parameters");
    }

    private static int positive(int v, String what) {
        if (v <= 0) throw new IllegalArgumentException(what + " must be positive");
        return v;
    }

    static Map<String, String> keyValues(List<String> params, String opt) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String p : params) {
            int eq = p.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException(opt + ": expected key=value, got '" + p + "'");
            kv.put(p.substring(0, eq).trim().toLowerCase(Locale.ROOT), p.substring(eq + 1).trim());
        }
        return kv;
    }

    /** {@code 30s}, {@code 500ms}, {@code 5m}, {@code 1h}; a bare number is seconds. */
    public static Duration parseDuration(String s) {
        Matcher m = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?", Pattern.CASE_INSENSITIVE).matcher(s.trim());
        if (!m.matches()) throw new IllegalArgumentException("bad duration '" + s + "' (e.g. 30s, 500ms, 5m)");
        double v = Double.parseDouble(m.group(1));
        String u = m.group(2) == null ? "s" : m.group(2).toLowerCase(Locale.ROOT);
        double ms = switch (u) { case "ms" -> v; case "s" -> v * 1e3; case "m" -> v * 60e3; default -> v * 3600e3; };
        return Duration.ofMillis(Math.round(ms));
    }

    /** {@code 100000}, {@code 100k}, {@code 2m}. */
    static long parseCount(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        long mul = 1;
        if (t.endsWith("k")) { mul = 1_000; t = t.substring(0, t.length() - 1); }
        else if (t.endsWith("m")) { mul = 1_000_000; t = t.substring(0, t.length() - 1); }
        else if (t.endsWith("b")) { mul = 1_000_000_000; t = t.substring(0, t.length() - 1); }
        long v = Long.parseLong(t) * mul;
        if (v <= 0) throw new IllegalArgumentException("n must be positive");
        return v;
    }

    public String describe() {
        return String.format(Locale.ROOT, "%s mode=%s write-fraction=%.3f %s threads=%d%s pop=%s keys-per-read=%d keys-per-write=%d value-size=%d",
                command.name().toLowerCase(Locale.ROOT), mode.word(), writeFraction,
                n > 0 ? "n=" + n : "duration=" + duration.toMillis() / 1000.0 + "s", threads,
                fixedRate > 0 ? String.format(Locale.ROOT, " fixed=%.0f/s", fixedRate) : "", population, keysPerRead, keysPerWrite, valueSize)
                + (partitionsPerTxn > 0 ? " partitions=" + partitionsPerTxn : "")
                + (mode.plainCassandra() ? " cl=" + consistency + " replication(factor=" + replicationFactor + ")" : "");
    }
}
