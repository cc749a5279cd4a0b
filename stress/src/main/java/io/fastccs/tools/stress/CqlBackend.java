package io.fastccs.tools.stress;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.RetryPolicy;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code -mode cql} and {@code -mode batch}: plain Cassandra through the Apache Java driver at a consistency
 * level ({@code cl=}, ONE by default), on {@code stress_plain.kv} with a replication factor ({@code -schema
 * replication(factor=N)}, 1 by default). A multi-key read is parallel single-key reads; a multi-key write is parallel
 * single-key writes ({@code cql}; {@code eventual} in older result files) or one LOGGED batch ({@code batch}).
 */
public final class CqlBackend implements StressBackend {
    public static final String KEYSPACE = "stress_plain";

    private final CqlSession cql;
    private final boolean batch;
    private final int valueSize;
    private final int replicationFactor;
    private PreparedStatement insert, select;

    public CqlBackend(List<InetSocketAddress> contacts, boolean batch, int valueSize, String localDc) {
        this(contacts, batch, valueSize, localDc, null, null, null, StressOptions.Consistency.ONE, 1);
    }

    /**
     * With the driver's login ({@code user} null for none), TLS ({@code tls} null for plain connections), the
     * consistency of every request and the keyspace's replication factor.
     */
    public CqlBackend(List<InetSocketAddress> contacts, boolean batch, int valueSize, String localDc, String user,
                      String password, javax.net.ssl.SSLContext tls, StressOptions.Consistency consistency,
                      int replicationFactor) {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(5))
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, DefaultConsistencyLevel.valueOf(consistency.name()).name())
                .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, 2)
                .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, 2048)
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(20))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(20))
                .build();
        com.datastax.oss.driver.api.core.CqlSessionBuilder builder = CqlSession.builder().addContactPoints(contacts)
                .withLocalDatacenter(localDc).withConfigLoader(config);
        if (user != null) builder.withAuthCredentials(user, password);
        if (tls != null)
            builder.withSslEngineFactory(new com.datastax.oss.driver.api.core.ssl.ProgrammaticSslEngineFactory(tls, null, false));
        this.cql = builder.build();
        this.batch = batch;
        this.valueSize = valueSize;
        this.replicationFactor = replicationFactor;
    }

    @Override
    public String name() {
        return batch ? "batch" : "cql";
    }

    @Override
    public void prepare() {
        cql.execute("CREATE KEYSPACE IF NOT EXISTS " + KEYSPACE
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': " + replicationFactor + "}");
        // The node's own schema table: ONE whatever cl= says (it is node-local).
        checkReplication(cql.execute(SimpleStatement.newInstance("SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?",
                KEYSPACE).setConsistencyLevel(DefaultConsistencyLevel.ONE)).one().getMap("replication", String.class, String.class),
                replicationFactor);
        cql.execute("CREATE TABLE IF NOT EXISTS " + KEYSPACE + ".kv (key text PRIMARY KEY, value blob)");
        cql.checkSchemaAgreement();
        insert = cql.prepare("INSERT INTO " + KEYSPACE + ".kv (key, value) VALUES (?, ?)");
        select = cql.prepare("SELECT value FROM " + KEYSPACE + ".kv WHERE key = ?");
    }

    /**
     * IF NOT EXISTS keeps a keyspace an earlier run made with another factor: measuring on it would report one
     * durability under the name of another, so that is refused rather than altered behind the user's back.
     */
    static void checkReplication(java.util.Map<String, String> replication, int wanted) {
        String strategy = replication.getOrDefault("class", "");
        String factor = replication.get("replication_factor");
        if (!strategy.endsWith("SimpleStrategy") || factor == null || Integer.parseInt(factor) != wanted)
            throw new IllegalStateException("the keyspace " + KEYSPACE + " exists with replication " + replication
                    + ", not SimpleStrategy with factor " + wanted + " as -schema replication(factor=" + wanted + ") asks; "
                    + "drop it (DROP KEYSPACE " + KEYSPACE + ") or run on another cluster");
    }

    private BoundStatement insert(long key, long valueId) {
        return insert.bind(StressBackend.keyName(key),
                ByteBuffer.wrap(StressBackend.value(valueId, valueSize).getBytes(StandardCharsets.UTF_8)));
    }

    private static long valueOf(AsyncResultSet rs) {
        Row row = rs.one();
        if (row == null) return 0;
        ByteBuffer b = row.getByteBuffer(0);
        if (b == null) return 0;
        return StressBackend.valueId(StandardCharsets.UTF_8.decode(b.duplicate()).toString());
    }

    @Override
    public Session session() {
        return new Session() {
            @Override public long[] read(long[] keys) {
                List<CompletableFuture<Long>> fs = new ArrayList<>(keys.length);
                for (long k : keys)
                    fs.add(cql.executeAsync(select.bind(StressBackend.keyName(k))).thenApply(CqlBackend::valueOf).toCompletableFuture());
                long[] values = new long[keys.length];
                for (int i = 0; i < keys.length; i++) values[i] = fs.get(i).join();
                return values;
            }

            @Override public int lastRounds() { return 1; }

            @Override public WriteStatus write(long[] keys, long[] valueIds) {
                if (batch) {
                    List<BoundStatement> stmts = new ArrayList<>(keys.length);
                    for (int i = 0; i < keys.length; i++) stmts.add(insert(keys[i], valueIds[i]));
                    cql.execute(BatchStatement.newInstance(DefaultBatchType.LOGGED).addAll(stmts));
                } else {
                    List<CompletableFuture<AsyncResultSet>> fs = new ArrayList<>(keys.length);
                    for (int i = 0; i < keys.length; i++) fs.add(cql.executeAsync(insert(keys[i], valueIds[i])).toCompletableFuture());
                    for (CompletableFuture<AsyncResultSet> f : fs) f.join();
                }
                return WriteStatus.OK;
            }

            @Override public boolean takeReset() { return false; }
        };
    }

    /**
     * A populate write that timed out or found too few replicas is tried again: it is an idempotent upsert of the key's
     * first value, and populating is set-up, not measured. On a small machine at QUORUM with the commit log synced per
     * batch, Cassandra answers a burst of 512 writes in flight with an occasional write timeout.
     */
    private static final FailsafeExecutor<AsyncResultSet> POPULATE_RETRIES = Failsafe.with(RetryPolicy.<AsyncResultSet>builder()
            .handle(WriteTimeoutException.class, UnavailableException.class, DriverTimeoutException.class)
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(2)).withMaxAttempts(6).build());

    /** Every key written once, asynchronously with up to 512 writes in flight; a history transaction per key. */
    @Override
    public void populate(long from, long to, long firstValue, HistoryRecorder history, java.util.function.LongConsumer written) throws Exception {
        Semaphore inFlight = new Semaphore(512);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long session = history.newSession();
        for (long k = from; k <= to && failure.get() == null; k++) {
            inFlight.acquire();
            long key = k, value = firstValue + (k - from);
            CompletionStage<AsyncResultSet> f = POPULATE_RETRIES.getStageAsync(() -> cql.executeAsync(insert(key, value)));
            f.whenComplete((rs, e) -> {
                if (e != null) failure.compareAndSet(null, e);
                else written.accept(1);
                inFlight.release();
            });
            // Not atomic with the others, so each key is its own transaction; all complete before the workload starts.
            history.write(session, new long[] {key}, new long[] {value}, true);
        }
        inFlight.acquire(512);
        if (failure.get() != null) throw new IllegalStateException("populate failed: " + failure.get(), failure.get());
    }

    @Override
    public void close() {
        cql.close();
    }
}
