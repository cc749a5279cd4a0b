package io.fastccs.baselines.eventual;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.api.PeerSink;
import io.fastccs.core.api.TimeSource;
import io.fastccs.core.api.Topology;
import io.fastccs.core.api.WriteLog;
import io.fastccs.core.spi.PartitionServer;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.spi.Capability;
import io.fastccs.core.spi.ProtocolFactory;
import io.fastccs.core.spi.ProtocolSession;

import java.util.Comparator;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Eventual consistency on the same host as FastCCS: the thesis's baseline, so that FastCCS against it is the cost of
 * TCC alone. One round per read, newest value, writes applied at once, last writer wins; no causal metadata.
 */
public final class EventualProtocol implements ProtocolFactory {
    private static final Set<Capability> CAPABILITIES = Set.of();

    @Override
    public Protocol protocol() {
        return Protocol.EVENTUAL;
    }

    /** Reads and puts only, no consistency across keys, its partitions' state in memory, one node per partition. */
    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public PartitionServer startPartition(int self, PartitionConfig config, Topology topology, PeerSink peers, TimeSource time,
                                          WriteLog writes) {
        return new EventualPartition(self, config, topology, writes);
    }

    @Override
    public ProtocolSession newSession(Topology topology, long clientId, LongSupplier requestIds) {
        return new EventualSession(topology, clientId, requestIds);
    }

    @Override
    public Comparator<Object> arbitration() {
        return (a, b) -> ((EventualStamp) a).compareTo((EventualStamp) b);
    }
}
