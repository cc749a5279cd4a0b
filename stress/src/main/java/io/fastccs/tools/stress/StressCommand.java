package io.fastccs.tools.stress;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bin/fastccs stress}: a cassandra-stress-style benchmark of FastCCS ({@code -mode fastccs}), of the protocols it
 * is compared with on the same port ({@code -mode eiger|wren|eventual}, the nodes' {@code protocol} setting naming the
 * same), and of plain Cassandra ({@code -mode cql|batch}) on the same cluster, keys and threads. See
 * {@link StressOptions} for the syntax. Exit codes: 0 ok; 1 the history check found anomalies; 2 usage; 3 the run
 * failed (e.g. no cluster, or nodes running another protocol than the mode's).
 */
public final class StressCommand {
    static final String USAGE = String.join("\n",
            "usage: bin/fastccs stress counter ...   (a hot counter: bin/fastccs stress counter --help)",
            "       bin/fastccs stress claret ...    (Claret's raw mix of set adds and sizes: bin/fastccs stress claret --help)",
            "       bin/fastccs stress retwis ...    (a Twitter clone on typed sets: bin/fastccs stress retwis --help)",
            "       bin/fastccs stress read|write|mixed [ratio(write=W,read=R)] [n=N | duration=30s] [cl=ONE|QUORUM|ALL|LOCAL_QUORUM]",
            "         [-rate threads=N [fixed=R/s]] [-pop dist=gaussian(1..K)|uniform(1..K)|zipf(1..K[,S])]",
            "         [-node 127.0.0.1,127.0.0.2,...] [-port native=9042 fastccs=9142]",
            "         [-log interval=1s hdrfile=FILE] [-warmup duration=5s]",
            "         [-txn keys-per-read=5 keys-per-write=5 value-size=128 write-fraction=0.05 partitions=P]",
            "         [-mode fastccs|eiger|wren|eventual|cql|batch] [-schema replication(factor=N)] [-populate on|off] [-check] [--history FILE]",
            "Defaults: mixed, write fraction 0.05, duration=30s, threads=16 (closed loop), gaussian(1..10000),",
            "5 keys per read and per write, 128-byte values, -mode fastccs, -populate on (every key written once first).",
            "-mode fastccs, eiger, wren and eventual run that consistency protocol on the FastCCS port through the client",
            "library; the nodes' protocol setting must name the same. -mode cql is plain Cassandra through the Java driver",
            "(multi-key writes as parallel single-key writes; it was called eventual before), -mode batch the same with",
            "writes as one LOGGED batch.",
            "cl= and -schema replication(factor=N) are for -mode cql and batch (default cl=ONE, factor 1): the keyspace",
            "stress_plain is created with that factor, and a run refuses one that exists with another. The protocols have",
            "their own consistency; their replication is the nodes' replication_factor (bin/fastccs cluster start --rf 3).",
            "partitions=P makes every transaction's keys span exactly P partitions (the ring is asked on the FastCCS port).",
            "fixed=R/s runs an open loop: latency counts from each operation's intended start.",
            "--history FILE records every transaction (and final reads of all written keys, session 0) for",
            "bin/fastccs check FILE --final-session 0; -check runs that check in-process too.");

    public static List<InetSocketAddress> contacts(List<String> hosts, int port) {
        List<InetSocketAddress> out = new ArrayList<>();
        for (String h : hosts) {
            int colon = h.lastIndexOf(':');
            if (colon > 0 && h.indexOf(':') == colon) out.add(new InetSocketAddress(h.substring(0, colon), Integer.parseInt(h.substring(colon + 1))));
            else out.add(new InetSocketAddress(h, port));
        }
        return out;
    }

    public static StressBackend backend(StressOptions o) {
        javax.net.ssl.SSLContext tls = null;
        if (o.truststore != null) {
            try {
                tls = io.fastccs.client.Truststore.sslContext(o.truststore, o.truststorePassword);
            } catch (java.io.IOException | java.security.GeneralSecurityException | IllegalArgumentException e) {
                throw new IllegalArgumentException("-transport: cannot read the truststore " + o.truststore + ": " + e.getMessage(), e);
            }
        }
        return switch (o.mode) {
            case FASTCCS, EIGER, WREN, EVENTUAL -> new FastCcsBackend(contacts(o.nodes, o.fastccsPort), o.valueSize,
                    Math.min(32, Math.max(4, o.threads)), o.user, o.password, tls, o.mode.protocol());
            case CQL, BATCH -> new CqlBackend(contacts(o.nodes, o.nativePort), o.mode == StressOptions.Mode.BATCH,
                    o.valueSize, "datacenter1", o.user, o.password, tls, o.consistency, o.replicationFactor);
        };
    }

    /** Runs {@code o} on a backend it opens and closes. */
    public static StressResult run(StressOptions o, PrintStream out) throws Exception {
        PartitionSpread spread = o.partitionsPerTxn > 0
                ? new PartitionSpread(o.population, PartitionSpread.fetchRing(contacts(o.nodes, o.fastccsPort), o.user, o.password,
                        PartitionSpread.speaking(o.mode)), o.partitionsPerTxn) : null;
        try (StressBackend backend = backend(o)) {
            return new StressRun(o, backend, out, PacedClock.SYSTEM).withPartitionSpread(spread).run();
        }
    }

    public static void main(String[] args) {
        io.fastccs.tools.cluster.ToolLogging.quiet();
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help")) {
            System.out.println(USAGE);
            System.exit(args.length == 0 ? 2 : 0);
        }
        if (args[0].equalsIgnoreCase("counter")) {
            CounterStress.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args[0].equalsIgnoreCase("retwis")) {
            RetwisStress.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args[0].equalsIgnoreCase("claret")) {
            ClaretStress.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        StressOptions o;
        try {
            o = StressOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("stress: " + (e instanceof NumberFormatException ? "bad number (" + e.getMessage() + ")" : e.getMessage()));
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        System.out.println("Running " + o.describe());
        try {
            StressResult r = run(o, System.out);
            System.exit(r.check() != null && !r.check().ok() ? 1 : 0);
        } catch (Exception e) {
            System.err.println("stress: " + e);
            System.exit(3);
        }
    }
}
