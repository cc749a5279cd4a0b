package io.fastccs.protocol.eventual;

import io.fastccs.protocol.PartitionConfig;
import io.fastccs.protocol.api.PeerSink;
import io.fastccs.protocol.api.TimeSource;
import io.fastccs.protocol.api.Topology;
import io.fastccs.protocol.api.WriteLog;
import io.fastccs.protocol.spi.PartitionServer;
import io.fastccs.protocol.primitives.Protocol;
import io.fastccs.protocol.spi.Capability;
import io.fastccs.protocol.spi.ProtocolFactory;
import io.fastccs.protocol.spi.ProtocolSession;

import java.util.Comparator;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Eventual consistency on the same host as FastCCS: the thesis's baseline, so that FastCCS against it is the cost of
 * TCC alone. One round per read, newest value, writes applied at once, last writer wins; no causal metadata.
 */
public final class EventualProtocol implements ProtocolFactory {
    @Override
    public Protocol protocol() {
        return Protocol.EVENTUAL;
    }

    /** Reads and puts only, no consistency across keys, its partitions' state in memory, one node per partition. */
    @Override
    public Set<Capability> capabilities() {
        return Set.of();
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
