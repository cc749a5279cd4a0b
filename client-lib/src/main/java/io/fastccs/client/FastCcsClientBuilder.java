package io.fastccs.client;

import io.fastccs.client.internal.Blocking;
import io.fastccs.client.internal.ClientConfig;
import io.fastccs.client.internal.DefaultFastCcsClient;
import io.fastccs.core.primitives.Protocol;

import java.net.InetSocketAddress;
import javax.net.ssl.SSLContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * Configures and builds a {@link FastCcsClient}. Only a contact point is required; every other setting has a
 * default suited to a cluster with FastCCS's default node settings. Not thread-safe; a builder may build several
 * clients.
 */
public final class FastCcsClientBuilder {
    /** The default for {@link #withRequestTimeout}: 5 seconds. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(5);
    /** The default for {@link #withConnectTimeout}: 5 seconds. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** The default for {@link #withRingRefreshInterval}: 30 seconds. */
    public static final Duration DEFAULT_RING_REFRESH_INTERVAL = Duration.ofSeconds(30);
    /** The default first delay of {@link #withReconnectDelay}: 100 milliseconds. */
    public static final Duration DEFAULT_RECONNECT_BASE_DELAY = Duration.ofMillis(100);
    /** The default largest delay of {@link #withReconnectDelay}: 10 seconds. */
    public static final Duration DEFAULT_RECONNECT_MAX_DELAY = Duration.ofSeconds(10);
    /** The default for {@link #withMaxValueSize}: 1 MiB, the nodes' default. */
    public static final int DEFAULT_MAX_VALUE_SIZE = 1 << 20;
    /** The default for {@link #withMaxKeySize}: 65535 bytes, the nodes' default. */
    public static final int DEFAULT_MAX_KEY_SIZE = 65_535;
    /** The default for {@link #withMaxKeysPerTransaction}: 1024, the nodes' default per request. */
    public static final int DEFAULT_MAX_KEYS_PER_TRANSACTION = 1024;
    /**
     * The default for {@link #withMaxStaleness}: zero, no cache, so reads are as fresh as without one
     * (docs/design/client-cache.md, "Leases").
     */
    public static final Duration DEFAULT_MAX_STALENESS = Duration.ZERO;

    private final List<InetSocketAddress> contactPoints = new ArrayList<>();
    private String user;
    private String password;
    private SSLContext sslContext;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration ringRefreshInterval = DEFAULT_RING_REFRESH_INTERVAL;
    private Duration reconnectBaseDelay = DEFAULT_RECONNECT_BASE_DELAY;
    private Duration reconnectMaxDelay = DEFAULT_RECONNECT_MAX_DELAY;
    private int maxValueSize = DEFAULT_MAX_VALUE_SIZE;
    private int maxKeySize = DEFAULT_MAX_KEY_SIZE;
    private int maxKeysPerTransaction = DEFAULT_MAX_KEYS_PER_TRANSACTION;
    private int ioThreads = Math.min(Runtime.getRuntime().availableProcessors(), 8);
    private Protocol protocol = Protocol.FASTCCS;
    private Duration maxStaleness = DEFAULT_MAX_STALENESS;

    FastCcsClientBuilder() {
    }

    /**
     * Adds a node to learn the cluster from. The client tries contact points in the order added until one answers;
     * it then learns every node from the ring, so one reachable contact point is enough.
     */
    public FastCcsClientBuilder addContactPoint(InetSocketAddress address) {
        contactPoints.add(Objects.requireNonNull(address, "address"));
        return this;
    }

    /** Adds several contact points; see {@link #addContactPoint}. */
    public FastCcsClientBuilder addContactPoints(Collection<InetSocketAddress> addresses) {
        addresses.forEach(this::addContactPoint);
        return this;
    }

    /** The user and password every connection presents; without them the client connects anonymously. */
    public FastCcsClientBuilder withCredentials(String user, String password) {
        this.user = Objects.requireNonNull(user, "user");
        this.password = Objects.requireNonNull(password, "password");
        return this;
    }

    /**
     * Connects to every node over TLS with this context (its trust material decides which node certificates are
     * accepted; its key material is presented when the nodes require client certificates). Needed when the cluster
     * has Cassandra's {@code client_encryption_options} enabled; the nodes then refuse plain connections unless it
     * is {@code optional}. Host names are not verified, as with the Java driver's {@code withSslContext}.
     */
    public FastCcsClientBuilder withSslContext(SSLContext context) {
        this.sslContext = Objects.requireNonNull(context, "context");
        return this;
    }

    /**
     * How long the client waits for each reply: a read fails with {@link ReadTimeoutException} when a round's reply
     * takes longer, and a write asks its coordinator for the outcome when a participant's does.
     */
    public FastCcsClientBuilder withRequestTimeout(Duration timeout) {
        this.requestTimeout = positive(timeout, "request timeout");
        return this;
    }

    /**
     * Lets reads be answered from versions this client read before, shared by all its sessions, for at most this long
     * after they were fetched: a read served so is still one causally consistent snapshot that includes the session's
     * own writes and everything it saw, but may miss writes acknowledged since ({@link ReadResult#fromCache()},
     * {@link ClientMetrics#zeroRoundReads()}). {@link Duration#ZERO}, the default, turns the cache off. A read the
     * cache answers in part reads only the other keys, still in at most two rounds. Only with FastCCS, whose sessions'
     * context is a vector clock (docs/design/client-cache.md).
     */
    public FastCcsClientBuilder withMaxStaleness(Duration bound) {
        Objects.requireNonNull(bound, "staleness bound");
        if (bound.isNegative()) throw new IllegalArgumentException("staleness bound must not be negative: " + bound);
        this.maxStaleness = bound;
        return this;
    }

    /** How long opening a connection, handshake included, may take. */
    public FastCcsClientBuilder withConnectTimeout(Duration timeout) {
        this.connectTimeout = positive(timeout, "connect timeout");
        return this;
    }

    /** How often the client asks for the ring even when nothing failed. */
    public FastCcsClientBuilder withRingRefreshInterval(Duration interval) {
        this.ringRefreshInterval = positive(interval, "ring refresh interval");
        return this;
    }

    /**
     * The delays between attempts to reconnect to a node: {@code base} after the first failure, doubling (with
     * jitter) up to {@code max}.
     */
    public FastCcsClientBuilder withReconnectDelay(Duration base, Duration max) {
        positive(base, "reconnect base delay");
        positive(max, "reconnect max delay");
        if (max.compareTo(base) < 0) throw new IllegalArgumentException("reconnect max delay below base delay");
        this.reconnectBaseDelay = base;
        this.reconnectMaxDelay = max;
        return this;
    }

    /** The largest value a write may carry, in bytes; larger ones are refused before sending. */
    public FastCcsClientBuilder withMaxValueSize(int bytes) {
        this.maxValueSize = positive(bytes, "max value size");
        return this;
    }

    /** The longest key, in bytes; longer ones are refused before sending. */
    public FastCcsClientBuilder withMaxKeySize(int bytes) {
        this.maxKeySize = positive(bytes, "max key size");
        return this;
    }

    /** The most keys one transaction may read or write; more are refused before sending. */
    public FastCcsClientBuilder withMaxKeysPerTransaction(int keys) {
        this.maxKeysPerTransaction = positive(keys, "max keys per transaction");
        return this;
    }

    /**
     * The consistency protocol the client speaks: {@link Protocol#FASTCCS} by default. It must match the cluster's
     * {@code protocol} node setting: every connection's handshake names it, and a node running another protocol fails
     * the connection (building the client then fails with a {@link ProtocolMismatchException} naming both). Sessions
     * of every protocol have the same API; what differs is the guarantees and round trips (see {@link CausalSession}),
     * and causal tokens, which only FastCCS has ({@link CausalSession#exportToken()}).
     */
    public FastCcsClientBuilder withProtocol(Protocol protocol) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
        return this;
    }

    /** How many I/O threads the client runs; defaults to the number of processors, at most 8. */
    public FastCcsClientBuilder withIoThreads(int threads) {
        this.ioThreads = positive(threads, "I/O threads");
        return this;
    }

    /**
     * Connects: learns the ring from a contact point and opens a connection to every node.
     *
     * @return a stage completed with the client once the ring is known and a first connection attempt to every
     *         node has finished (nodes that are down are retried in the background), or exceptionally with an
     *         {@link AuthenticationException} if the credentials were refused, a {@link ProtocolMismatchException}
     *         if a contact point runs another protocol than {@link #withProtocol}, or a {@link FastCcsException} if
     *         no contact point answered
     * @throws IllegalStateException if no contact point was added
     */
    public CompletionStage<FastCcsClient> buildAsync() {
        if (contactPoints.isEmpty()) throw new IllegalStateException("at least one contact point is required");
        ClientConfig config = new ClientConfig(List.copyOf(contactPoints), user, password, requestTimeout, connectTimeout,
                ringRefreshInterval, reconnectBaseDelay, reconnectMaxDelay, maxValueSize, maxKeySize, maxKeysPerTransaction,
                ioThreads, sslContext, protocol, maxStaleness);
        return DefaultFastCcsClient.connect(config);
    }

    /**
     * {@link #buildAsync()}, waiting for it.
     *
     * @throws FastCcsException      if the client could not connect
     * @throws IllegalStateException if no contact point was added
     */
    public FastCcsClient build() {
        return Blocking.await(buildAsync());
    }

    private static Duration positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) throw new IllegalArgumentException(what + " must be positive, got " + d);
        return d;
    }

    private static int positive(int v, String what) {
        if (v <= 0) throw new IllegalArgumentException(what + " must be positive, got " + v);
        return v;
    }
}
