package io.fastccs.protocol.spi;

import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.core.api.PartitionStorage;
import io.fastccs.core.messages.KeyValue;

import io.fastccs.protocol.ClientSession;
import io.fastccs.core.Outgoing;
import io.fastccs.protocol.partition.Partition;
import io.fastccs.core.PartitionConfig;
import io.fastccs.protocol.ReadTransaction;
import io.fastccs.protocol.WriteTransaction;
import io.fastccs.core.api.ClientReply;
import io.fastccs.core.api.PeerSink;
import io.fastccs.core.api.TimeSource;
import io.fastccs.core.api.Topology;
import io.fastccs.core.api.WriteLog;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.protocol.messages.CompactReadReply;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.protocol.messages.Rebase;
import io.fastccs.protocol.ClockCompaction;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.protocol.primitives.CommitOrder;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.spi.PartitionServer;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.spi.Capability;
import io.fastccs.core.spi.CausalContext;
import io.fastccs.core.spi.ProtocolFactory;
import io.fastccs.core.spi.ProtocolSession;
import io.fastccs.core.spi.PartitionAnswer;
import io.fastccs.core.spi.ReadResult;
import io.fastccs.core.spi.ReadStep;
import io.fastccs.core.spi.WriteStep;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * FastCCS behind the core's protocol-neutral interfaces: a {@link Partition} wrapped as a {@link PartitionServer} (in
 * memory, or recovered from a {@link PartitionStore} for the partition host), and a {@link ClientSession}'s
 * transactions wrapped as step machines. The partition and client classes themselves do not depend on the interfaces.
 */
public final class FastCcsProtocol implements ProtocolFactory {
    private static final Set<Capability> CAPABILITIES = Collections.unmodifiableSet(EnumSet.allOf(Capability.class));

    @Override
    public Protocol protocol() {
        return Protocol.FASTCCS;
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    /** A partition on a fresh in-memory store: a crash loses it ({@link #startDurablePartition} recovers from a store). */
    @Override
    public PartitionServer startPartition(int self, PartitionConfig config, Topology topology, PeerSink peers, TimeSource time,
                                          WriteLog writes) {
        return new Server(Partition.start(self, config, topology, new InMemoryPartitionStore(), peers, time));
    }

    /** A partition recovered from {@code storage}, a {@link PartitionStore}. */
    @Override
    public PartitionServer startDurablePartition(int self, PartitionConfig config, Topology topology, PartitionStorage storage,
                                                 PeerSink peers, TimeSource time) {
        if (!(storage instanceof PartitionStore store))
            throw new IllegalArgumentException("FastCCS partitions recover from a PartitionStore, not " + storage);
        return new Server(Partition.start(self, config, topology, store, peers, time));
    }

    /** A FastCCS partition as a neutral server; hosts that need its own hooks reach it through {@link #partition()}. */
    public record Server(Partition partition) implements PartitionServer {
        @Override
        public int self() {
            return partition.self();
        }

        @Override
        public void onClientRequest(ClientReply reply, ClientRequest request) {
            partition.onClientRequest(reply, request);
        }

        @Override
        public void onPeerMessage(int from, PeerMessage message) {
            partition.onPeerMessage(from, message);
        }

        @Override
        public void tick() {
            partition.tick();
        }

        @Override
        public int unsettledCount() {
            return partition.unsettledCount();
        }

        @Override
        public long clientClocksAhead() {
            return partition.metrics().clockAhead();
        }

        @Override
        public String describeState() {
            return " pending=" + partition.pendingCount() + " svc=" + partition.snapshot();
        }

        @Override
        public String toString() {
            return partition.toString();
        }
    }

    @Override
    public ProtocolSession newSession(Topology topology, long clientId, LongSupplier requestIds) {
        return new Session(new ClientSession(topology, clientId, VectorClock.zero(topology.partitions()), 0, requestIds));
    }

    /** A session that continues a causal token's context instead of starting from nothing. */
    @Override
    public ProtocolSession resume(Topology topology, long clientId, CausalContext context, LongSupplier requestIds) {
        return new Session(new ClientSession(topology, clientId, context.clock(), context.commitTime(), requestIds));
    }

    /**
     * A FastCCS session as a neutral one: its causal context (the vector clock a causal token carries) is
     * {@link #causalContext()}, and {@link FastCcsProtocol#resume} makes one from a token's.
     */
    public record Session(ClientSession session) implements ProtocolSession {
        @Override
        public long clientId() {
            return session.clientId();
        }

        @Override
        public Optional<CausalContext> causalContext() {
            return Optional.of(new CausalContext(session.clock(), session.time()));
        }

        @Override
        public void observe(CausalContext served) {
            session.observe(served.clock(), served.commitTime());
        }

        @Override
        public ReadStep read(Collection<Key> keys) {
            return new Read(session.read(keys), new Wire(session));
        }

        @Override
        public ReadStep read(Collection<Key> keys, List<PartitionAnswer> cached) {
            return new Read(session.read(keys, cached), new Wire(session));
        }

        @Override
        public WriteStep write(Map<Key, byte[]> writes, RandomGenerator random) {
            return new Write(session.write(writes, random), new Wire(session));
        }

        @Override
        public WriteStep write(List<KeyValue> operations, RandomGenerator random) {
            return new Write(session.write(operations, random), new Wire(session));
        }

        @Override
        public String toString() {
            return "FastCcsSession[" + Long.toHexString(session.clientId()) + ", clock=" + session.clock() + "]";
        }
    }

    @Override
    public Comparator<Object> arbitration() {
        return (a, b) -> ((CommitOrder) a).compareTo((CommitOrder) b);
    }

    /**
     * A step's requests as they go on the wire and its answers as they come back (docs/design/stable-bases.md,
     * "Requests"): each request's clock relative to the session's stable base, each answer expanded with the clock
     * of the request it answers; a request a partition refused for an unknown base goes again relative to epoch 0.
     */
    static final class Wire {
        private final ClientSession session;
        /** The full requests not answered yet, by request id. */
        private final Map<Long, Outgoing> sent = new HashMap<>();
        /** A move to a newer base a partition answered with, kept until the read succeeds. */
        private Rebase rebase;
        private VectorClock rebaseClock;

        Wire(ClientSession session) {
            this.session = session;
        }

        List<Outgoing> send(List<Outgoing> requests) {
            List<Outgoing> out = new ArrayList<>(requests.size());
            for (Outgoing o : requests) {
                sent.put(o.request().requestId(), o);
                out.add(new Outgoing(o.partition(), session.compact(o.request())));
            }
            return out;
        }

        /** The request to send again instead of feeding {@code response} to the step, or null. */
        Outgoing resend(ClientResponse response) {
            Outgoing o = sent.get(response.requestId());
            if (o == null || !(response instanceof ErrorReply e) || e.code() != ErrorCode.BASE_UNKNOWN) return null;
            session.resetBase();
            return new Outgoing(o.partition(), session.compactFull(o.request()));
        }

        /** {@code response} as the step expects it: expanded with its request's clock. */
        ClientResponse receive(ClientResponse response) {
            Outgoing o = sent.remove(response.requestId());
            if (o == null) return response;
            VectorClock requestClock = ClockCompaction.clockOf(o.request());
            if (response instanceof ReadReply r) session.noteStable(r.stableEpoch());
            if (response instanceof CompactReadReply r) {
                session.noteStable(r.stableEpoch());
                if (r.rebase() != null) {
                    rebase = r.rebase();
                    rebaseClock = requestClock;
                }
            }
            return requestClock == null ? response : ClockCompaction.expand(response, requestClock);
        }

        /** After a read succeeded: move the session to the base a partition answered with, if any. */
        void succeeded() {
            if (rebase != null) session.rebase(rebaseClock, rebase);
            rebase = null;
        }
    }

    private record Read(ReadTransaction txn, Wire wire) implements ReadStep {
        @Override
        public List<Outgoing> start() {
            return wire.send(txn.start());
        }

        @Override
        public List<Outgoing> onResponse(ClientResponse response) {
            Outgoing again = wire.resend(response);
            if (again != null) return List.of(again);
            List<Outgoing> next = wire.send(txn.onResponse(wire.receive(response)));
            if (txn.succeeded()) wire.succeeded();
            return next;
        }

        @Override
        public boolean isFinished() {
            return txn.isFinished();
        }

        @Override
        public boolean succeeded() {
            return txn.succeeded();
        }

        @Override
        public ReadResult result() {
            ReadTransaction.Result r = txn.result();
            return new ReadResult(r.values(), r.rounds(), r.secondRoundPartitions(), r.answers());
        }

        @Override
        public ErrorReply failure() {
            return txn.failure();
        }
    }

    /** The FastCCS write as a neutral step machine; its coordinator and participants are the client's choice. */
    private record Write(WriteTransaction txn, Wire wire) implements WriteStep {
        @Override
        public TxnId txnId() {
            return txn.txnId();
        }

        @Override
        public List<Outgoing> start() {
            return wire.send(txn.start());
        }

        @Override
        public List<Outgoing> onResponse(ClientResponse response) {
            Outgoing again = wire.resend(response);
            if (again != null) return List.of(again);
            txn.onResponse(wire.receive(response));
            return List.of();
        }

        @Override
        public boolean isFinished() {
            return txn.isFinished();
        }

        @Override
        public boolean isConfirmed() {
            return txn.isConfirmed();
        }

        @Override
        public Outcome outcome() {
            return txn.outcome();
        }

        @Override
        public Object commitStamp() {
            return txn.commitClock() == null ? null : new CommitOrder(txn.commitTime(), txn.commitClock());
        }

        @Override
        public int coordinator() {
            return txn.coordinator();
        }

        @Override
        public List<Integer> participants() {
            return txn.participants();
        }

        @Override
        public VectorClock commitClock() {
            return txn.commitClock();
        }

        @Override
        public long commitTime() {
            return txn.commitClock() == null ? 0 : txn.commitTime();
        }

        @Override
        public ErrorReply failure() {
            return txn.failure();
        }

        @Override
        public Outgoing queryOutcome() {
            return txn.queryOutcome();
        }

        /**
         * Only the coordinator's {@link OutcomeReply} for this transaction is an answer (and fed); what it says is its
         * own outcome, even when a participant already said committed.
         */
        @Override
        public Outcome onOutcomeAnswer(ClientResponse answer) {
            if (!(answer instanceof OutcomeReply reply) || !reply.txnId().equals(txn.txnId())) return null;
            txn.onResponse(reply);
            return reply.outcome();
        }
    }
}
