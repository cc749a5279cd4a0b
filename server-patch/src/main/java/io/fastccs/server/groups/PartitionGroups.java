package io.fastccs.server.groups;

import java.util.Set;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.messages.RingReply;
import io.fastccs.replication.GroupMember;
import io.fastccs.replication.GroupSpec;
import io.fastccs.replication.NamedThreads;
import io.fastccs.replication.ReplicaApplier;
import io.fastccs.replication.ReplicaServer;
import io.fastccs.replication.ReplicaSettings;
import io.fastccs.replication.ReplicatedLog;
import io.fastccs.server.node.FastCcsNode;
import io.fastccs.server.node.InboundHandler;
import io.fastccs.server.node.MonotonicClock;
import io.fastccs.server.node.PartitionRouter;
import io.fastccs.server.node.RingView;
import io.fastccs.protocol.host.DurablePartitionStore;
import io.fastccs.server.storage.GroupApplier;
import io.fastccs.server.transport.FastCcsServer;
import io.fastccs.server.transport.PeerLinks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Replicated partitions on one node (thesis section 3.8; docs/design/replication-node.md, "Groups in the node"): the
 * node is a member of the replica groups of its own token range and of the ranges before it, runs their logs through
 * one {@link ReplicaServer}, applies every committed entry to its local tables ({@link GroupApplier}), and hosts the
 * FastCCS {@code Partition} of each group it leads, with the partition's crash recovery run on what the log made
 * durable. The FastCCS port routes each connection to the group it names ({@link PartitionRouter}); a group this node
 * does not lead answers NOT_LEADER.
 *
 * <p>Leadership changes are acted on by one control thread: a member that becomes leader starts the group's host once
 * an empty entry of its term has been applied (so everything before it is in the tables); a member that steps down,
 * or whose host lost an append, stops the host at once, and starts it again if it still leads.
 */
public final class PartitionGroups implements PartitionRouter, GroupApplier.Leadership, AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(PartitionGroups.class);
    private static final long RECONCILE_MILLIS = 500;

    /** Opens group {@code group}'s store at its leader, writing through {@code log}. */
    public interface Stores {
        DurablePartitionStore open(int group, ReplicatedLog log, long appliedTimestamp);
    }

    /** Builds the node's parts that serve the groups: the composition root ({@code NodeWiring}) does. */
    public interface NodeParts {
        /** The protocol whose partitions the groups replicate. */
        Protocol protocol();

        /** The FastCCS port, routing each connection through {@code router}; not started yet. */
        FastCcsServer port(PartitionRouter router);

        /** The host of the group {@code ring} is of, at its leader, over {@code store}: not recovered yet. */
        LeaderHost leaderHost(RingView ring, DurablePartitionStore store, ReplicatedLog log);
    }

    /** A group's partition host at its leader, and the peer links it sends through. */
    public record LeaderHost(FastCcsNode node, PeerLinks peers) {
    }

    /** How this node takes part: its rank in the ring, the ids and consensus addresses of every node. */
    public record Membership(RingView nodes, GroupLayout layout, List<String> nodeIds, List<String> raftHosts, int raftPort,
                             LeaderClaims.Gossip leaderGossip) {
        int self() {
            return nodes.self();
        }

        /** Partition {@code partition}'s group as the ring names it, this node under {@code selfMemberId}. */
        GroupSpec group(int partition, String selfMemberId) {
            List<GroupMember> members = new java.util.ArrayList<>();
            for (int node : layout.members(partition))
                members.add(new GroupMember(node == self() ? selfMemberId : nodeIds.get(node), raftHosts.get(node), raftPort,
                        priority(partition, node)));
            return new GroupSpec(partition, members);
        }

        /** The range's own node is the preferred leader. */
        static int priority(int partition, int node) {
            return node == partition ? 2 : 1;
        }
    }

    /** One group this node leads and serves. */
    private record Host(long term, FastCcsNode node, PeerLinks peers) {
    }

    private final Membership membership;
    private final Stores stores;
    private final NodeParts parts;
    private final Map<Integer, GroupApplier> appliers = new LinkedHashMap<>();
    private final AtomicReferenceArray<Host> hosts;
    /** Hosts whose store lost an append: stopped and started again by the control thread. */
    private final AtomicReferenceArray<Boolean> failed;
    private final ScheduledExecutorService control = NamedThreads.scheduled("fastccs-groups");
    /** The ring as this node answers it: every partition at its leader's address. */
    private final GroupRing nodeRing;
    /** How long an append may take before it fails (the groups' request timeout). */
    private final long appendTimeoutMillis;
    private ReplicaServer replicas;
    private FastCcsServer server;
    private volatile boolean closed;

    private PartitionGroups(Membership membership, Stores stores, NodeParts parts, ReplicaSettings replicaSettings) {
        this.membership = membership;
        this.stores = stores;
        this.parts = parts;
        this.hosts = new AtomicReferenceArray<>(membership.nodes().partitions());
        this.failed = new AtomicReferenceArray<>(membership.nodes().partitions());
        this.nodeRing = new GroupRing(membership.nodes(), membership.layout(), membership.self(), this::leaderOf);
        this.appendTimeoutMillis = replicaSettings.requestTimeout().toMillis();
    }

    /**
     * Joins this node's groups, opens the FastCCS port, and from then on serves every group it leads. How it joins is
     * {@link ConsensusStart}'s decision: resuming them from {@code storageDir}, forming them (a new ring), or, its
     * storage lost and Cassandra replacing it at its own address, rejoining each under a new member id in place of
     * the one it had (a configuration change in each group; it catches up from the leader's log or snapshot).
     *
     * @param dataDir Cassandra's first data directory, where the node records that its data is a group member's, and
     *                how far each group's applied entries are flushed
     * @param flushEveryEntries how often (in applied entries) each group's tables are flushed and that recorded
     * @param parts   builds the port and each group's host when this member takes the group over
     * @throws IllegalStateException when the node must not start its groups (its storage lost, not a replacement)
     */
    public static PartitionGroups start(Membership membership, Path storageDir, ReplicaSettings replicaSettings,
                                        Stores stores, NodeParts parts,
                                        ConsensusStart.NodeFacts facts, Path dataDir, long flushEveryEntries)
            throws IOException, InterruptedException {
        StartPlanner.Plan plan = StartPlanner.plan(membership, storageDir, dataDir, replicaSettings, facts,
                replicaSettings.requestTimeout().multipliedBy(6));
        ConsensusStart how = plan.start();
        PartitionGroups groups = new PartitionGroups(membership, stores, parts, replicaSettings);
        String selfId = how.memberId();
        Map<GroupSpec, ReplicaApplier> joined = new LinkedHashMap<>();
        for (int partition : membership.layout().groupsOf(membership.self())) {
            GroupApplier applier = new GroupApplier(partition, selfId, groups, dataDir, flushEveryEntries);
            groups.appliers.put(partition, applier);
            GroupSpec spec = how.mode() == ConsensusStart.Mode.REPLACE ? plan.groups().get(partition) : membership.group(partition, selfId);
            joined.put(spec, applier);
        }
        GroupMember self = new GroupMember(selfId, membership.raftHosts().get(membership.self()), membership.raftPort(), 0);
        // Recorded before the server runs: a storage holding groups is this id's, and this node's data a member's.
        MemberIdFile.write(storageDir, selfId);
        MemberIdFile.write(dataDir, selfId);
        logger.info("FastCCS consensus start: {} as member {}{}", how.mode(), selfId,
                how.mode() != ConsensusStart.Mode.REPLACE ? ""
                        : (how.replacedId() == null ? " (no group names a member here any more) added to groups "
                        : " in place of " + how.replacedId() + " in groups ") + joined.keySet().stream().map(GroupSpec::range).toList());
        groups.replicas = how.mode() == ConsensusStart.Mode.REPLACE
                ? ReplicaServer.startReplacing(self, how.replacedId(), storageDir, replicaSettings, joined)
                : ReplicaServer.start(self, storageDir, replicaSettings, joined);
        // The port opens once every group has a leader somewhere, so the first requests find one (a bounded wait: with
        // a majority of a group down there is none, and the node serves its other groups meanwhile).
        groups.awaitLeaders(replicaSettings.electionTimeoutMax().multipliedBy(10));
        groups.server = parts.port(groups);
        try {
            groups.server.start();
        } catch (InterruptedException | RuntimeException e) {
            groups.close();
            throw e;
        }
        groups.control.scheduleWithFixedDelay(groups::reconcileAll, RECONCILE_MILLIS, RECONCILE_MILLIS, TimeUnit.MILLISECONDS);
        logger.info("FastCCS node {} is a member of groups {} (replication factor {})", membership.self(),
                groups.appliers.keySet(), membership.layout().replicationFactor());
        return groups;
    }

    /** Waits until every group of this node knows a leader, or {@code timeout}; says which have none then. */
    private void awaitLeaders(java.time.Duration timeout) throws InterruptedException {
        long deadline = MonotonicClock.nanoTime() + timeout.toNanos();
        while (true) {
            List<Integer> leaderless = new java.util.ArrayList<>();
            for (int group : appliers.keySet()) if (replicas.log(group).leaderId().isEmpty()) leaderless.add(group);
            if (leaderless.isEmpty()) return;
            if (MonotonicClock.nanoTime() - deadline > 0) {
                logger.warn("FastCCS: groups {} have no leader after {}; serving the others (is a majority of their members down?)",
                        leaderless, timeout);
                return;
            }
            Thread.sleep(50);
        }
    }

    // ------------------------------------------------------------------------------------------------ leadership

    @Override
    public void onLeaderReady(int group, long term) {
        submit(() -> reconcile(group));
    }

    @Override
    public void onSteppedDown(int group, long term) {
        Host h = hosts.getAndSet(group, null); // stop routing to it at once; close it off this (apply) thread
        if (h != null) submit(() -> stop(group, h, "stepped down in term " + term));
    }

    private void submit(Runnable work) {
        if (closed) return;
        try {
            control.execute(work);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closing
        }
    }

    private void reconcileAll() {
        for (int group : appliers.keySet()) {
            try {
                reconcile(group);
            } catch (RuntimeException e) {
                logger.warn("FastCCS group {}: could not reconcile its host", group, e);
            }
        }
    }

    /** Control thread: makes "a host runs here" match "this member leads, and its host has not failed". */
    private void reconcile(int group) {
        if (closed) return;
        ReplicatedLog log = replicas.log(group);
        boolean leads = log.isLeaderReady();
        Host h = hosts.get(group);
        if (h != null && (!leads || h.term() != log.term() || Boolean.TRUE.equals(failed.get(group)))) {
            hosts.compareAndSet(group, h, null);
            stop(group, h, !leads ? "no longer leads" : h.term() != log.term() ? "term changed" : "an append failed");
            h = null;
        }
        if (leads && h == null) startHost(group, log);
    }

    private void startHost(int group, ReplicatedLog log) {
        long term = log.term();
        try {
            // Everything appended before (by an earlier host in this term too) is applied once this entry is.
            log.append(new byte[0]).get(appendTimeoutMillis, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            logger.info("FastCCS group {}: not starting its host in term {}: {}", group, term, e.toString());
            return;
        }
        if (log.term() != term || !log.isLeaderReady()) return;
        failed.set(group, false);
        DurablePartitionStore store = stores.open(group, log, appliers.get(group).appliedTimestamp());
        GroupRing ring = new GroupRing(membership.nodes(), membership.layout(), group, this::leaderOf);
        LeaderHost built = parts.leaderHost(ring, store, log);
        PeerLinks peers = built.peers();
        FastCcsNode node = built.node();
        node.onStopServing(() -> {
            failed.set(group, true);
            submit(() -> reconcile(group));
        });
        try {
            node.recover();
        } catch (InterruptedException | RuntimeException e) {
            logger.warn("FastCCS group {}: recovery failed in term {}", group, term, e);
            peers.close();
            node.close();
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            return;
        }
        node.startTicking();
        hosts.set(group, new Host(term, node, peers));
        publishClaims();
        logger.info("FastCCS group {}: serving as leader in term {}", group, term);
    }

    private void stop(int group, Host h, String why) {
        logger.info("FastCCS group {}: stopping its host ({})", group, why);
        h.peers().close();
        h.node().close();
        publishClaims();
    }

    /** Tells every node, through gossip, which groups this node serves as leader and in which term. */
    private void publishClaims() {
        Map<Integer, Long> claims = new java.util.TreeMap<>();
        for (int g = 0; g < hosts.length(); g++) {
            Host h = hosts.get(g);
            if (h != null) claims.put(g, h.term());
        }
        try {
            membership.leaderGossip().publish(claims);
        } catch (RuntimeException e) {
            logger.warn("FastCCS: could not publish the groups this node leads", e);
        }
    }

    /**
     * The node (by token rank) leading {@code partition}'s group as far as this node knows. A node that is not a member
     * (with more nodes than replicas), or a member during an election, goes by the leaders' claims in gossip (the
     * highest term among live nodes); with none, it names the first member that Cassandra's failure detector holds
     * alive, the preferred one first. That member leads, or answers NOT_LEADER naming
     * the leader, which clients and peer links follow. Naming the preferred member while it was down sent every client
     * and peer link of a 5-node cluster back to the dead node and stopped writes on its partitions for the whole outage.
     */
    int leaderOf(int partition) {
        if (hosts.get(partition) != null) return membership.self();
        GroupApplier mine = appliers.get(partition);
        if (mine != null) {
            Optional<String> leader = replicas.log(partition).leaderId();
            if (leader.isPresent()) {
                int node = membership.nodeIds().indexOf(MemberIds.hostIdOf(leader.get()));
                if (node >= 0) return node;
            }
        }
        int claimed = membership.leaderGossip().leaderOf(partition);
        if (claimed >= 0) return claimed;
        List<io.fastccs.core.messages.RingMember> ring = membership.nodes().members();
        for (int node : membership.layout().members(partition)) // the preferred member first
            if (node == membership.self() || ring.get(node).alive()) return node;
        return partition;
    }

    // ---------------------------------------------------------------------------------------------- the port's router

    @Override
    public Set<Protocol> protocols() {
        return Set.of(parts.protocol());
    }

    @Override
    public InboundHandler serving(Protocol protocol, int partition) {
        return protocol == parts.protocol() ? host(partition) : null;
    }

    @Override
    public int ownPartition() {
        return membership.self();
    }

    @Override
    public int partitions() {
        return membership.nodes().partitions();
    }

    @Override
    public boolean mayActAs(InetAddress address, int partition) {
        return nodeRing.mayActAs(address, partition);
    }

    @Override
    public RingReply ring(long requestId) {
        return new RingReply(requestId, nodeRing.members());
    }

    @Override
    public int leaderHint(int partition) {
        int node = leaderOf(partition);
        return node == membership.self() && hosts.get(partition) == null ? -1 : node;
    }

    // ------------------------------------------------------------------------------------------------- monitoring

    /** The groups this node serves as leader now, its host started. */
    public List<Integer> leading() {
        List<Integer> out = new java.util.ArrayList<>();
        for (int group : appliers.keySet()) if (hosts.get(group) != null) out.add(group);
        return out;
    }

    /**
     * The groups whose preferred member this node is that it does not serve as leader now: while any node has one, a
     * group's leadership has still to come back to its preferred member, and writes meanwhile may be aborted by the move
     * (the local cluster tool's start waits for none).
     */
    public List<Integer> preferredNotLeading() {
        List<Integer> out = new java.util.ArrayList<>();
        for (int group : appliers.keySet())
            if (membership.layout().members(group).get(0) == membership.self() && hosts.get(group) == null) out.add(group);
        return out;
    }

    /** The host of a group this node leads now, or null. */
    public FastCcsNode host(int group) {
        Host h = group < 0 || group >= hosts.length() ? null : hosts.get(group);
        return h == null ? null : h.node();
    }

    public InetSocketAddress address() {
        return server.address();
    }

    public Membership membership() {
        return membership;
    }

    @Override
    public void close() {
        closed = true;
        control.shutdownNow();
        if (server != null) server.close();
        for (int g = 0; g < hosts.length(); g++) {
            Host h = hosts.getAndSet(g, null);
            if (h != null) stop(g, h, "node stopping");
        }
        try {
            if (replicas != null) replicas.close();
        } catch (IOException e) {
            logger.warn("FastCCS: closing the consensus server failed", e);
        }
    }
}
