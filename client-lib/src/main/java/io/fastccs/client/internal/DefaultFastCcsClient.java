package io.fastccs.client.internal;

import io.fastccs.client.CausalSession;
import io.fastccs.client.CausalToken;
import io.fastccs.client.ClientMetrics;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.InvalidRequestException;
import io.fastccs.client.internal.cache.ClientCache;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.spi.Protocols;
import io.fastccs.core.spi.Capability;
import io.fastccs.core.spi.CausalContext;
import io.fastccs.core.spi.ProtocolFactory;
import io.fastccs.core.spi.ProtocolSession;
import io.fastccs.core.ring.TokenRing;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.HashedWheelTimer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The client: the I/O threads, the request timer, the {@link Cluster}, the {@link RetryingSender} and the metrics.
 * Sessions share all of it.
 */
public final class DefaultFastCcsClient implements FastCcsClient {
    private static final Logger LOG = LoggerFactory.getLogger(DefaultFastCcsClient.class);
    /** Timeouts are checked this often; a reply timeout is late by at most this much. */
    private static final long TIMER_TICK_MILLIS = 10;

    private final ClientConfig config;
    private final Cluster cluster;
    private final RetryingSender sender;
    private final EventLoopGroup group;
    private final HashedWheelTimer timer;
    private final DefaultClientMetrics metrics;
    private final InputValidator validator;
    /** Makes the sessions of the protocol the client speaks. */
    private final ProtocolFactory protocol;
    /** Session ids: each session numbers its transactions from 1, so each needs its own random 64-bit id. */
    private final SplittableRandom sessionIds;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private volatile boolean closing;

    private DefaultFastCcsClient(ClientConfig config, Cluster cluster, EventLoopGroup group, HashedWheelTimer timer,
                                 DefaultClientMetrics metrics) {
        this.config = config;
        this.cluster = cluster;
        this.sender = new RetryingSender(cluster, group, metrics);
        this.group = group;
        this.timer = timer;
        this.metrics = metrics;
        this.validator = InputValidator.of(config);
        this.protocol = Protocols.factory(config.protocol());
        this.sessionIds = new SplittableRandom(new SecureRandom().nextLong());
        metrics.connectedPartitionsFrom(cluster::connectedPartitions);
    }

    /** Starts the I/O threads, learns the ring and connects; releases everything again if that fails. */
    public static CompletionStage<FastCcsClient> connect(ClientConfig config) {
        EventLoopGroup group = new NioEventLoopGroup(config.ioThreads(), new IoThreadFactory("io"));
        HashedWheelTimer timer = new HashedWheelTimer(new IoThreadFactory("timer"), TIMER_TICK_MILLIS, TimeUnit.MILLISECONDS);
        ClientCache cache = new ClientCache(config.maxStaleness().toNanos(), ClientCache.DEFAULT_MAX_ENTRIES,
                ClientCache.DEFAULT_MAX_BYTES, MonotonicClock::nanoTime);
        DefaultClientMetrics metrics = new DefaultClientMetrics(cache);
        ConnectionFactory connections = new ConnectionFactory(config, group, timer);
        CompletableFuture<FastCcsClient> client = new CompletableFuture<>();
        Cluster.connect(config, connections, group, metrics, new RequestIds()).whenComplete((cluster, e) -> {
            if (e == null) {
                LOG.info("connected to a cluster of {} partitions ({} reachable)", cluster.partitions(), cluster.connectedPartitions());
                client.complete(new DefaultFastCcsClient(config, cluster, group, timer, metrics));
            } else {
                release(group, timer).whenComplete((v, ignored) -> client.completeExceptionally(Failures.asFastCcs(e)));
            }
        });
        return client;
    }

    ClientConfig config() {
        return config;
    }

    Cluster cluster() {
        return cluster;
    }

    RetryingSender sender() {
        return sender;
    }

    InputValidator validator() {
        return validator;
    }

    /** The versions shared by the sessions (docs/design/client-cache.md); off unless withMaxStaleness set a bound. */
    ClientCache cache() {
        return metrics.cache();
    }

    DefaultClientMetrics metricsInternal() {
        return metrics;
    }

    void checkOpen() {
        if (closing) throw new IllegalStateException("the FastCCS client is closed");
    }

    /** The protocol the client speaks. */
    ProtocolFactory protocolFactory() {
        return protocol;
    }

    @Override
    public CausalSession session() {
        checkOpen();
        RequestIds ids = cluster.requestIds();
        return newSession(protocol.newSession(cluster.partitioning(), nextSessionId(), ids::next));
    }

    /** @throws UnsupportedOperationException unless the client's protocol has causal tokens */
    @Override
    public CausalSession session(CausalToken token) {
        checkOpen();
        if (!protocol.has(Capability.CAUSAL_TOKENS)) throw DefaultCausalSession.noTokens(config.protocol());
        TokenRing ring = cluster.partitioning();
        if (token.partitions() != ring.partitions() || token.ringFingerprint() != ring.fingerprint())
            throw new InvalidRequestException("the causal token belongs to another cluster: " + token.partitions()
                    + " partitions, ring fingerprint " + Long.toHexString(token.ringFingerprint()) + "; this cluster has "
                    + ring.partitions() + " partitions, fingerprint " + Long.toHexString(ring.fingerprint()));
        RequestIds ids = cluster.requestIds();
        return newSession(protocol.resume(ring, nextSessionId(), new CausalContext(VectorClock.of(token.clock()),
                token.commitTime()), ids::next));
    }

    private long nextSessionId() {
        synchronized (sessionIds) {
            return sessionIds.nextLong();
        }
    }

    private CausalSession newSession(ProtocolSession session) {
        return new DefaultCausalSession(this, session, cluster.partitioning().fingerprint());
    }

    @Override
    public int partitions() {
        return cluster.partitions();
    }

    @Override
    public ClientMetrics metrics() {
        return metrics;
    }

    @Override
    public CompletionStage<Void> closeAsync() {
        synchronized (this) {
            if (closing) return closed.minimalCompletionStage();
            closing = true;
        }
        cluster.close();
        release(group, timer).whenComplete((v, e) -> closed.complete(null));
        return closed.minimalCompletionStage();
    }

    @Override
    public boolean isClosed() {
        return closing;
    }

    /** Stops the I/O threads (at once: nothing is left to flush) and then the timer. */
    private static CompletableFuture<Void> release(EventLoopGroup group, HashedWheelTimer timer) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        // The termination listener runs on Netty's global executor, never on the timer's own thread (where stop() throws).
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).addListener(f -> {
            timer.stop();
            done.complete(null);
        });
        return done;
    }

    @Override
    public String toString() {
        return "FastCcsClient[" + config.protocol().word() + ", " + cluster.ring() + (closing ? ", closed" : "") + "]";
    }
}
