package io.fastccs.server.groups;

import io.fastccs.replication.GroupMember;
import io.fastccs.replication.GroupSpec;
import io.fastccs.replication.ReplicaServer;
import io.fastccs.replication.ReplicaSettings;
import io.fastccs.server.node.MonotonicClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Gathers what {@link ConsensusStart#decide} weighs, and the groups as a replacement must name them: the consensus
 * storage's state, the member id files, and, when the storage is empty, what the other members of each group say.
 */
final class StartPlanner {
    private static final Logger logger = LoggerFactory.getLogger(StartPlanner.class);
    private static final long ASK_AGAIN_MILLIS = 1_000;

    /** The decision, and with {@link ConsensusStart.Mode#REPLACE} each group as it is to be (this node in place of the old member). */
    record Plan(ConsensusStart start, Map<Integer, GroupSpec> groups) {
    }

    private StartPlanner() {
    }

    /**
     * @param dataDir  Cassandra's first data directory (where the node's own member id file says its data was a member's)
     * @param askFor   how long a replacement waits for every group to answer (the others may still be electing)
     */
    static Plan plan(PartitionGroups.Membership membership, Path storageDir, Path dataDir, ReplicaSettings settings,
                     ConsensusStart.NodeFacts facts, Duration askFor) throws IOException, InterruptedException {
        boolean holdsGroups = holdsGroups(storageDir);
        Optional<String> storedId = MemberIdFile.read(storageDir);
        ConsensusStart.NodeFacts node = facts;
        Optional<String> dataDirId = MemberIdFile.read(dataDir);
        if (node.memberBefore() == null && dataDirId.isPresent())
            node = new ConsensusStart.NodeFacts(facts.hostId(), facts.replacingItself(), facts.replacedAddress(),
                    dataDir.resolve(MemberIdFile.NAME) + " names it member " + dataDirId.get());
        List<Integer> mine = membership.layout().groupsOf(membership.self());
        Map<Integer, GroupSpec> current = new LinkedHashMap<>();
        Map<Integer, Optional<String>> idAtOwnAddress = new LinkedHashMap<>();
        if (!holdsGroups) {
            long deadline = MonotonicClock.nanoTime() + askFor.toNanos();
            while (true) {
                for (int group : mine) {
                    if (current.containsKey(group)) continue;
                    ReplicaServer.currentMembers(othersOf(membership, group), settings).ifPresent(spec -> {
                        current.put(group, spec);
                        idAtOwnAddress.put(group, memberAt(spec, ownHost(membership), membership.raftPort()).map(GroupMember::nodeId));
                    });
                }
                if (!node.replacingItself() || current.size() == mine.size() || MonotonicClock.nanoTime() - deadline > 0) break;
                logger.info("FastCCS replacement: groups {} have not answered yet; asking again", missing(mine, current));
                Thread.sleep(ASK_AGAIN_MILLIS);
            }
            logger.info("FastCCS: the consensus storage {} is empty; the groups name this node's address {}", storageDir, idAtOwnAddress);
        }
        ConsensusStart start = ConsensusStart.decide(node, new ConsensusStart.GroupFacts(holdsGroups, storedId, idAtOwnAddress, mine),
                storageDir.toString(), ownHost(membership));
        if (start.mode() != ConsensusStart.Mode.REPLACE) return new Plan(start, Map.of());
        Map<Integer, GroupSpec> replaced = new LinkedHashMap<>();
        for (int group : mine) {
            GroupMember fresh = new GroupMember(start.memberId(), ownHost(membership), membership.raftPort(),
                    PartitionGroups.Membership.priority(group, membership.self()));
            List<GroupMember> members = new ArrayList<>();
            for (GroupMember m : current.get(group).members())
                if (!m.nodeId().equals(start.replacedId())) members.add(m);
            // In place of the old member, or added where an earlier replacement dropped it already.
            members.add(fresh);
            replaced.put(group, new GroupSpec(group, members));
        }
        return new Plan(start, replaced);
    }

    /** Whether Ratis's storage under {@code storageDir} holds any group (see RatisProperties: {@code groups/}). */
    static boolean holdsGroups(Path storageDir) throws IOException {
        Path groups = storageDir.resolve("groups");
        if (!Files.isDirectory(groups)) return false;
        try (var entries = Files.list(groups)) {
            return entries.findAny().isPresent();
        }
    }

    private static String ownHost(PartitionGroups.Membership membership) {
        return membership.raftHosts().get(membership.self());
    }

    /** The group's members other than this node, to ask (this node's server is not up yet). */
    private static GroupSpec othersOf(PartitionGroups.Membership membership, int group) {
        GroupSpec assumed = membership.group(group, MemberIds.first(membership.nodeIds().get(membership.self())));
        String ownHost = ownHost(membership);
        return new GroupSpec(group, assumed.members().stream().filter(m -> !m.host().equals(ownHost)).toList());
    }

    private static Optional<GroupMember> memberAt(GroupSpec spec, String host, int port) {
        return spec.members().stream().filter(m -> m.host().equals(host) && m.port() == port).findFirst();
    }

    private static List<Integer> missing(List<Integer> mine, Map<Integer, GroupSpec> answered) {
        return mine.stream().filter(g -> !answered.containsKey(g)).toList();
    }
}
