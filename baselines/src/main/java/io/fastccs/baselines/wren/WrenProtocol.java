package io.fastccs.baselines.wren;

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
import java.util.EnumSet;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Wren (Spirovska, Didona, Zwaenepoel, DSN 2018), single datacenter, behind the protocol-neutral interfaces: hybrid
 * clocks, a stable snapshot time fixed by a START round, reads that never block, writes acknowledged at commit and
 * installed later, and a write cache that lets a session read its own writes before they are stable.
 *
 * <p>Commit stamps are {@link WrenStamp}s ordered by (commit time, transaction id).
 */
public final class WrenProtocol implements ProtocolFactory {
    private static final Set<Capability> CAPABILITIES = Set.of(Capability.CAUSAL_CONSISTENCY);
    private final Set<WrenBug> bugs;

    public WrenProtocol() {
        this(Set.of());
    }

    /** Wren with deliberately broken behaviour, for tests of tests and of the history checker. */
    public WrenProtocol(Set<WrenBug> bugs) {
        this.bugs = bugs.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(bugs));
    }

    @Override
    public Protocol protocol() {
        return Protocol.WREN;
    }

    /** Causal reads and puts only, its partitions' state in memory, one node per partition. */
    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public PartitionServer startPartition(int self, PartitionConfig config, Topology topology, PeerSink peers, TimeSource time,
                                          WriteLog writes) {
        return new WrenPartition(self, config, topology, peers, time, writes, bugs);
    }

    @Override
    public ProtocolSession newSession(Topology topology, long clientId, LongSupplier requestIds) {
        return new WrenSession(topology, clientId, requestIds, bugs);
    }

    @Override
    public Comparator<Object> arbitration() {
        return (a, b) -> ((WrenStamp) a).compareTo((WrenStamp) b);
    }
}
