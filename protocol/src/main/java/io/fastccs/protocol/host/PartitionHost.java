package io.fastccs.protocol.host;

import io.fastccs.protocol.spi.FastCcsProtocol;
import io.fastccs.core.spi.ProtocolFactory;
import io.fastccs.core.spi.PartitionServer;
import io.fastccs.protocol.ClockCompaction;
import io.fastccs.protocol.partition.Partition;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.ClientReply;
import io.fastccs.core.api.PeerSink;
import io.fastccs.core.api.TimeSource;
import io.fastccs.core.api.Topology;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.CompactSecondRoundRead;
import io.fastccs.protocol.messages.CompactWriteRequest;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.primitives.Key;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Hosts one FastCCS {@link Partition} on a {@link DurablePartitionStore} whose writes become durable after they are
 * made: the rules of what may leave when, for a node and the simulator alike. Every handler and tick runs as a step on
 * the partition's thread ({@link HostEnvironment#execute}); at the end of a step its writes are handed over together.
 * Messages leave in the order the partition sent them, each once the writes made before it are durable, so a reply
 * never promises more than a crash would keep. Thread of the partition only, but for {@link #partition()}.
 */
public final class PartitionHost {
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final HostEnvironment env;
    private final DurablePartitionStore store;
    /** Whether reads show only the durable part of the settled prefix, so the host tracks it. */
    private final boolean showsOnlyDurable;
    private final HeldMessages held;
    /** Replicated partitions: confirms this member still leads before a client reply leaves; null otherwise. */
    private final LeaseConfirmations lease;
    private volatile Partition partition;
    /** The same partition behind the protocol-neutral interface, as its factory made it. */
    private volatile PartitionServer server;
    private volatile boolean failed;
    private long settledSeen = -1;
    /** Completes once the writes the settled prefix rests on, as of its last advance, are durable. */
    private CompletableFuture<Void> settledDurable = DONE;

    /**
     * @param leaseCheck       replicated partitions: completes if this member leads its group with a valid lease when
     *                         called (a read barrier), fails otherwise; every client reply waits for one started after
     *                         it was made, so a deposed leader that has not noticed yet never answers (null: no group)
     * @param showsOnlyDurable reads show only the part of the settled prefix whose writes are durable, so that read
     *                         answers need not wait for writes (docs/design/replication-reads.md, "What a read answer
     *                         rests on"); false only for a store whose writes are durable as they are made
     */
    public PartitionHost(HostEnvironment env, DurablePartitionStore store, Supplier<CompletableFuture<Void>> leaseCheck,
                         boolean showsOnlyDurable) {
        this.env = env;
        this.store = store;
        this.showsOnlyDurable = showsOnlyDurable;
        this.held = new HeldMessages(this::chore, this::fail);
        this.lease = leaseCheck == null ? null : new LeaseConfirmations(leaseCheck, this::chore);
        store.rejoinOn(this::step);
    }

    /**
     * Starts the partition from the store (its crash recovery) as the first step. The settled prefix is noted from the
     * next step on: what recovery found is durable already.
     */
    public void start(ProtocolFactory protocol, int self, PartitionConfig config, Topology topology, PeerSink peers,
                      TimeSource time) {
        if (failed) return;
        env.execute(() -> {
            PartitionServer server = protocol.startDurablePartition(self, config, topology, store,
                    (to, message) -> send(() -> peers.send(to, message)), time);
            // Its hooks (the settled prefix and its durable part, a held-back read's arrival snapshot) are FastCCS's.
            if (!(server instanceof FastCcsProtocol.Server fastccs))
                throw new IllegalArgumentException("the partition host runs FastCCS's partitions, not " + protocol.protocol().word() + "'s");
            Partition started = fastccs.partition();
            if (showsOnlyDurable) started.trackDurableSettled();
            this.server = server;
            partition = started;
            store.endOfStep();
        });
    }

    /** The partition, once started. */
    public Partition partition() {
        return partition;
    }

    /** The partition behind the protocol-neutral interface, once started. */
    public PartitionServer server() {
        return server;
    }

    public void onPeerMessage(int from, PeerMessage message) {
        step(() -> partition.onPeerMessage(from, message));
    }

    /** Periodic work (stabilization, timeouts, GC). */
    public void tick() {
        step(() -> partition.tick());
    }

    public void onClientRequest(ClientReply reply, ClientRequest request) {
        onClientRequest(reply, request, response -> { });
    }

    /**
     * A client request; {@code reply} transmits the answer once it may leave, {@code answered} sees it when the partition
     * gives it. A request whose keys are not all in memory is handed to the partition only once the store has loaded them
     * off this thread (docs/design/cache-misses.md, "Cache misses off the protocol thread"): to the protocol it is a
     * request that arrived a little later, which every handler already copes with; a round one is answered at its
     * arrival snapshot, so the wait for the disk does not show in its clocks (a later snapshot than the other
     * partitions' answers would send them a second round).
     */
    public void onClientRequest(ClientReply reply, ClientRequest request, Consumer<ClientResponse> answered) {
        chore(() -> {
            List<Key> keys = readKeys(request);
            List<Key> missing = keys.isEmpty() ? List.of() : store.notInMemory(keys);
            if (missing.isEmpty()) {
                stepNow(() -> handle(reply, request, null, answered));
                return;
            }
            Partition.ReadSnapshot arrival = request instanceof FirstRoundRead || request instanceof CompactFirstRoundRead
                    ? partition.readSnapshotNow() : null;
            store.load(missing).whenComplete((v, e) -> {
                if (!failed) handle(reply, request, arrival, answered); // in the step that cached the keys
            });
        });
    }

    /** Runs {@code work} as a step on the partition's thread: then the step's writes are handed over together. */
    public void step(Runnable work) {
        if (failed) return;
        env.execute(() -> {
            if (!failed) stepNow(work);
        });
    }

    /** Something the partition sends: it leaves once every store write made before this call is durable. */
    public void send(Runnable transmit) {
        holdForWrites();
        held.send(transmit);
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
        List<Key> keys = new ArrayList<>(writes.size());
        for (KeyValue kv : writes) keys.add(kv.key());
        return keys;
    }

    private void handle(ClientReply reply, ClientRequest request, Partition.ReadSnapshot arrival,
                        Consumer<ClientResponse> answered) {
        try {
            ClientReply outgoing = response -> {
                answered.accept(response);
                long shows = ClockCompaction.shows(response, partition.self());
                if (shows >= 0) sendReadReply(shows, () -> reply.reply(response));
                else sendReply(() -> reply.reply(response));
            };
            if (arrival != null) partition.onRead(outgoing, request, arrival);
            else partition.onClientRequest(outgoing, request);
        } catch (RuntimeException e) {
            env.internalError(request, e);
            reply.reply(ErrorReply.of(request.requestId(), ErrorCode.INTERNAL, "internal error: " + e));
        }
    }

    private void stepNow(Runnable work) {
        work.run();
        noteSettled();
        store.endOfStep();
    }

    /** Work on the partition's thread that is not a partition step (nothing is written, the prefix does not move). */
    private void chore(Runnable task) {
        if (failed) return;
        env.execute(() -> {
            if (!failed) task.run();
        });
    }

    /**
     * When the settled prefix advanced, the writes made so far (the outcomes and versions it now covers among them) are
     * what it rests on; once they are durable the partition may show it to every read. Noted at the end of every step
     * (the prefix moves only in steps, so the mark is current between them) and, to take it before the step's later
     * writes, before anything is sent.
     */
    private void noteSettled() {
        Partition p = partition;
        if (!showsOnlyDurable || p == null) return;
        long settled = p.settledPrefix();
        if (settled == settledSeen) return;
        settledSeen = settled;
        CompletableFuture<Void> mark = store.writtenMark(); // the outcomes and versions too, not only the prepares
        settledDurable = mark;
        env.whenDurable(mark, () -> {
            if (!failed) p.onSettledDurable(settled);
        });
    }

    /**
     * A read's answer leaves once the lease check after it passed and what it shows of this partition is durable
     * (docs/design/replication-reads.md, "What a read answer rests on"), not behind every write made before it: within
     * the durable part of the settled prefix it waits for nothing else; beyond it (the client had seen more of this
     * partition than the durability news said, so the partition answered at the whole prefix), for the writes that
     * prefix rests on.
     */
    private void sendReadReply(long shown, Runnable transmit) {
        CompletableFuture<Void> durable = shown <= partition.readableSettled() ? DONE : store.settledMark(settledDurable);
        CompletableFuture<Void> ready = lease == null ? durable : durable == DONE ? lease.afterNow()
                : CompletableFuture.allOf(durable, lease.afterNow());
        if (ready.isDone() && !ready.isCompletedExceptionally()) {
            transmit.run();
            return;
        }
        ready.whenComplete((v, e) -> chore(() -> {
            if (e == null) transmit.run();
            else fail(e instanceof CompletionException && e.getCause() != null ? e.getCause() : e);
        }));
    }

    /** A client reply: with a group, it also waits until this member is confirmed leader after it was made. */
    private void sendReply(Runnable transmit) {
        holdForWrites();
        if (lease != null) held.after(lease.afterNow());
        held.send(transmit);
    }

    /**
     * What is sent from now on waits for the writes made so far. They are handed to the store's writers (or the group's
     * log) at the end of the step, with the step's later writes, so a step's writes go together.
     */
    private void holdForWrites() {
        noteSettled();
        held.after(store.durableMark());
    }

    /** The store or the lease can no longer promise what messages rest on: stop rather than promise it. */
    private void fail(Throwable cause) {
        if (failed) return;
        failed = true;
        env.stopped(cause);
    }
}
