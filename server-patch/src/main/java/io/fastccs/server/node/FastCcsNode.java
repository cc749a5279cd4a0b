package io.fastccs.server.node;

import io.fastccs.core.spi.Protocols;
import io.fastccs.protocol.partition.Partition;
import io.fastccs.protocol.partition.PartitionMetrics;
import io.fastccs.core.api.ClientReply;
import io.fastccs.core.api.PeerSink;
import io.fastccs.protocol.host.DurablePartitionStore;
import io.fastccs.protocol.host.HostEnvironment;
import io.fastccs.protocol.host.PartitionHost;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.messages.RingReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Hosts one FastCCS {@link Partition} on a node: a {@link PartitionHost} (what may leave when) on one protocol thread,
 * which runs every handler and the periodic tick; Netty threads only decode and encode. The node knows nothing of
 * sockets: the transport reaches it through {@link InboundHandler}, and it sends to peers through a {@link PeerSink};
 * the node wiring ({@code NodeWiring}) puts the two together.
 */
public final class FastCcsNode implements InboundHandler, AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(FastCcsNode.class);

    private final NodeSettings settings;
    private final RingView ring;
    private final DurablePartitionStore store;
    private final ProtocolThread protocolThread;
    private final LongSupplier clockMicros;
    private final AtomicLong internalErrors = new AtomicLong();
    private final PeerSink peers;
    private final PartitionHost host;
    private volatile Runnable stopServing = () -> { };
    private ScheduledFuture<?> ticker;

    /**
     * @param peers       sends to other partitions (the peer links)
     * @param clockMicros the node's time in microseconds; must not go back across restarts (wall clock), since
     *                    round-two expiry compares times a partition gave out before a restart
     */
    public FastCcsNode(NodeSettings settings, RingView ring, DurablePartitionStore store, PeerSink peers, LongSupplier clockMicros) {
        this(settings, ring, store, peers, clockMicros, null);
    }

    /**
     * @param leaseCheck replicated partitions: completes if this member leads its group with a valid lease when
     *                   called (a read barrier), fails otherwise; every client reply waits for one started after it
     *                   was made, so a deposed leader that has not noticed yet never answers (null: no group)
     */
    public FastCcsNode(NodeSettings settings, RingView ring, DurablePartitionStore store, PeerSink peers, LongSupplier clockMicros,
                       Supplier<CompletableFuture<Void>> leaseCheck) {
        this.peers = peers;
        this.settings = settings;
        this.ring = ring;
        this.store = store;
        this.clockMicros = clockMicros;
        this.protocolThread = new ProtocolThread("fastccs-protocol-" + ring.self());
        this.host = new PartitionHost(new OnProtocolThread(), store, leaseCheck, true);
    }

    /** What to do when the node must stop answering (a store write or a lease check failed): close the port. */
    public void onStopServing(Runnable action) {
        this.stopServing = action;
    }

    /** Recovers the partition from the store; call before the port opens. */
    public void recover() throws InterruptedException {
        host.start(Protocols.factory(settings.protocol()), ring.self(), settings.partition(), ring.topology(), peers,
                clockMicros::getAsLong);
        try {
            protocolThread.submit(() -> null).get(); // recovery done before we accept anything
        } catch (ExecutionException e) {
            throw new IllegalStateException("FastCCS partition " + ring.self() + " failed to recover", e.getCause());
        }
        if (host.partition() == null) throw new IllegalStateException("FastCCS partition " + ring.self() + " failed to recover");
    }

    /** Starts the periodic tick (stabilization, timeouts, GC); call once the port is open. */
    public void startTicking() {
        long tick = Math.min(settings.partition().stabilizationIntervalMicros(), 5_000);
        ticker = protocolThread.every(tick, host::tick);
        logger.info("FastCCS partition {} of {} serving ({})", ring.self(), ring.partitions(), settings.partition());
    }

    public int self() {
        return ring.self();
    }

    public RingView ring() {
        return ring;
    }

    public PartitionMetrics partitionMetrics() {
        return host.partition().metrics();
    }

    /** Runs {@code work} on the protocol thread and waits for its result; for monitoring and tests. */
    public <T> T inspect(Function<Partition, T> work) {
        try {
            return protocolThread.submit(() -> work.apply(host.partition())).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not inspect partition " + ring.self(), e);
        }
    }

    public long internalErrors() {
        return internalErrors.get() + protocolThread.failedSteps();
    }

    @Override
    public void onClientRequest(ClientReply reply, ClientRequest request) {
        host.onClientRequest(reply, request);
    }

    @Override
    public void onPeerMessage(int from, PeerMessage message) {
        host.onPeerMessage(from, message);
    }

    @Override
    public RingReply ring(long requestId) {
        return new RingReply(requestId, ring.members());
    }

    /** Stops the protocol thread and closes the store; the wiring closes the port and the peer links first. */
    @Override
    public void close() {
        if (ticker != null) ticker.cancel(false);
        protocolThread.close();
        store.close();
    }

    /** The host's environment: the protocol thread, and this node's logs and port. */
    private final class OnProtocolThread implements HostEnvironment {
        @Override
        public void execute(Runnable task) {
            protocolThread.execute(task);
        }

        /** The store can no longer promise durability: stop answering rather than promise what a crash would lose. */
        @Override
        public void stopped(Throwable cause) {
            logger.error("FastCCS partition {}: a store write or a lease check failed; this node stops serving FastCCS", ring.self(), cause);
            stopServing.run();
        }

        @Override
        public void internalError(ClientRequest request, RuntimeException e) {
            internalErrors.incrementAndGet();
            logger.error("FastCCS partition {} failed on {}", ring.self(), request, e);
        }
    }
}
