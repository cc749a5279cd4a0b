package io.fastccs.client.internal;

import io.fastccs.client.AuthenticationException;
import io.fastccs.client.FastCcsException;
import io.fastccs.client.PartitionUnavailableException;
import io.fastccs.client.ProtocolException;
import io.fastccs.client.ProtocolMismatchException;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.RingMember;
import io.fastccs.core.messages.RingReply;
import io.fastccs.core.messages.RingRequest;
import io.fastccs.core.ring.TokenRing;
import io.netty.channel.EventLoopGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The client's view of the cluster: the ring and one connection per partition, kept current. Learns the ring from
 * a contact point, connects to every member, reconnects with exponential backoff when a connection closes, and
 * asks for the ring again periodically, after every connection failure and after every {@code NOT_LEADER} reply,
 * so a node that comes back at another address, or a replicated partition's new leader, is found.
 *
 * <p>Each partition has its own connection, whose Hello names the partition: with replicated partitions a node may
 * lead several, and the ring gives each partition's current leader as the member's address.
 *
 * <p>The partitioning (the members' tokens) is fixed for the client's lifetime, because sessions' vector clocks
 * have one entry per partition: a refreshed ring that partitions keys differently is logged and not adopted;
 * only addresses are updated.
 */
final class Cluster {
    private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);
    /** How soon a ring refresh requested while another ran is done. */
    private static final long REFRESH_COALESCE_MILLIS = 200;

    private final ClientConfig config;
    private final ConnectionFactory connections;
    private final EventLoopGroup scheduler;
    private final DefaultClientMetrics metrics;
    private final RequestIds requestIds;
    private final TokenRing partitioning;
    private final Slot[] slots;
    private final long requestTimeoutNanos;
    private final AtomicBoolean refreshInFlight = new AtomicBoolean();
    private volatile boolean refreshAgain;
    private volatile long refusedFingerprint;
    private volatile TokenRing ring;
    private volatile boolean closed;
    private volatile ScheduledFuture<?> periodicRefresh;

    private Cluster(ClientConfig config, ConnectionFactory connections, EventLoopGroup scheduler, DefaultClientMetrics metrics,
                    RequestIds requestIds, TokenRing ring) {
        this.config = config;
        this.connections = connections;
        this.scheduler = scheduler;
        this.metrics = metrics;
        this.requestIds = requestIds;
        this.partitioning = ring;
        this.ring = ring;
        this.requestTimeoutNanos = config.requestTimeout().toNanos();
        this.slots = new Slot[ring.partitions()];
        for (int i = 0; i < slots.length; i++) slots[i] = new Slot(i, addressOf(ring.member(i)));
    }

    /**
     * Learns the ring from the first contact point that answers, then opens a connection to every partition.
     * Completes once every first attempt finished, successful or not; fails only if no contact point gave a ring,
     * or at once if one refused the credentials or runs another consistency protocol.
     */
    static CompletableFuture<Cluster> connect(ClientConfig config, ConnectionFactory connections, EventLoopGroup scheduler,
                                              DefaultClientMetrics metrics, RequestIds requestIds) {
        return learnRing(config, connections, requestIds, 0, new ArrayList<>()).thenCompose(found -> {
            Cluster cluster = new Cluster(config, connections, scheduler, metrics, requestIds, found.ring());
            return cluster.start(found.connection()).thenApply(v -> cluster);
        });
    }

    private record Found(NodeConnection connection, TokenRing ring) {
    }

    /** Tries the contact points in order, from {@code index}, until one gives a ring. */
    private static CompletableFuture<Found> learnRing(ClientConfig config, ConnectionFactory connections, RequestIds ids,
                                                      int index, List<Throwable> failures) {
        List<InetSocketAddress> points = config.contactPoints();
        if (index == points.size()) {
            FastCcsException e = new FastCcsException("no contact point gave the ring: " + points
                    + (failures.isEmpty() ? "" : "; last failure: " + failures.get(failures.size() - 1).getMessage()));
            failures.forEach(e::addSuppressed);
            return CompletableFuture.failedFuture(e);
        }
        InetSocketAddress point = points.get(index);
        return connections.open(point, -1)
                .thenCompose(conn -> requestRing(conn, ids.next(), config.requestTimeout().toNanos())
                        .whenComplete((ring, e) -> {
                            if (e != null) conn.close(Failures.asFastCcs(e));
                        })
                        .thenApply(ring -> new Found(conn, ring)))
                .handle((found, e) -> {
                    if (e == null) return CompletableFuture.completedFuture(found);
                    Throwable cause = Failures.unwrap(e);
                    // Configuration errors another contact point would repeat: fail at once, with the node's word.
                    if (cause instanceof AuthenticationException || cause instanceof ProtocolMismatchException)
                        return CompletableFuture.<Found>failedFuture(cause);
                    LOG.info("contact point {} gave no ring: {}", point, cause.getMessage());
                    failures.add(cause);
                    return learnRing(config, connections, ids, index + 1, failures);
                })
                .thenCompose(f -> f);
    }

    /** Asks {@code conn}'s node for the ring. */
    private static CompletableFuture<TokenRing> requestRing(NodeConnection conn, long requestId, long timeoutNanos) {
        return conn.send(requestId, Frames.encode(new RingRequest(requestId)), timeoutNanos).thenApply(m -> {
            if (m instanceof RingReply reply) {
                TokenRing ring;
                try {
                    ring = TokenRing.of(reply.members());
                } catch (IllegalArgumentException e) {
                    throw new ProtocolException(conn.label() + " sent an invalid ring: " + e.getMessage(), e);
                }
                HelloReply hello = conn.hello();
                if (hello.partitions() != ring.partitions())
                    throw new ProtocolException(conn.label() + " said the cluster has " + hello.partitions()
                            + " partitions but sent a ring of " + ring.partitions());
                return ring;
            }
            if (m instanceof ErrorReply e) throw Failures.fromErrorReply(e, conn.hello().partition());
            throw new ProtocolException(conn.label() + " answered a ring request with " + m);
        });
    }

    private CompletableFuture<Void> start(NodeConnection contact) {
        // Not kept for its partition: its Hello named none, and with replicated partitions the node may not lead its own.
        contact.close(new PartitionUnavailableException(-1, "ring learned; contact connection not kept"));
        List<CompletableFuture<Void>> attempts = new ArrayList<>();
        for (Slot slot : slots) attempts.add(slot.connect());
        long interval = config.ringRefreshInterval().toMillis();
        periodicRefresh = scheduler.scheduleWithFixedDelay(this::requestRingRefresh, interval, interval, TimeUnit.MILLISECONDS);
        LOG.info("ring of {} partitions: {}", slots.length, ring);
        return CompletableFuture.allOf(attempts.toArray(CompletableFuture[]::new));
    }

    /** The ring the client routes by: fixed for the client's lifetime. */
    TokenRing partitioning() {
        return partitioning;
    }

    /** The latest ring received, with the members' current addresses. */
    TokenRing ring() {
        return ring;
    }

    int partitions() {
        return slots.length;
    }

    RequestIds requestIds() {
        return requestIds;
    }

    boolean isClosed() {
        return closed;
    }

    /** Whether requests to {@code partition} can be sent now. */
    boolean isConnected(int partition) {
        NodeConnection c = slots[partition].connection;
        return c != null && c.isOpen();
    }

    int connectedPartitions() {
        int n = 0;
        for (int i = 0; i < slots.length; i++) if (isConnected(i)) n++;
        return n;
    }

    /**
     * Sends a request frame to {@code partition}'s node. The future fails at once with {@link NotSentException} if
     * there is no open connection (nothing left the client), later with {@link PartitionUnavailableException} if the
     * connection breaks, or with {@link RequestTimedOutException} after the request timeout.
     */
    CompletableFuture<Message> send(int partition, long requestId, byte[] frame) {
        return send(partition, requestId, frame, requestTimeoutNanos);
    }

    /** {@link #send(int, long, byte[])} with a timeout of its own. */
    CompletableFuture<Message> send(int partition, long requestId, byte[] frame, long timeoutNanos) {
        NodeConnection c = slots[partition].connection;
        if (c == null || !c.isOpen() || closed) {
            return CompletableFuture.failedFuture(new NotSentException(partition, "no connection to partition "
                    + partition + (closed ? ": the client is closed" : " (" + NodeConnection.describe(slots[partition].address()) + "); reconnecting")));
        }
        CompletableFuture<Message> reply = c.send(requestId, frame, timeoutNanos);
        Slot slot = slots[partition];
        reply.whenComplete((m, e) -> {
            boolean notLeader = m instanceof ErrorReply r && r.code() == ErrorCode.NOT_LEADER;
            // An answer from the partition's host shows it leads; a refusal or silence puts it in doubt.
            slot.inDoubt = notLeader || (e != null && !(Failures.unwrap(e) instanceof CancellationException));
            // The partition's leader changed: the ring names the new one.
            if (notLeader) requestRingRefresh();
        });
        return reply;
    }

    /** Stops waiting for a request's reply, so the connection forgets it. */
    void cancel(int partition, long requestId) {
        NodeConnection c = slots[partition].connection;
        if (c != null) c.cancel(requestId);
    }

    /**
     * Asks for the ring soon. Requests made while one is in flight are merged into one more refresh after it, so
     * a burst of failures costs at most two.
     */
    void requestRingRefresh() {
        if (closed) return;
        if (!refreshInFlight.compareAndSet(false, true)) {
            refreshAgain = true;
            return;
        }
        refreshAgain = false;
        fetchRing().whenComplete((fresh, e) -> {
            if (e != null) LOG.debug("ring refresh failed: {}", Failures.unwrap(e).toString());
            else apply(fresh);
            refreshInFlight.set(false);
            if (refreshAgain && !closed)
                scheduler.schedule(this::requestRingRefresh, REFRESH_COALESCE_MILLIS, TimeUnit.MILLISECONDS);
        });
    }

    private CompletableFuture<TokenRing> fetchRing() {
        int start = ThreadLocalRandom.current().nextInt(slots.length);
        for (int i = 0; i < slots.length; i++) {
            NodeConnection c = slots[(start + i) % slots.length].connection;
            if (c != null && c.isOpen()) return requestRing(c, requestIds.next(), requestTimeoutNanos);
        }
        // No member is reachable: maybe they all moved. Ask the contact points.
        return learnRing(config, connections, requestIds, 0, new ArrayList<>()).thenApply(found -> {
            found.connection().close(new PartitionUnavailableException(-1, "ring learned; contact connection not kept"));
            return found.ring();
        });
    }

    private void apply(TokenRing fresh) {
        if (closed) return;
        if (!fresh.samePartitioning(partitioning)) {
            if (refusedFingerprint != fresh.fingerprint()) {
                refusedFingerprint = fresh.fingerprint();
                LOG.error("the cluster now partitions keys differently ({}); this client keeps the ring it started with "
                        + "({}), so requests may be refused as misrouted: build a new client", fresh, partitioning);
            }
            return;
        }
        ring = fresh;
        metrics.ringRefreshed();
        for (Slot slot : slots) slot.updateAddress(addressOf(fresh.member(slot.partition)));
    }

    private static SocketAddress addressOf(RingMember m) {
        // Unresolved: Netty resolves it when connecting, and a change of host name is seen as a move.
        return InetSocketAddress.createUnresolved(m.host(), m.port());
    }

    /** Closes every connection; pending requests fail. */
    void close() {
        closed = true;
        ScheduledFuture<?> refresh = periodicRefresh;
        if (refresh != null) refresh.cancel(false);
        for (Slot slot : slots) slot.close();
    }

    /** One partition's connection and the state of reconnecting to it. */
    private final class Slot {
        final int partition;
        private volatile NodeConnection connection;
        private SocketAddress address;                 // guarded by this
        private CompletableFuture<Void> connecting;    // guarded by this: the attempt in progress, if any
        private int failures;                          // guarded by this: consecutive failed attempts
        private ScheduledFuture<?> retry;              // guarded by this
        private boolean everConnected;                 // guarded by this
        /**
         * The connected node refused a request as not leading, or let one time out, since its last answer. Only then
         * does a ring naming another node move the partition: a node that does not lead a group learns its leader
         * through gossip, and may name a dead leader for as long as Cassandra's failure detector thinks it alive.
         */
        volatile boolean inDoubt;

        Slot(int partition, SocketAddress address) {
            this.partition = partition;
            this.address = address;
        }

        synchronized SocketAddress address() {
            return address;
        }

        /** Starts an attempt unless connected or already trying; completes when the attempt has finished. */
        CompletableFuture<Void> connect() {
            CompletableFuture<Void> attempt;
            SocketAddress target;
            synchronized (this) {
                if (closed || connection != null) return CompletableFuture.completedFuture(null);
                if (connecting != null) return connecting;
                if (retry != null) retry.cancel(false);
                retry = null;
                attempt = new CompletableFuture<>();
                connecting = attempt;
                target = address;
            }
            connections.open(target, partition).whenComplete((conn, e) -> {
                onAttempt(target, conn, e);
                attempt.complete(null);
            });
            return attempt;
        }

        private void onAttempt(SocketAddress target, NodeConnection conn, Throwable error) {
            boolean again = false;
            synchronized (this) {
                connecting = null;
                if (error == null) {
                    if (closed || !target.equals(address)) {
                        conn.close(new PartitionUnavailableException(partition, "partition " + partition + " moved"));
                        again = !closed;
                    } else {
                        install(conn);
                        LOG.info("connected to partition {} at {}", partition, NodeConnection.describe(target));
                    }
                } else {
                    failures++;
                    Throwable cause = Failures.unwrap(error);
                    if (cause instanceof AuthenticationException) LOG.error("partition {} refused the credentials: {}", partition, cause.getMessage());
                    else if (cause instanceof ProtocolMismatchException && failures == 1) LOG.error("partition {}: {}", partition, cause.getMessage());
                    else if (failures == 1) LOG.info("cannot connect to partition {} at {}: {}", partition, NodeConnection.describe(target), cause.getMessage());
                    else LOG.debug("cannot connect to partition {} at {} (attempt {}): {}", partition, NodeConnection.describe(target), failures,
                            cause.getMessage());
                    scheduleRetry();
                }
            }
            if (again) connect();
            if (error != null) requestRingRefresh();
        }

        private void install(NodeConnection conn) {
            connection = conn;
            inDoubt = false;
            failures = 0;
            if (everConnected) metrics.reconnected();
            everConnected = true;
            conn.closeFuture().thenAccept(reason -> onClosed(conn, reason));
        }

        private void onClosed(NodeConnection conn, FastCcsException reason) {
            synchronized (this) {
                if (connection != conn) return;
                connection = null;
                if (closed) return;
                LOG.warn("lost the connection to partition {} at {} ({}); reconnecting", partition, conn.label(),
                        reason.getMessage());
                scheduleRetry();
            }
            requestRingRefresh();
        }

        /** Exponential backoff with jitter: base, 2 x base, ... up to the maximum, each scaled by 0.5 to 1. */
        private void scheduleRetry() {
            if (closed || retry != null) return;
            long base = config.reconnectBaseDelay().toNanos();
            long max = config.reconnectMaxDelay().toNanos();
            long delay = failures <= 1 ? base : base << Math.min(failures - 1, 30);
            if (delay <= 0 || delay > max) delay = max;
            delay = (long) (delay * (0.5 + 0.5 * ThreadLocalRandom.current().nextDouble()));
            retry = scheduler.schedule(() -> {
                synchronized (this) {
                    retry = null;
                }
                connect();
            }, delay, TimeUnit.NANOSECONDS);
        }

        void updateAddress(SocketAddress fresh) {
            NodeConnection stale;
            synchronized (this) {
                if (fresh.equals(address)) return;
                NodeConnection current = connection;
                if (current != null && current.isOpen() && !inDoubt) {
                    LOG.debug("partition {}: the ring names {}, but {} answers for it; staying", partition,
                            NodeConnection.describe(fresh), NodeConnection.describe(address));
                    return;
                }
                LOG.info("partition {} moved from {} to {}", partition, NodeConnection.describe(address), NodeConnection.describe(fresh));
                address = fresh;
                stale = connection;
            }
            if (stale != null) stale.close(new PartitionUnavailableException(partition, "partition " + partition + " moved to " + NodeConnection.describe(fresh)));
            connect();
        }

        void close() {
            NodeConnection c;
            synchronized (this) {
                if (retry != null) retry.cancel(false);
                retry = null;
                c = connection;
                connection = null;
            }
            if (c != null) c.close(new PartitionUnavailableException(partition, "the client is closed"));
        }
    }
}
