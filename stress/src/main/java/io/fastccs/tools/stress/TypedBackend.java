package io.fastccs.tools.stress;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.fastccs.client.CausalSession;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.ReadResult;
import io.fastccs.client.SessionInDoubtException;
import io.fastccs.client.WriteBuilder;
import io.fastccs.client.WriteTimeoutException;
import io.fastccs.core.primitives.Protocol;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the typed workloads ({@code stress counter}, {@code stress claret}) run against: write-only transactions of
 * puts, counter adds and set adds, and read-only transactions of plain values, counters and sets, on the FastCCS port
 * (any protocol; the typed operations are FastCCS's) or on plain Cassandra through the Java driver ({@code -mode cql}:
 * a plain value in {@code stress_plain.kv}, a counter Cassandra's native counter column in
 * {@code stress_plain.counters}; a multi-key write is parallel single-key writes, not atomic).
 */
public interface TypedBackend extends AutoCloseable {
    /** One operation of a write-only transaction. */
    record Update(Kind kind, String key, String value, long delta) {
        public static Update put(String key, String value) { return new Update(Kind.PLAIN, key, value, 0); }
        public static Update add(String key, long delta) { return new Update(Kind.COUNTER, key, null, delta); }
        public static Update setAdd(String key, String element) { return new Update(Kind.SET, key, element, 0); }
        /** Removes the adds of {@code element} that the session had seen (add-wins). */
        public static Update setRemove(String key, String element) { return new Update(Kind.SET, key, element, -1); }
    }

    /** What a key holds: a plain value (a string, null if none), a counter (a long), a set (a list of strings). */
    enum Kind { PLAIN, COUNTER, SET }

    interface Session {
        /** A write-only transaction; throws only when nothing can be said of its outcome (counted as unconfirmed). */
        StressBackend.WriteStatus write(List<Update> updates) throws Exception;

        /** A read-only transaction of {@code keys}, all of {@code kind}: String (or null), Long or List&lt;String&gt; each. */
        List<Object> read(List<String> keys, Kind kind) throws Exception;

        /** Rounds of the last read (1 for plain Cassandra). */
        int lastRounds();

        /** True once after the session went on without an unconfirmed write (a new history session begins). */
        boolean takeReset();
    }

    String name();

    default void prepare() throws Exception {}

    Session session();

    @Override
    void close();

    static TypedBackend of(StressOptions o) {
        return o.mode.plainCassandra() ? new Cql(StressCommand.contacts(o.nodes, o.nativePort), o) : new Port(StressCommand.contacts(o.nodes, o.fastccsPort), o.mode.protocol(), o);
    }

    /** The FastCCS port, a session of the client library per worker. */
    final class Port implements TypedBackend {
        private final FastCcsClient client;
        private final Protocol protocol;

        Port(List<InetSocketAddress> contacts, Protocol protocol, StressOptions o) {
            io.fastccs.client.FastCcsClientBuilder b = FastCcsClient.builder().addContactPoints(contacts).withProtocol(protocol);
            if (o.user != null) b.withCredentials(o.user, o.password);
            this.client = b.build();
            this.protocol = protocol;
        }

        @Override public String name() { return protocol.word(); }

        @Override
        public Session session() {
            CausalSession s = client.session();
            return new Session() {
                int rounds = 1;
                boolean reset;

                @Override public StressBackend.WriteStatus write(List<Update> updates) {
                    WriteBuilder w = s.newWrite();
                    for (Update u : updates) switch (u.kind()) {
                        case PLAIN -> w.put(u.key(), u.value());
                        case COUNTER -> w.add(u.key(), u.delta());
                        case SET -> {
                            if (u.delta() < 0) w.setRemove(u.key(), u.value());
                            else w.setAdd(u.key(), u.value());
                        }
                    }
                    try {
                        w.execute();
                        return StressBackend.WriteStatus.OK;
                    } catch (WriteTimeoutException e) {
                        if (e.outcome() == io.fastccs.client.WriteOutcome.ABORTED) return StressBackend.WriteStatus.ABORTED;
                        s.continueWithoutUnconfirmedWrite();
                        reset = true;
                        return e.outcome() == io.fastccs.client.WriteOutcome.COMMITTED_UNCONFIRMED
                                ? StressBackend.WriteStatus.COMMITTED_UNCONFIRMED : StressBackend.WriteStatus.UNKNOWN;
                    } catch (SessionInDoubtException e) {
                        s.continueWithoutUnconfirmedWrite();
                        reset = true;
                        throw e;
                    }
                }

                @Override public List<Object> read(List<String> keys, Kind kind) {
                    ReadResult r;
                    try {
                        r = s.read(keys);
                    } catch (SessionInDoubtException e) {
                        s.continueWithoutUnconfirmedWrite();
                        reset = true;
                        throw e;
                    }
                    rounds = r.rounds();
                    List<Object> out = new ArrayList<>(keys.size());
                    for (String k : keys) {
                        boolean none = !r.exists(k);
                        out.add(switch (kind) {
                            case PLAIN -> none ? null : r.getString(k);
                            case COUNTER -> none ? 0L : r.counter(k);
                            case SET -> none ? List.of() : r.set(k);
                        });
                    }
                    return out;
                }

                @Override public int lastRounds() { return rounds; }

                @Override public boolean takeReset() {
                    boolean was = reset;
                    reset = false;
                    return was;
                }
            };
        }

        @Override public void close() { client.close(); }
    }

    /**
     * Plain Cassandra: plain values in {@code stress_plain.kv} (text in a blob), counters in the counter column of
     * {@code stress_plain.counters}; sets have no typed form here (the workloads emulate them as plain values).
     */
    final class Cql implements TypedBackend {
        private final CqlSession cql;
        private final int replicationFactor;
        private PreparedStatement insert, select, increment, selectCounter;

        Cql(List<InetSocketAddress> contacts, StressOptions o) {
            DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                    .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(5))
                    .withString(DefaultDriverOption.REQUEST_CONSISTENCY, DefaultConsistencyLevel.valueOf(o.consistency.name()).name())
                    .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, 2)
                    .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, 2048)
                    .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                    .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(20))
                    .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(20))
                    // A counter update is not idempotent: the driver must not retry it on its own (that would count twice).
                    .withBoolean(DefaultDriverOption.REQUEST_DEFAULT_IDEMPOTENCE, false)
                    .build();
            com.datastax.oss.driver.api.core.CqlSessionBuilder b = CqlSession.builder().addContactPoints(contacts)
                    .withLocalDatacenter("datacenter1").withConfigLoader(config);
            if (o.user != null) b.withAuthCredentials(o.user, o.password);
            this.cql = b.build();
            this.replicationFactor = o.replicationFactor;
        }

        @Override public String name() { return "cql"; }

        @Override
        public void prepare() {
            String ks = CqlBackend.KEYSPACE;
            cql.execute("CREATE KEYSPACE IF NOT EXISTS " + ks
                    + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': " + replicationFactor + "}");
            cql.execute("CREATE TABLE IF NOT EXISTS " + ks + ".kv (key text PRIMARY KEY, value blob)");
            cql.execute("CREATE TABLE IF NOT EXISTS " + ks + ".counters (key text PRIMARY KEY, c counter)");
            cql.checkSchemaAgreement();
            insert = cql.prepare("INSERT INTO " + ks + ".kv (key, value) VALUES (?, ?)");
            select = cql.prepare("SELECT value FROM " + ks + ".kv WHERE key = ?");
            increment = cql.prepare("UPDATE " + ks + ".counters SET c = c + ? WHERE key = ?");
            selectCounter = cql.prepare("SELECT c FROM " + ks + ".counters WHERE key = ?");
        }

        @Override
        public Session session() {
            return new Session() {
                @Override public StressBackend.WriteStatus write(List<Update> updates) {
                    List<CompletableFuture<?>> fs = new ArrayList<>();
                    for (Update u : updates) fs.add(switch (u.kind()) {
                        case PLAIN -> cql.executeAsync(insert.bind(u.key(), ByteBuffer.wrap(u.value().getBytes(StandardCharsets.UTF_8)))).toCompletableFuture();
                        case COUNTER -> cql.executeAsync(increment.bind(u.delta(), u.key())).toCompletableFuture();
                        case SET -> throw new UnsupportedOperationException("-mode cql has no typed set here: emulate it");
                    });
                    for (CompletableFuture<?> f : fs) f.join(); // a timeout throws: unconfirmed
                    return StressBackend.WriteStatus.OK;
                }

                @Override public List<Object> read(List<String> keys, Kind kind) {
                    if (kind == Kind.SET) throw new UnsupportedOperationException("-mode cql has no typed set here: emulate it");
                    List<CompletableFuture<Object>> fs = new ArrayList<>();
                    for (String k : keys) fs.add(kind == Kind.COUNTER
                            ? cql.executeAsync(selectCounter.bind(k)).thenApply(rs -> { Row row = rs.one(); return (Object) (row == null ? 0L : row.getLong(0)); }).toCompletableFuture()
                            : cql.executeAsync(select.bind(k)).thenApply(rs -> {
                                Row row = rs.one();
                                ByteBuffer b = row == null ? null : row.getByteBuffer(0);
                                return (Object) (b == null ? null : StandardCharsets.UTF_8.decode(b.duplicate()).toString());
                            }).toCompletableFuture());
                    List<Object> out = new ArrayList<>();
                    for (CompletableFuture<Object> f : fs) out.add(f.join());
                    return out;
                }

                @Override public int lastRounds() { return 1; }

                @Override public boolean takeReset() { return false; }
            };
        }

        @Override public void close() { cql.close(); }
    }
}
