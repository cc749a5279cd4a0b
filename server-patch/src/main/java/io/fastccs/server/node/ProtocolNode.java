package io.fastccs.server.node;

import io.fastccs.protocol.api.ClientReply;
import io.fastccs.protocol.api.PeerSink;
import io.fastccs.protocol.messages.ClientRequest;
import io.fastccs.protocol.messages.ErrorCode;
import io.fastccs.protocol.messages.ErrorReply;
import io.fastccs.protocol.messages.PeerMessage;
import io.fastccs.protocol.messages.RingReply;
import io.fastccs.protocol.primitives.Protocol;
import io.fastccs.protocol.protocols.Protocols;
import io.fastccs.protocol.spi.PartitionServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Hosts one partition of a compared protocol (Eiger, Wren or eventual; {@link FastCcsNode} hosts FastCCS): the
 * protocol's {@link PartitionServer} on one protocol thread that runs every handler and the periodic tick, as the
 * simulator drives it. Its versions live in memory only (docs/design.md, "The compared protocols on real nodes"): no
 * store, no recovery, replication factor 1, so that a comparison measures the protocols' messages and waits, and a
 * restarted node starts empty.
 */
public final class ProtocolNode implements InboundHandler, AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(ProtocolNode.class);

    private final NodeSettings settings;
    private final RingView ring;
    private final ScheduledThreadPoolExecutor protocolThread;
    private final AtomicLong internalErrors = new AtomicLong();
    private final PartitionServer partition;
    private ScheduledFuture<?> ticker;

    /** Starts the partition (empty) with {@code settings.protocol()}; FastCCS is {@link FastCcsNode}'s. */
    public ProtocolNode(NodeSettings settings, RingView ring, PeerSink peers, LongSupplier clockMicros) {
        if (settings.protocol() == Protocol.FASTCCS)
            throw new IllegalArgumentException("FastCCS partitions are hosted by FastCcsNode, with their store");
        this.settings = settings;
        this.ring = ring;
        this.protocolThread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, settings.protocol().word() + "-protocol-" + ring.self());
            t.setDaemon(true);
            return t;
        });
        protocolThread.setRemoveOnCancelPolicy(true);
        this.partition = Protocols.factory(settings.protocol()).startPartition(ring.self(), settings.partition(),
                ring.topology(), peers, clockMicros::getAsLong);
    }

    /** Starts the periodic tick (stabilization, applying, timeouts); call once the port is open. */
    public void startTicking() {
        long tick = Math.min(settings.partition().stabilizationIntervalMicros(), 5_000);
        ticker = protocolThread.scheduleWithFixedDelay(() -> run(partition::tick), tick, tick, TimeUnit.MICROSECONDS);
        logger.info("{} partition {} of {} serving, versions in memory ({})", settings.protocol().word(), ring.self(),
                ring.partitions(), settings.partition());
    }

    public Protocol protocol() {
        return settings.protocol();
    }

    public long internalErrors() {
        return internalErrors.get();
    }

    @Override
    public void onClientRequest(ClientReply reply, ClientRequest request) {
        run(() -> {
            try {
                partition.onClientRequest(reply, request);
            } catch (RuntimeException e) {
                internalErrors.incrementAndGet();
                logger.error("{} partition {} failed on {}", settings.protocol().word(), ring.self(), request, e);
                reply.reply(ErrorReply.of(request.requestId(), ErrorCode.INTERNAL, "internal error: " + e));
            }
        });
    }

    @Override
    public void onPeerMessage(int from, PeerMessage message) {
        run(() -> partition.onPeerMessage(from, message));
    }

    @Override
    public RingReply ring(long requestId) {
        return new RingReply(requestId, ring.members());
    }

    private void run(Runnable work) {
        try {
            protocolThread.execute(() -> {
                try {
                    work.run();
                } catch (RuntimeException e) {
                    internalErrors.incrementAndGet();
                    logger.error("{} partition {}: unexpected failure", settings.protocol().word(), ring.self(), e);
                }
            });
        } catch (RejectedExecutionException e) {
            // shutting down
        }
    }

    /** Stops the protocol thread; the wiring closes the port and the peer links first. */
    @Override
    public void close() {
        if (ticker != null) ticker.cancel(false);
        protocolThread.shutdown();
        try {
            protocolThread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
