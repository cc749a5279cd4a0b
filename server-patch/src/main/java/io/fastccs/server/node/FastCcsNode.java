package io.fastccs.server.node;

import io.fastccs.protocol.ClockCompaction;
import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.partition.Partition;
import io.fastccs.protocol.partition.PartitionMetrics;
import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.protocol.api.ClientReply;
import io.fastccs.protocol.api.PeerSink;
import io.fastccs.protocol.messages.ClientRequest;
import io.fastccs.protocol.messages.ErrorCode;
import io.fastccs.protocol.messages.ErrorReply;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.CompactSecondRoundRead;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.KeyValue;
import io.fastccs.protocol.messages.CompactWriteRequest;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.protocol.messages.Outcome;
import io.fastccs.protocol.messages.PeerMessage;
import io.fastccs.protocol.messages.RingReply;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.server.storage.DurablePartitionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Hosts one FastCCS {@link Partition} on a node: one protocol thread runs every handler and the periodic tick;
 * Netty threads only decode and encode. Outgoing messages pass an outbox that holds each message until every store
 * write made before it is durable, so a reply never promises more than a crash would keep. The node knows nothing
 * of sockets: the transport reaches it through {@link InboundHandler}, and it sends to peers through a
 * {@link PeerSink}; the node wiring ({@code NodeWiring}) puts the two together.
 */
public final class FastCcsNode implements InboundHandler, AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(FastCcsNode.class);

    private final NodeSettings settings;
    private final RingView ring;
    private final TrackingStore store;
    private final ProtocolThread protocolThread;
    private final Outbox outbox = new Outbox();
    private final LongSupplier clockMicros;
    private final AtomicLong internalErrors = new AtomicLong();
    private volatile Partition partition;
    private volatile boolean failed;
    private final PeerSink peers;
    private volatile Runnable stopServing = () -> { };
    private ScheduledFuture<?> ticker;
    /** Replicated partitions: confirms this member still leads before a reply leaves; null at replication factor 1. */
    private final LeaseConfirmations lease;

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
        this.store = new TrackingStore(store);
        this.clockMicros = clockMicros;
        this.protocolThread = new ProtocolThread("fastccs-protocol-" + ring.self());
        this.store.rejoinOn(this::run);
        this.lease = leaseCheck == null ? null : new LeaseConfirmations(leaseCheck, this::run);
    }

    /** What to do when the node must stop answering (a store write failed): close the port. */
    public void onStopServing(Runnable action) {
        this.stopServing = action;
    }

    /** Recovers the partition from the store; call before the port opens. */
    public void recover() throws InterruptedException {
        run(() -> {
            partition = Partition.start(ring.self(), settings.partition(), ring.topology(), store,
                    (to, message) -> outbox.send(() -> peers.send(to, message)), clockMicros::getAsLong);
            partition.trackDurableSettled(); // what recovery found is durable
        });
        try {
            protocolThread.submit(() -> null).get(); // recovery done before we accept anything
        } catch (ExecutionException e) {
            throw new IllegalStateException("FastCCS partition " + ring.self() + " failed to recover", e.getCause());
        }
        if (partition == null) throw new IllegalStateException("FastCCS partition " + ring.self() + " failed to recover");
    }

    /** Starts the periodic tick (stabilization, timeouts, GC); call once the port is open. */
    public void startTicking() {
        long tick = Math.min(settings.partition().stabilizationIntervalMicros(), 5_000);
        ticker = protocolThread.every(tick, () -> run(() -> partition.tick()));
        logger.info("FastCCS partition {} of {} serving ({})", ring.self(), ring.partitions(), settings.partition());
    }

    public int self() {
        return ring.self();
    }

    public RingView ring() {
        return ring;
    }

    public PartitionMetrics partitionMetrics() {
        return partition.metrics();
    }

    /** Runs {@code work} on the protocol thread and waits for its result; for monitoring and tests. */
    public <T> T inspect(Function<Partition, T> work) {
        try {
            return protocolThread.submit(() -> work.apply(partition)).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not inspect partition " + ring.self(), e);
        }
    }

    public long internalErrors() {
        return internalErrors.get() + protocolThread.failedSteps();
    }

    // ------------------------------------------------------------------------------------------- from transport

    /**
     * A read whose keys are not all in memory is handed to the partition only once the store has loaded them off
     * this thread (docs/design/cache-misses.md, "Cache misses off the protocol thread"): to the protocol it is a
     * request that arrived a little later, which every handler already copes with; a round one is answered at its
     * arrival snapshot.
     */
    @Override
    public void onClientRequest(ClientReply reply, ClientRequest request) {
        run(() -> {
            List<Key> keys = readKeys(request);
            List<Key> missing = keys.isEmpty() ? List.of() : store.notInMemory(keys);
            if (missing.isEmpty()) {
                handle(reply, request, null);
                return;
            }
            // Answered at the snapshot it arrived at, so the wait for the disk does not show in its clocks (a later
            // snapshot than the other partitions' answers would send them a second round).
            Partition.ReadSnapshot arrival = request instanceof FirstRoundRead || request instanceof CompactFirstRoundRead
                    ? partition.readSnapshotNow() : null;
            store.load(missing).whenComplete((v, e) -> {
                if (!failed) handle(reply, request, arrival); // on the protocol thread, right after the keys were cached
            });
        });
    }

    /**
     * The keys whose versions the request reads: a read's keys, and a write's too, since the partition checks each
     * written key's type (fixed by its first operation: docs/design/commutative-operations.md, "What a write can do")
     * against its stored versions.
     */
    private static List<Key> readKeys(ClientRequest request) {
        if (request instanceof FirstRoundRead r) return r.keys();
        if (request instanceof CompactFirstRoundRead r) return r.keys();
        if (request instanceof CompactSecondRoundRead r) return r.keys();
        if (request instanceof SecondRoundRead r) return r.keys();
        if (request instanceof WriteRequest w) return keysOf(w.writes());
        if (request instanceof CompactWriteRequest w) return keysOf(w.writes());
        return List.of();
    }

    private static List<Key> keysOf(List<KeyValue> writes) {
        List<Key> keys = new java.util.ArrayList<>(writes.size());
        for (KeyValue kv : writes) keys.add(kv.key());
        return keys;
    }

    private void handle(ClientReply reply, ClientRequest request, Partition.ReadSnapshot arrival) {
        try {
            ClientReply outgoing = response -> {
                long shows = ClockCompaction.shows(response, ring.self());
                if (shows >= 0) outbox.sendReadReply(shows, () -> reply.reply(response));
                else outbox.sendReply(() -> reply.reply(response));
            };
            if (arrival != null) partition.onRead(outgoing, request, arrival);
            else partition.onClientRequest(outgoing, request);
        } catch (RuntimeException e) {
            internalErrors.incrementAndGet();
            logger.error("FastCCS partition {} failed on {}", ring.self(), request, e);
            reply.reply(ErrorReply.of(request.requestId(), ErrorCode.INTERNAL, "internal error: " + e));
        }
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
        if (failed) return;
        protocolThread.execute(() -> {
            if (failed) return;
            work.run();
            outbox.noteSettled();
            store.endOfStep();
        });
    }

    /** Stops the protocol thread and closes the store; the wiring closes the port and the peer links first. */
    @Override
    public void close() {
        if (ticker != null) ticker.cancel(false);
        protocolThread.close();
        store.close();
    }

    /** The store can no longer promise durability: stop answering rather than promise what a crash would lose. */
    private void failDurability(Throwable cause) {
        if (failed) return;
        failed = true;
        logger.error("FastCCS partition {}: a store write failed; this node stops serving FastCCS", ring.self(), cause);
        stopServing.run();
    }

    /**
     * Messages leave in the order the partition sent them; each waits until every store write made before it was
     * sent is durable. Runs on the protocol thread only.
     */
    private final class Outbox {
        private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
        private final HeldMessages held = new HeldMessages(FastCcsNode.this::run, FastCcsNode.this::failDurability);
        private long settledSeen = -1;
        /** Completes once the writes the settled prefix rests on, as of its last advance, are durable. */
        private CompletableFuture<Void> settledDurable = DONE;

        /**
         * When the settled prefix advanced, the writes made so far (the outcomes and versions it now covers among them)
         * are what it rests on; once they are durable the partition may show it to every read. Called at the end of every
         * step (the prefix moves only in steps, so the mark is current between them) and, to take it before the step's
         * later writes, before anything is sent.
         */
        void noteSettled() {
            if (partition == null) return;
            long settled = partition.settledPrefix();
            if (settled == settledSeen) return;
            settledSeen = settled;
            CompletableFuture<Void> mark = store.durableMark();
            settledDurable = mark;
            if (mark.isDone() && !mark.isCompletedExceptionally()) partition.onSettledDurable(settled);
            else mark.thenRun(() -> run(() -> partition.onSettledDurable(settled))); // a failure stops the node elsewhere
        }

        /**
         * A read's answer leaves once the lease check after it passed and what it shows of this partition is durable
         * (docs/design/replication-reads.md, "What a read answer rests on"), not behind every write made before it:
         * within the durable part of the settled prefix it waits for nothing else; beyond it (the client had seen more
         * of this partition than the durability news said, so the partition answered at the whole prefix), for the
         * writes that prefix rests on.
         */
        void sendReadReply(long shown, Runnable transmit) {
            CompletableFuture<Void> durable = shown <= partition.readableSettled() ? DONE : settledDurable;
            CompletableFuture<Void> ready = lease == null ? durable : durable == DONE ? lease.afterNow()
                    : CompletableFuture.allOf(durable, lease.afterNow());
            if (ready.isDone() && !ready.isCompletedExceptionally()) {
                transmit.run();
                return;
            }
            ready.whenComplete((v, e) -> run(() -> {
                if (e == null) transmit.run();
                else failDurability(e instanceof CompletionException && e.getCause() != null ? e.getCause() : e);
            }));
        }

        /** A client reply: with a group, it also waits until this member is confirmed leader after it was made. */
        void sendReply(Runnable transmit) {
            if (lease != null) {
                send(null);
                held.after(lease.afterNow());
            }
            send(transmit);
        }

        /**
         * {@code transmit} null: only takes note of the writes made so far. They are handed to the store's writers (or
         * the group's log) at the end of the step, with the step's later writes, so a step's writes go together.
         */
        void send(Runnable transmit) {
            noteSettled();
            if (store.takeDirty()) held.after(store.durableMark());
            if (transmit != null) held.send(transmit);
        }
    }

    /** Remembers whether anything was written since the outbox last asked. */
    private static final class TrackingStore implements DurablePartitionStore {
        private final DurablePartitionStore store;
        private boolean dirty;

        TrackingStore(DurablePartitionStore store) {
            this.store = store;
        }

        boolean takeDirty() {
            boolean d = dirty;
            dirty = false;
            return d;
        }

        @Override public CompletableFuture<Void> whenDurable() { return store.whenDurable(); }
        @Override public CompletableFuture<Void> durableMark() { return store.durableMark(); }
        @Override public void endOfStep() { store.endOfStep(); }
        @Override public void close() { store.close(); }
        @Override public void savePrepared(TxnRecord record) { dirty = true; store.savePrepared(record); }
        @Override public void saveOutcome(TxnId txnId, long sequence, Outcome outcome, VectorClock commitClock, long commitTime) {
            dirty = true;
            store.saveOutcome(txnId, sequence, outcome, commitClock, commitTime);
        }
        @Override public void saveSnapshot(VectorClock snapshot, int self) { dirty = true; store.saveSnapshot(snapshot, self); }
        @Override public void saveDecision(Decision decision) { dirty = true; store.saveDecision(decision); }
        @Override public void forgetDecision(TxnId txnId) { dirty = true; store.forgetDecision(txnId); }
        @Override public List<Version> versions(Key key) { return store.versions(key); }
        @Override public boolean versionsInMemory(Key key) { return store.versionsInMemory(key); }
        @Override public List<Key> notInMemory(Collection<Key> keys) { return store.notInMemory(keys); }
        @Override public CompletableFuture<Void> load(Collection<Key> keys) { return store.load(keys); }
        @Override public void rejoinOn(Executor protocolThread) { store.rejoinOn(protocolThread); }
        @Override public void putVersion(Key key, Version version) { dirty = true; store.putVersion(key, version); }
        @Override public void removeVersionsOlderThan(Key key, Version newestKept) { dirty = true; store.removeVersionsOlderThan(key, newestKept); }
        @Override public void replaceVersions(Key key, List<Version> folded, Version base) { dirty = true; store.replaceVersions(key, folded, base); }
        @Override public Recovered recover() { return store.recover(); }
    }
}
