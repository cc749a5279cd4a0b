package io.fastccs.baselines.eiger;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.PeerSink;
import io.fastccs.core.api.TimeSource;
import io.fastccs.core.api.Topology;
import io.fastccs.core.api.WriteLog;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.spi.Capability;
import io.fastccs.core.spi.ProtocolFactory;

import java.util.Comparator;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Eiger (Lloyd et al., NSDI 2013) in one datacenter, behind the protocol-neutral interfaces. Commit stamps are
 * {@code Long}s, {@code (commitTime << 16) | coordinatorPartition}, ordered as numbers: the newest version of a key
 * in this order is what every partition shows.
 */
public final class EigerProtocol implements ProtocolFactory {
    private static final Set<Capability> CAPABILITIES = Set.of(Capability.CAUSAL_CONSISTENCY);
    private final Set<EigerBug> bugs;

    public EigerProtocol() {
        this(Set.of());
    }

    /** Eiger with deliberately broken behaviour ({@code bugs} empty for the real thing). */
    public EigerProtocol(Set<EigerBug> bugs) {
        this.bugs = bugs.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(bugs));
    }

    @Override
    public Protocol protocol() {
        return Protocol.EIGER;
    }

    /** Causal reads and puts only, its partitions' state in memory, one node per partition. */
    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public EigerPartition startPartition(int self, PartitionConfig config, Topology topology, PeerSink peers, TimeSource time,
                                         WriteLog writes) {
        return new EigerPartition(self, config, topology, peers, time, writes, bugs);
    }

    @Override
    public EigerPartition startPartition(int self, PartitionConfig config, Topology topology, PeerSink peers, TimeSource time) {
        return startPartition(self, config, topology, peers, time, WriteLog.NONE);
    }

    @Override
    public EigerSession newSession(Topology topology, long clientId, LongSupplier requestIds) {
        return new EigerSession(topology, clientId, requestIds, bugs);
    }

    @Override
    public Comparator<Object> arbitration() {
        return (a, b) -> Long.compare((Long) a, (Long) b);
    }
}
