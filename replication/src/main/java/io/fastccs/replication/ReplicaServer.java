package io.fastccs.replication;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The consensus side of one node: one server, one port, hosting every group the node is a member of (RF groups when
 * each range is replicated RF times). Groups found in {@code storageDir} from an earlier run resume from there.
 */
public interface ReplicaServer extends AutoCloseable {
    /**
     * Starts the server and joins {@code groups}, each with the applier of its host.
     *
     * @param self       this node as the groups list it (its host and port are where the server listens)
     * @param storageDir this node's consensus storage (logs, snapshots); under the node's data directory, never /tmp
     */
    static ReplicaServer start(GroupMember self, Path storageDir, ReplicaSettings settings,
                               Map<GroupSpec, ReplicaApplier> groups) throws IOException {
        return ReplicaServerFactory.load().start(self, storageDir, settings, groups);
    }

    /**
     * Starts a node whose consensus storage was lost (a wiped or replaced disk) as a <em>new</em> member of
     * {@code groups}: under a new node id, never the one it had, since under that id it could vote with a term and a
     * log it has forgotten. In two configuration changes, each a compare-and-set on the member ids: every group first
     * drops {@code replaced} (the old id), before this server listens at the address the old member had (Ratis routes
     * requests to a server by group only, so a leader still sending to the old id would reach the new member); then the
     * server starts, and each group adds {@code self}, catching it up from the leader's log or a snapshot first.
     * Between the two a group has one member fewer, and needs all of the members it kept
     * (docs/design/replication-replacement.md, "Between the two steps a group of three has two members, and a majority
     * of two is both").
     *
     * @param replaced the old id, or null when the groups name no member at this address any more (an earlier
     *                 replacement dropped it and stopped before adding its own): then each group only adds {@code self}
     * @param groups   each group as it is to be, with {@code self} in place of the member it replaces
     * @throws IOException if {@code storageDir} holds consensus storage (that is a restart, not a replacement) or a
     *                     group refuses the change
     */
    static ReplicaServer startReplacing(GroupMember self, String replaced, Path storageDir, ReplicaSettings settings,
                                        Map<GroupSpec, ReplicaApplier> groups) throws IOException {
        return ReplicaServerFactory.load().startReplacing(self, replaced, storageDir, settings, groups);
    }

    /**
     * Group {@code assumed.range()}'s members as its live members report them now: the configuration they hold, which
     * differs from {@code assumed} once a member was replaced. Each member {@code assumed} names is asked at its address
     * (whatever its id now); the leader's answer is preferred, since a lagging follower may hold an older one.
     *
     * @return empty when no member answers for the group (all down, or the group was never formed)
     */
    static Optional<GroupSpec> currentMembers(GroupSpec assumed, ReplicaSettings settings) {
        return ReplicaServerFactory.load().currentMembers(assumed, settings);
    }

    /**
     * Hosts one more group on this running node (a range it has become a replica of, when the group is formed after
     * the node started) and returns this node's log of it. A group whose storage the node already holds is named at
     * {@link #start} instead: the server resumes it from storage as it starts, and needs its applier then.
     *
     * @throws IllegalArgumentException if this node is not a member of {@code group} or already hosts it
     * @throws IOException              if the server could not create the group
     */
    ReplicatedLog join(GroupSpec group, ReplicaApplier applier) throws IOException;

    /** This node's log of group {@code range}; throws if the node is not a member. */
    ReplicatedLog log(int range);

    @Override
    void close() throws IOException;
}
