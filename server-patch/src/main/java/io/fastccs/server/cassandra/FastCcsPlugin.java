package io.fastccs.server.cassandra;

import io.fastccs.core.spi.Protocols;
import io.fastccs.core.spi.Capability;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.replication.LinkFaults;
import io.fastccs.replication.ReplicaSettings;
import io.fastccs.server.groups.ConsensusStart;
import io.fastccs.server.groups.GroupLayout;
import io.fastccs.server.groups.PartitionGroups;
import io.fastccs.server.node.MonotonicClock;
import io.fastccs.server.storage.CassandraPartitionStore;
import io.fastccs.server.storage.GroupApplier;
import java.nio.file.Path;
import java.util.ArrayList;

import io.fastccs.core.primitives.Key;
import io.fastccs.server.health.PluginHealth;
import io.fastccs.server.config.FastCcsSettings;
import io.fastccs.server.node.FastCcsNode;
import io.fastccs.server.node.NodeClock;
import io.fastccs.server.node.NodeSettings;
import io.fastccs.protocol.host.DurablePartitionStore;
import io.fastccs.server.storage.ComparedWriteStore;
import io.fastccs.server.wiring.NodeWiring;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.locator.InetAddressAndPort;
import org.apache.cassandra.service.StorageService;
import org.apache.cassandra.utils.FBUtilities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Starts FastCCS inside a running Cassandra node: waits for the ring, checks that our key ownership is Cassandra's,
 * opens the store in Cassandra's storage engine, and serves the FastCCS port. The only class that wires Cassandra's
 * singletons to the host-independent node, built by {@link NodeWiring}.
 */
public final class FastCcsPlugin {
    private static final Logger logger = LoggerFactory.getLogger(FastCcsPlugin.class);
    private static volatile NodeWiring wiring;

    private FastCcsPlugin() {
    }

    /** Called by the agent once the node is in NORMAL mode. */
    public static synchronized void start() throws Exception {
        if (wiring != null) return;
        long started = MonotonicClock.nanoTime();
        FastCcsSettings settings = FastCcsSettings.load();
        logger.info("FastCCS starting with settings: {}", settings);
        NodeClock clock = new NodeClock(FBUtilities::timestampMicros, settings.testClockOffsetMicros());
        if (settings.testClockControl()) TestClockControl.register(clock);
        PluginHealth.get().starting("waiting for the ring to settle");
        CassandraRing.advertisePort(settings.port());
        CassandraRing ring = CassandraRing.awaitComplete(settings);
        if (settings.replicationFactor() > 1) {
            startReplicated(settings, ring, clock, started);
            return;
        }
        // A protocol that recovers from a store gets one in Cassandra's storage engine; the others keep their versions
        // in memory (and write what they accept through the commit log, as the store does).
        List<Protocol> inMemory = settings.protocols().stream()
                .filter(p -> !Protocols.factory(p).has(Capability.CRASH_RECOVERY)).toList();
        boolean durable = inMemory.size() < settings.protocols().size();
        DurablePartitionStore store = durable ? CassandraStores.open(ring, settings, clock) : null;
        if (durable) checkOwnership(ring, settings.keyspace());
        NodeSettings nodeSettings = new NodeSettings(DatabaseDescriptor.getRpcAddress(), settings.port(),
                settings.maxFrameSize().toBytes(), settings.partitionConfig());
        CassandraSecurity security = new CassandraSecurity(settings.keyspace());
        logger.info("FastCCS port security follows cassandra.yaml: {}", security);
        NodeWiring w = NodeWiring.start(nodeSettings, settings.protocols(), ring, store,
                protocol -> ComparedWriteStore.open(protocol, ring.self()), clock, security);
        wiring = w;
        try {
            if (store instanceof io.fastccs.server.storage.CassandraPartitionStore cps) FastCcsMetrics.register(w.node(), cps);
            FastCcsTraffic.register(w.server().traffic());
            FastCcsMutations.register();
        } catch (Exception e) {
            logger.warn("FastCCS serves, but its JMX metrics could not be registered", e);
        }
        StorageService.instance.addPreShutdownHook(FastCcsPlugin::stop);
        String compared = inMemory.stream().map(Protocol::word).collect(java.util.stream.Collectors.joining(", "));
        PluginHealth.get().serving("partition " + ring.self() + " of " + ring.partitions() + " on port " + settings.port()
                + (compared.isEmpty() ? "" : (durable ? ", also " : ", only ") + compared + " (versions in memory)"));
        logger.info("FastCCS partition {} of {} ready in {} ms", ring.self(), ring.partitions(),
                (MonotonicClock.nanoTime() - started) / 1_000_000);
    }

    /**
     * Replicated partitions: this node joins the groups of its token range and of the {@code replication_factor - 1}
     * ranges before it, and serves those it leads (docs/design/replication-node.md, "Groups in the node").
     */
    private static void startReplicated(FastCcsSettings settings, CassandraRing ring, NodeClock clock, long started) throws Exception {
        GroupLayout layout = new GroupLayout(ring.partitions(), settings.replicationFactor());
        List<String> nodeIds = new ArrayList<>(), raftHosts = new ArrayList<>();
        for (int node = 0; node < ring.partitions(); node++) {
            InetAddressAndPort ep = ring.endpoint(node);
            java.util.UUID hostId = StorageService.instance.getHostIdForEndpoint(ep);
            if (hostId == null) throw new IllegalStateException("no Cassandra host id known for " + ep + " yet");
            nodeIds.add(hostId.toString());
            raftHosts.add(ep.getAddress().getHostAddress());
        }
        Path storage = settings.raftDirectory() != null ? Path.of(settings.raftDirectory())
                : Path.of(DatabaseDescriptor.getAllDataFileLocations()[0]).toAbsolutePath().getParent().resolve("fastccs-raft");
        // The settings admit one protocol here, one with replicated partitions.
        NodeSettings nodeSettings = new NodeSettings(DatabaseDescriptor.getRpcAddress(), settings.port(),
                settings.maxFrameSize().toBytes(), settings.partitionConfig(), settings.protocols().iterator().next());
        CassandraSecurity security = new CassandraSecurity(settings.keyspace());
        ReplicaSettings.Tls consensusTls = CassandraConsensusTls.of(DatabaseDescriptor.getInternodeMessagingEncyptionOptions());
        logger.info("FastCCS consensus port {}: {}", settings.raftPort(), consensusTls == null
                ? "plaintext (internode_encryption: none)" : "mutual TLS with the internode keystore and truststore");
        GroupApplier.prepare();
        Path dataDir = Path.of(DatabaseDescriptor.getAllDataFileLocations()[0]).toAbsolutePath();
        ConsensusStart.NodeFacts facts = replacementFacts(nodeIds.get(ring.self()));
        LinkFaults linkFaults = settings.testRaftCutOffControl() ? TestRaftCutOff.register(settings.testRaftCutOff())
                : LinkFaults.none();
        PartitionGroups.Stores stores = (group, log, appliedTimestamp) -> CassandraPartitionStore.openReplicated(
                CassandraPartitionStore.Settings.of(group, ring.partitions(), settings.versionCacheKeys())
                        .withLoaderThreads(settings.cacheLoaderThreads()).withClock(clock), log, appliedTimestamp);
        wiring = NodeWiring.startGroups(nodeSettings, parts -> PartitionGroups.start(
                new PartitionGroups.Membership(ring, layout, nodeIds, raftHosts, settings.raftPort(), ring.leaderGossip()),
                storage, ReplicaSettings.DEFAULT.withTls(consensusTls).withSnapshotEvery(settings.raftSnapshotInterval())
                        .withLinkFaults(linkFaults),
                stores, parts, facts, dataDir, settings.raftFlushInterval()), clock, security);
        try {
            FastCcsMutations.register();
            FastCcsGroups.register(wiring.groups());
        } catch (Exception e) {
            logger.warn("FastCCS serves, but its JMX metrics could not be registered", e);
        }
        StorageService.instance.addPreShutdownHook(FastCcsPlugin::stop);
        PluginHealth.get().serving("node " + ring.self() + " of " + ring.partitions() + ", member of groups "
                + layout.groupsOf(ring.self()) + " (replication factor " + layout.replicationFactor() + "), port " + settings.port()
                + ", consensus port " + settings.raftPort() + (consensusTls == null ? "" : " (mutual TLS)"));
        logger.info("FastCCS node {} of {} ready in {} ms (replicated partitions, consensus storage {})", ring.self(),
                ring.partitions(), (MonotonicClock.nanoTime() - started) / 1_000_000, storage);
    }

    /**
     * What Cassandra says about this start that decides how the node joins its groups: whether this boot replaced a
     * node (replace_address_first_boot; StorageService keeps saying so for the life of the process), at this node's own
     * address (then Cassandra kept its host id: StorageService.prepareForReplacement), and whether the node's local
     * tables show it ran FastCCS before.
     */
    private static ConsensusStart.NodeFacts replacementFacts(String hostId) {
        boolean replacing = StorageService.instance.isReplacing();
        boolean itself = replacing && StorageService.isReplacingSameAddress();
        String other = replacing && !itself ? String.valueOf(DatabaseDescriptor.getReplaceAddress()) : null;
        String before = GroupApplier.localTablesHoldRecords() ? "its local tables hold FastCCS records" : null;
        if (replacing) logger.info("FastCCS: this boot replaced {} (host id {})", DatabaseDescriptor.getReplaceAddress(), hostId);
        return new ConsensusStart.NodeFacts(hostId, itself, other, before);
    }

    /** The running node, or null before start; for monitoring. */
    public static FastCcsNode node() {
        NodeWiring w = wiring;
        return w == null ? null : w.node();
    }

    static synchronized void stop() {
        NodeWiring n = wiring;
        wiring = null;
        if (n != null) {
            logger.info("FastCCS stopping{}", n.groups() != null ? " (replicated partitions)" : "");
            n.close();
        }
    }

    /**
     * Our routing (Murmur3 token, ring by token rank) must agree with Cassandra's placement of the versions table's
     * partitions, or a node would store keys Cassandra thinks belong elsewhere.
     */
    private static void checkOwnership(CassandraRing ring, String keyspace) {
        for (int i = 0; i < 64; i++) {
            Key key = Key.of("fastccs-ownership-check-" + i);
            int ours = ring.topology().ownerOf(key);
            List<InetAddressAndPort> replicas = StorageService.instance
                    .getNaturalReplicasForToken(keyspace, ByteBuffer.wrap(key.unsafeBytes())).endpointList();
            if (replicas.size() != 1)
                throw new IllegalStateException("keyspace " + keyspace + " must have replication factor 1, has " + replicas.size());
            if (!ring.endpoint(ours).equals(replicas.get(0)))
                throw new IllegalStateException("FastCCS routes key " + key + " to partition " + ours + " (" + ring.endpoint(ours)
                        + ") but Cassandra places it on " + replicas.get(0));
        }
    }
}
