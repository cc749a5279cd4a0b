package io.fastccs.server.node;

import io.fastccs.core.spi.Capability;
import io.fastccs.protocol.host.HeldMessages;
import io.fastccs.core.api.ClientReply;
import io.fastccs.core.api.PeerSink;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.messages.RingReply;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.spi.Protocols;
import io.fastccs.core.spi.PartitionServer;
import io.fastccs.server.storage.DurableWriteLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Hosts one partition of a compared protocol (Eiger, Wren or eventual; {@link FastCcsNode} hosts FastCCS): the
 * protocol's {@link PartitionServer} on one protocol thread that runs every handler and the periodic tick, as the
 * simulator drives it. It reads its versions from memory; the writes it takes on go through a {@link DurableWriteLog}
 * (Cassandra's commit log on a node), and every message it sends after one leaves only once it is durable, as with
 * FastCCS's store, so that a comparison counts the same storage work. Nothing recovers from that log yet: a restarted
 * node starts empty, and these protocols run at replication factor 1 (docs/design/compared-protocols.md, "The same
 * storage work, no recovery yet, replication factor 1").
 */
public final class ProtocolNode implements InboundHandler, AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(ProtocolNode.class);

    private final NodeSettings settings;
    private final RingView ring;
    private final ProtocolThread protocolThread;
    private final AtomicLong internalErrors = new AtomicLong();
    private final PartitionServer partition;
    private final DurableWriteLog writeLog;
    /** Messages waiting for the writes made before them to be durable. Protocol thread. */
    private final HeldMessages outbox = new HeldMessages(this::run, this::failDurability);
    private volatile boolean failed;
    private volatile Runnable stopServing = () -> { };
    private ScheduledFuture<?> ticker;

    /** Starts the partition (empty) with {@code settings.protocol()}; FastCCS is {@link FastCcsNode}'s. */
    public ProtocolNode(NodeSettings settings, RingView ring, PeerSink peers, LongSupplier clockMicros, DurableWriteLog writeLog) {
        if (Protocols.factory(settings.protocol()).has(Capability.CRASH_RECOVERY))
            throw new IllegalArgumentException(settings.protocol().word() + " partitions recover from a store: FastCcsNode hosts them");
        this.settings = settings;
        this.ring = ring;
        this.writeLog = writeLog;
        this.protocolThread = new ProtocolThread(settings.protocol().word() + "-protocol-" + ring.self());
        this.partition = Protocols.factory(settings.protocol()).startPartition(ring.self(), settings.partition(),
                ring.topology(), (to, message) -> send(() -> peers.send(to, message)), clockMicros::getAsLong, writeLog);
    }

    /** What to do when the node must stop answering (a write failed): close the port. */
    public void onStopServing(Runnable action) {
        this.stopServing = action;
    }

    /** Starts the periodic tick (stabilization, applying, timeouts); call once the port is open. */
    public void startTicking() {
        long tick = Math.min(settings.partition().stabilizationIntervalMicros(), 5_000);
        ticker = protocolThread.every(tick, () -> run(partition::tick));
        logger.info("{} partition {} of {} serving, versions in memory ({})", settings.protocol().word(), ring.self(),
                ring.partitions(), settings.partition());
    }

    public Protocol protocol() {
        return settings.protocol();
    }

    public long internalErrors() {
        return internalErrors.get() + protocolThread.failedSteps();
    }

    @Override
    public void onClientRequest(ClientReply reply, ClientRequest request) {
        run(() -> {
            try {
                partition.onClientRequest(response -> send(() -> reply.reply(response)), request);
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

    /** Sends now, or after the writes made so far are durable if there are any. Protocol thread. */
    private void send(Runnable transmit) {
        if (writeLog.takeDirty()) outbox.after(writeLog.whenDurable());
        outbox.send(transmit);
    }

    /** A write failed: stop answering rather than promise what a crash would lose. */
    private void failDurability(Throwable cause) {
        if (failed) return;
        failed = true;
        logger.error("{} partition {}: a write failed; this node stops serving", settings.protocol().word(), ring.self(), cause);
        stopServing.run();
    }

    private void run(Runnable work) {
        if (failed) return;
        protocolThread.execute(() -> {
            if (!failed) work.run();
        });
    }

    /** Stops the protocol thread; the wiring closes the port and the peer links first. */
    @Override
    public void close() {
        if (ticker != null) ticker.cancel(false);
        protocolThread.close();
        writeLog.close();
    }
}
