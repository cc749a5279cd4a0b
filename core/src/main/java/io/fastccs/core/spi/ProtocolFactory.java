package io.fastccs.core.spi;

import io.fastccs.core.api.PartitionStorage;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.PeerSink;
import io.fastccs.core.api.TimeSource;
import io.fastccs.core.api.Topology;
import io.fastccs.core.api.WriteLog;

import java.util.Comparator;
import java.util.Set;
import java.util.function.LongSupplier;

/** Makes one protocol's partitions and client sessions; the host knows nothing else of the protocol. */
public interface ProtocolFactory {
    Protocol protocol();

    /** What the protocol offers beyond reads and puts. */
    Set<Capability> capabilities();

    default boolean has(Capability capability) {
        return capabilities().contains(capability);
    }

    /**
     * Starts partition {@code self}. Timeouts and intervals come from {@code config} (its stabilization interval is
     * also Wren's apply and stabilization interval); the writes it takes on go to {@code writes} (FastCCS keeps its own
     * store and ignores it).
     */
    PartitionServer startPartition(int self, PartitionConfig config, Topology topology, PeerSink peers, TimeSource time,
                                   WriteLog writes);

    /**
     * A partition of a protocol with {@link Capability#CRASH_RECOVERY}, recovered from {@code storage} (of the kind the
     * protocol names), for a host that keeps the durability rule: nothing the partition sends leaves before what it
     * rests on is durable in {@code storage}.
     *
     * @throws UnsupportedOperationException for a protocol without crash recovery
     * @throws IllegalArgumentException      for storage of a kind the protocol does not take
     */
    default PartitionServer startDurablePartition(int self, PartitionConfig config, Topology topology, PartitionStorage storage,
                                                  PeerSink peers, TimeSource time) {
        throw new UnsupportedOperationException(protocol().word() + " keeps its partitions in memory: it has no crash recovery");
    }

    /** A partition whose accepted writes are kept nowhere but in its memory (the simulator, tests). */
    default PartitionServer startPartition(int self, PartitionConfig config, Topology topology, PeerSink peers, TimeSource time) {
        return startPartition(self, config, topology, peers, time, WriteLog.NONE);
    }

    /**
     * A new session.
     *
     * @param clientId   a random 64-bit id, unique among sessions
     * @param requestIds request ids for the session's messages, unique per connection
     */
    ProtocolSession newSession(Topology topology, long clientId, LongSupplier requestIds);

    /**
     * A new session that continues {@code context} (a causal token's) instead of starting from nothing.
     *
     * @throws UnsupportedOperationException unless the protocol has {@link Capability#CAUSAL_TOKENS}
     */
    default ProtocolSession resume(Topology topology, long clientId, CausalContext context, LongSupplier requestIds) {
        throw new UnsupportedOperationException(protocol().word() + " has no causal tokens");
    }

    /**
     * The order in which committed writes of one key win ({@link WriteStep#commitStamp()}): the newest in this order is
     * what every replica converges to.
     */
    Comparator<Object> arbitration();
}
