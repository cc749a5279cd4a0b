package io.fastccs.tools.stress;

import io.fastccs.client.CausalSession;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.ReadResult;
import io.fastccs.client.SessionInDoubtException;
import io.fastccs.client.WriteOutcome;
import io.fastccs.client.WriteTimeoutException;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.tools.cluster.ToolThreads;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * {@code -mode fastccs}, {@code eiger}, {@code wren} and {@code eventual}: each worker is a session of the client
 * library, built {@code withProtocol} the mode's protocol, on the FastCCS port. A session that had to go on without an
 * unconfirmed write becomes a new session of the history, whatever the protocol.
 */
public final class FastCcsBackend implements StressBackend {
    private final FastCcsClient client;
    private final Protocol protocol;
    private final int valueSize, populateThreads;

    public FastCcsBackend(List<InetSocketAddress> contacts, int valueSize, int populateThreads) {
        this(contacts, valueSize, populateThreads, null, null, null);
    }

    /** FastCCS with a login ({@code user} null for none) and TLS ({@code tls} null for plain connections). */
    public FastCcsBackend(List<InetSocketAddress> contacts, int valueSize, int populateThreads, String user, String password,
                          javax.net.ssl.SSLContext tls) {
        this(contacts, valueSize, populateThreads, user, password, tls, Protocol.FASTCCS);
    }

    /** {@code protocol}, which the nodes must run, with a login and TLS as above. */
    public FastCcsBackend(List<InetSocketAddress> contacts, int valueSize, int populateThreads, String user, String password,
                          javax.net.ssl.SSLContext tls, Protocol protocol) {
        this.protocol = protocol;
        io.fastccs.client.FastCcsClientBuilder builder = FastCcsClient.builder().addContactPoints(contacts).withProtocol(protocol);
        if (user != null) builder.withCredentials(user, password);
        if (tls != null) builder.withSslContext(tls);
        this.client = builder.build();
        this.valueSize = valueSize;
        this.populateThreads = Math.max(1, populateThreads);
    }

    @Override
    public String name() {
        return protocol.word();
    }

    @Override
    public Session session() {
        CausalSession s = client.session();
        return new Session() {
            int rounds = 1;
            boolean reset;

            @Override public long[] read(long[] keys) {
                List<String> names = new ArrayList<>(keys.length);
                for (long k : keys) names.add(StressBackend.keyName(k));
                ReadResult r;
                try {
                    r = s.read(names);
                } catch (SessionInDoubtException e) {
                    s.continueWithoutUnconfirmedWrite();
                    reset = true;
                    throw e;
                }
                long[] values = new long[keys.length];
                for (int i = 0; i < keys.length; i++) values[i] = StressBackend.valueId(r.getString(names.get(i)));
                rounds = r.rounds();
                return values;
            }

            @Override public int lastRounds() { return rounds; }

            @Override public WriteStatus write(long[] keys, long[] valueIds) {
                Map<String, String> w = new LinkedHashMap<>();
                for (int i = 0; i < keys.length; i++) w.put(StressBackend.keyName(keys[i]), StressBackend.value(valueIds[i], valueSize));
                try {
                    s.write(w);
                    return WriteStatus.OK;
                } catch (WriteTimeoutException e) {
                    if (e.outcome() != WriteOutcome.ABORTED) {
                        s.continueWithoutUnconfirmedWrite();
                        reset = true;
                    }
                    return switch (e.outcome()) {
                        case ABORTED -> WriteStatus.ABORTED;
                        case COMMITTED_UNCONFIRMED -> WriteStatus.COMMITTED_UNCONFIRMED;
                        default -> WriteStatus.UNKNOWN;
                    };
                } catch (SessionInDoubtException e) {
                    s.continueWithoutUnconfirmedWrite();
                    reset = true;
                    throw e;
                }
            }

            @Override public boolean takeReset() {
                boolean r = reset;
                reset = false;
                return r;
            }
        };
    }

    /** {@code populateThreads} sessions writing chunks of 100 keys, one transaction per chunk. */
    @Override
    public void populate(long from, long to, long firstValue, HistoryRecorder history, java.util.function.LongConsumer written) throws Exception {
        final int chunk = 100;
        ExecutorService pool = ToolThreads.pool("populate", populateThreads, false);
        try {
            List<Future<?>> done = new ArrayList<>();
            long chunks = (to - from + chunk) / chunk;
            for (int t = 0; t < populateThreads; t++) {
                final int worker = t;
                done.add(pool.submit(() -> {
                    Session s = session();
                    long session = history.newSession();
                    for (long c = worker; c < chunks; c += populateThreads) {
                        long lo = from + c * chunk, hi = Math.min(to, lo + chunk - 1);
                        long[] keys = new long[(int) (hi - lo + 1)], values = new long[keys.length];
                        for (int i = 0; i < keys.length; i++) { keys[i] = lo + i; values[i] = firstValue + (lo + i - from); }
                        // A loaded machine can time a chunk out: committed-unconfirmed counts as written; an aborted
                        // or unknown chunk is written again with the same values (an aborted write is never visible,
                        // and an unknown one carries exactly what the retry writes), a few times at most.
                        WriteStatus st = null;
                        for (int attempt = 1; st != WriteStatus.OK && st != WriteStatus.COMMITTED_UNCONFIRMED; attempt++) {
                            if (attempt > 5) throw new IllegalStateException("populate: keys " + lo + ".." + hi + " not written after 5 attempts (" + st + ")");
                            st = s.write(keys, values);
                        }
                        history.write(session, keys, values, true);
                        written.accept(keys.length);
                        if (s.takeReset()) session = history.newSession(); // the session went on without its unconfirmed write
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdownNow();
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
