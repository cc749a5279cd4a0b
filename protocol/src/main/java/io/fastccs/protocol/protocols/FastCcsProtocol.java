package io.fastccs.protocol.protocols;

import io.fastccs.protocol.ClientSession;
import io.fastccs.protocol.Outgoing;
import io.fastccs.protocol.Partition;
import io.fastccs.protocol.PartitionConfig;
import io.fastccs.protocol.ReadTransaction;
import io.fastccs.protocol.WriteTransaction;
import io.fastccs.protocol.api.ClientReply;
import io.fastccs.protocol.api.PeerSink;
import io.fastccs.protocol.api.TimeSource;
import io.fastccs.protocol.api.Topology;
import io.fastccs.protocol.api.WriteLog;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.protocol.messages.ClientRequest;
import io.fastccs.protocol.messages.ClientResponse;
import io.fastccs.protocol.messages.PeerMessage;
import io.fastccs.protocol.messages.ErrorReply;
import io.fastccs.protocol.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.primitives.Key;
import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.primitives.CommitOrder;
import io.fastccs.protocol.primitives.VectorClock;
import io.fastccs.protocol.spi.PartitionServer;
import io.fastccs.protocol.primitives.Protocol;
import io.fastccs.protocol.spi.ProtocolFactory;
import io.fastccs.protocol.spi.ProtocolSession;
import io.fastccs.protocol.spi.ReadResult;
import io.fastccs.protocol.spi.ReadStep;
import io.fastccs.protocol.spi.WriteStep;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * FastCCS behind the protocol-neutral interfaces: a {@link Partition} wrapped as a {@link PartitionServer}, and a
 * {@link ClientSession}'s transactions wrapped as step machines (the core itself does not depend on the interfaces). Hosts that need FastCCS's own hooks (durable
 * stores, crash recovery, replica groups) keep using the classes directly.
 */
public final class FastCcsProtocol implements ProtocolFactory {
    @Override
    public Protocol protocol() {
        return Protocol.FASTCCS;
    }

    /** A partition on a fresh in-memory store (the neutral path has no crash recovery). */
    @Override
    public PartitionServer startPartition(int self, PartitionConfig config, Topology topology, PeerSink peers, TimeSource time,
                                          WriteLog writes) {
        return new Server(Partition.start(self, config, topology, new InMemoryPartitionStore(), peers, time));
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
        public String toString() {
            return partition.toString();
        }
    }

    @Override
    public ProtocolSession newSession(Topology topology, long clientId, LongSupplier requestIds) {
        return resume(topology, clientId, VectorClock.zero(topology.partitions()), 0, requestIds);
    }

    /**
     * A session that continues the causal context {@code clock} (one entry per partition) and {@code time} (its largest
     * commit time), a causal token's, instead of starting from nothing.
     */
    public static Session resume(Topology topology, long clientId, VectorClock clock, long time, LongSupplier requestIds) {
        return session(new ClientSession(topology, clientId, clock, time, requestIds));
    }

    /** {@code session} as a neutral session. */
    public static Session session(ClientSession session) {
        return new Session(session);
    }

    /**
     * A FastCCS session as a neutral one; hosts that need its causal context (the vector clock a causal token carries)
     * reach it through {@link #session()}; {@link #resume} makes one from a given clock.
     */
    public record Session(ClientSession session) implements ProtocolSession {
        @Override
        public long clientId() {
            return session.clientId();
        }

        @Override
        public ReadStep read(Collection<Key> keys) {
            return new Read(session.read(keys));
        }

        @Override
        public WriteStep write(Map<Key, byte[]> writes, RandomGenerator random) {
            return new Write(session.write(writes, random));
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

    private record Read(ReadTransaction txn) implements ReadStep {
        @Override
        public List<Outgoing> start() {
            return txn.start();
        }

        @Override
        public List<Outgoing> onResponse(ClientResponse response) {
            return txn.onResponse(response);
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
            return new ReadResult(r.values(), r.rounds(), r.secondRoundPartitions());
        }

        @Override
        public ErrorReply failure() {
            return txn.failure();
        }
    }

    /** The FastCCS write, reachable for hosts that report its coordinator and participants. */
    public record Write(WriteTransaction txn) implements WriteStep {
        @Override
        public TxnId txnId() {
            return txn.txnId();
        }

        @Override
        public List<Outgoing> start() {
            return txn.start();
        }

        @Override
        public List<Outgoing> onResponse(ClientResponse response) {
            txn.onResponse(response);
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
