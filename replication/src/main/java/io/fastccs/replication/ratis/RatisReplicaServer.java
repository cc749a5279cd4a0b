package io.fastccs.replication.ratis;

import io.fastccs.replication.GroupMember;
import io.fastccs.replication.GroupSpec;
import io.fastccs.replication.ReplicaApplier;
import io.fastccs.replication.ReplicaServer;
import io.fastccs.replication.ReplicaSettings;
import io.fastccs.replication.ReplicatedLog;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupInfoReply;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.statemachine.StateMachine;
import org.apache.ratis.util.ProtoUtils;
import org.apache.ratis.util.TimeDuration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/** {@link ReplicaServer} on one Ratis server with gRPC, hosting a group per replicated range. */
public final class RatisReplicaServer implements ReplicaServer {
    /** How often a replacement asks again for a group's leader to take its configuration change. */
    private static final long REPLACE_RETRY_MILLIS = 500;

    private final RaftServer server;
    private final GroupMember self;
    /** What the server's state machine registry hands out: Ratis asks for a group's machine when it creates it. */
    private final Map<RaftGroupId, ApplierStateMachine> machines;
    private final Map<Integer, RatisReplicatedLog> logs = new ConcurrentHashMap<>();
    private final PeerReconnects reconnects;
    private final LeadershipReturn leadershipReturn;
    /** How long a write waits out a leadership transfer: longer than any transfer asks for (they time out first). */
    private final long steppingDownPatienceMillis;

    private RatisReplicaServer(RaftServer server, GroupMember self, Map<RaftGroupId, ApplierStateMachine> machines,
                               ReplicaSettings settings) {
        this.server = server;
        this.self = self;
        this.machines = machines;
        // Often enough that a channel is connected again before the next election round (a fraction of its timeout).
        this.reconnects = new PeerReconnects(server, Math.max(50, settings.electionTimeoutMin().toMillis() / 4));
        this.leadershipReturn = new LeadershipReturn(server, settings, this::name);
        this.steppingDownPatienceMillis = settings.electionTimeoutMax().toMillis();
    }

    public static RatisReplicaServer start(GroupMember self, Path storageDir, ReplicaSettings settings,
                                           Map<GroupSpec, ReplicaApplier> groups) throws IOException {
        return start(self, storageDir, settings, groups, false, null);
    }

    public static RatisReplicaServer startReplacing(GroupMember self, String replaced, Path storageDir, ReplicaSettings settings,
                                                    Map<GroupSpec, ReplicaApplier> groups) throws IOException {
        if (self.nodeId().equals(replaced))
            throw new IllegalArgumentException("a replacement needs a new node id, not the replaced member's " + replaced);
        Path groupsDir = storageDir.resolve("groups");
        if (Files.isDirectory(groupsDir)) {
            try (var entries = Files.list(groupsDir)) {
                if (entries.findAny().isPresent())
                    throw new IOException(storageDir + " holds consensus storage: this is a restart of a member, not a "
                            + "replacement (start it normally, under its own id)");
            }
        }
        return start(self, storageDir, settings, groups, true, replaced);
    }

    /** @param replaced with {@code replacing}, the old member's id, or null if no group names one at this address any more */
    private static RatisReplicaServer start(GroupMember self, Path storageDir, ReplicaSettings settings,
                                            Map<GroupSpec, ReplicaApplier> groups, boolean replacing, String replaced) throws IOException {
        if (settings.tls() != null) settings.tls().requireCertificateNaming(self.host());
        Files.createDirectories(storageDir);
        // Every group is registered before the server starts: Ratis resumes the groups it finds in storage at once.
        Map<RaftGroupId, ApplierStateMachine> machines = new ConcurrentHashMap<>();
        for (var e : groups.entrySet()) {
            requireMember(self, e.getKey());
            machines.put(groupId(e.getKey()), new ApplierStateMachine(e.getValue()));
        }
        // A replacement, step one: every group drops the old member before this server listens at its address. Ratis
        // routes a request to a server by group only, so a leader's log appender still sending to the old id would
        // reach this server and be taken as addressed to it (docs/design/replication-replacement.md, "The change, in
        // two steps").
        if (replacing)
            for (GroupSpec spec : groups.keySet()) removeReplaced(spec, self, replaced, settings);
        AtomicReference<RaftServer> built = new AtomicReference<>();
        RaftServer server = RaftServer.newBuilder()
                .setServerId(RaftPeerId.valueOf(self.nodeId()))
                .setProperties(RatisProperties.of(self, storageDir, settings))
                .setParameters(RatisProperties.serverParameters(settings, built::get))
                .setStateMachineRegistry(gid -> {
                    StateMachine m = machines.get(gid);
                    if (m == null) throw new IllegalStateException("node " + self.nodeId() + " holds " + gid
                            + " in its storage but was started without it: name every group it is a member of at start");
                    return m;
                })
                .build();
        built.set(server);
        RatisReplicaServer replicas = new RatisReplicaServer(server, self, machines, settings);
        try {
            server.start();
            Set<RaftGroupId> resumed = new HashSet<>();
            server.getGroupIds().forEach(resumed::add);
            for (GroupSpec spec : groups.keySet()) {
                RaftGroupId gid = groupId(spec);
                // A replacement hosts each group with the members it has now, itself not among them: a member outside
                // its configuration waits for the leader and never stands for election (which the leader would answer
                // by telling it to shut down, as a removed member); the leader's first snapshot or entries bring it in.
                if (replacing) replicas.add(raftGroup(without(spec, self.nodeId())));
                else if (!resumed.contains(gid)) replicas.add(raftGroup(spec));
                replicas.logs.put(spec.range(), new RatisReplicatedLog(server, spec, gid, replicas.steppingDownPatienceMillis));
            }
            // Step two: each group adds this member, catching it up first (the leader's snapshot and log).
            if (replacing)
                for (GroupSpec spec : groups.keySet()) replicas.addReplacement(spec, self, replaced, settings);
        } catch (IOException | RuntimeException e) {
            replicas.close();
            throw e;
        }
        return replicas;
    }

    @Override
    public synchronized ReplicatedLog join(GroupSpec spec, ReplicaApplier applier) throws IOException {
        requireMember(self, spec);
        if (logs.containsKey(spec.range()))
            throw new IllegalArgumentException("node " + self.nodeId() + " already hosts group " + spec.range());
        RaftGroupId gid = groupId(spec);
        machines.put(gid, new ApplierStateMachine(applier));
        try {
            add(raftGroup(spec));
        } catch (IOException | RuntimeException e) {
            machines.remove(gid);
            throw e;
        }
        RatisReplicatedLog log = new RatisReplicatedLog(server, spec, gid, steppingDownPatienceMillis);
        logs.put(spec.range(), log);
        return log;
    }

    private static void requireMember(GroupMember self, GroupSpec spec) {
        if (!spec.hasMember(self.nodeId()))
            throw new IllegalArgumentException("node " + self.nodeId() + " is not a member of group " + spec.range());
    }

    /** Creates the group on this server (each member does so for itself); the members elect a leader among them. */
    private void add(RaftGroup group) throws IOException {
        RaftClientReply reply = server.groupManagement(GroupManagementRequest.newAdd(ClientId.randomId(),
                RaftPeerId.valueOf(self.nodeId()), 0, group));
        if (!reply.isSuccess())
            throw new IOException("node " + self.nodeId() + " could not join group " + group.getGroupId() + ": " + reply.getException());
    }

    /**
     * Step one of a replacement: the group drops {@code replaced} (a compare-and-set on the member ids: a group whose
     * members are not {@code spec}'s with {@code replaced} in place of {@code self}, a stale view of it, refuses rather
     * than losing a member it has). A group that has dropped it already (an earlier replacement stopped between its two
     * steps) is left as it is. Until step two the group has one member fewer, whose majority is the same live members
     * the group needed anyway with the old member down.
     */
    private static void removeReplaced(GroupSpec spec, GroupMember self, String replaced, ReplicaSettings settings) throws IOException {
        GroupSpec others = without(spec, self.nodeId());
        if (hasExactly(others, settings)) return;
        if (replaced == null)
            throw new IOException("group " + spec.range() + " does not have exactly the members " + ids(others)
                    + " besides this one, and names none at its address to replace");
        List<RaftPeer> before = new ArrayList<>();
        for (RaftPeer p : raftGroup(spec).getPeers())
            before.add(p.getId().toString().equals(self.nodeId()) ? RaftPeer.newBuilder(p).setId(replaced).build() : p);
        changeMembers(spec, before, List.copyOf(raftGroup(others).getPeers()), settings, () -> hasExactly(others, settings),
                "did not remove member " + replaced + " (to be replaced by " + self.nodeId() + ")");
    }

    /**
     * Step two: the group adds {@code self} to the members it kept, a compare-and-set again. Done already (the client
     * resent a request whose reply it missed while the new member caught up): nothing to do.
     */
    private void addReplacement(GroupSpec spec, GroupMember self, String replaced, ReplicaSettings settings) throws IOException {
        GroupSpec others = without(spec, self.nodeId());
        changeMembers(spec, List.copyOf(raftGroup(others).getPeers()), List.copyOf(raftGroup(spec).getPeers()), settings,
                () -> replacedAlready(spec, others.members(), self, replaced, settings),
                "did not replace member " + replaced + " by " + self.nodeId());
    }

    /**
     * Asks the group's leader to change its members from {@code current} to {@code next} if they are {@code current}
     * (by id). {@code done} says whether the change is made, asked again when the request fails: the client resends a
     * request whose reply it missed, and the resent compare-and-set fails on the change the first one made.
     */
    private static void changeMembers(GroupSpec spec, List<RaftPeer> current, List<RaftPeer> next, ReplicaSettings settings,
                                      BooleanSupplier done, String refusal) throws IOException {
        // Bounded: a group without a majority up elects no leader, and the node's start must fail then, not hang.
        long attempts = Math.max(10, 2 * settings.requestTimeout().toMillis() / REPLACE_RETRY_MILLIS);
        try (RaftClient client = RaftClient.newBuilder().setRaftGroup(RaftGroup.valueOf(groupId(spec), current))
                .setProperties(RatisProperties.forClient(settings))
                .setParameters(RatisProperties.parameters(settings))
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep((int) attempts,
                        TimeDuration.valueOf(REPLACE_RETRY_MILLIS, TimeUnit.MILLISECONDS))).build()) {
            Exception failure;
            try {
                RaftClientReply reply = client.admin().setConfiguration(SetConfigurationRequest.Arguments.newBuilder()
                        .setServersInCurrentConf(current)
                        .setServersInNewConf(next)
                        .setMode(SetConfigurationRequest.Mode.COMPARE_AND_SET)
                        .build());
                if (reply.isSuccess()) return;
                failure = reply.getException();
            } catch (IOException e) {
                failure = e;
            }
            if (done.getAsBoolean()) return;
            throw new IOException("group " + spec.range() + " " + refusal + ": " + failure, failure);
        }
    }

    /** Whether the group's members, as the others report them, have {@code self} and not {@code replaced}. */
    private static boolean replacedAlready(GroupSpec spec, List<GroupMember> others, GroupMember self, String replaced,
                                           ReplicaSettings settings) {
        if (others.isEmpty()) return false;
        Optional<GroupSpec> now = currentMembers(new GroupSpec(spec.range(), others), settings);
        return now.isPresent() && now.get().hasMember(self.nodeId()) && (replaced == null || !now.get().hasMember(replaced));
    }

    /** Whether the group's members, as they report them, are exactly {@code expected}'s (by id). */
    private static boolean hasExactly(GroupSpec expected, ReplicaSettings settings) {
        if (expected.members().isEmpty()) return false;
        Optional<GroupSpec> now = currentMembers(expected, settings);
        return now.isPresent() && ids(now.get()).equals(ids(expected));
    }

    private static Set<String> ids(GroupSpec spec) {
        Set<String> ids = new HashSet<>();
        spec.members().forEach(m -> ids.add(m.nodeId()));
        return ids;
    }

    private static GroupSpec without(GroupSpec spec, String nodeId) {
        return new GroupSpec(spec.range(), spec.members().stream().filter(m -> !m.nodeId().equals(nodeId)).toList());
    }

    /** See {@link ReplicaServer#currentMembers}. */
    public static Optional<GroupSpec> currentMembers(GroupSpec assumed, ReplicaSettings settings) {
        RaftGroup group = raftGroup(assumed);
        GroupSpec fromFollower = null;
        try (RaftClient client = RaftClient.newBuilder().setRaftGroup(group)
                .setProperties(RatisProperties.forClient(settings))
                .setParameters(RatisProperties.parameters(settings))
                .setRetryPolicy(RetryPolicies.noRetry()).build()) {
            for (RaftPeer peer : group.getPeers()) {
                GroupInfoReply reply;
                try {
                    reply = client.getGroupManagementApi(peer.getId()).info(group.getGroupId());
                } catch (IOException | RuntimeException e) {
                    continue; // down, or it does not host the group (gRPC reports that unchecked)
                }
                if (!reply.isSuccess() || reply.getConf().isEmpty()) continue;
                if (reply.getConf().get().getOldPeersCount() > 0) continue; // a change under way: ask another
                GroupSpec spec = toSpec(assumed.range(), ProtoUtils.toRaftPeers(reply.getConf().get().getPeersList()));
                if (reply.getRoleInfoProto().getRole() == RaftPeerRole.LEADER) return Optional.of(spec);
                if (fromFollower == null) fromFollower = spec;
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("could not close the client asking group " + assumed.range() + "'s members", e);
        }
        return Optional.ofNullable(fromFollower);
    }

    private static GroupSpec toSpec(int range, List<RaftPeer> peers) {
        List<GroupMember> members = new ArrayList<>();
        for (RaftPeer p : peers) {
            String address = p.getAddress();
            int colon = address.lastIndexOf(':');
            members.add(new GroupMember(p.getId().toString(), address.substring(0, colon),
                    Integer.parseInt(address.substring(colon + 1)), p.getPriority()));
        }
        return new GroupSpec(range, members);
    }

    static RaftGroupId groupId(GroupSpec spec) {
        return RaftGroupId.valueOf(spec.groupUuid());
    }

    static RaftGroup raftGroup(GroupSpec spec) {
        List<RaftPeer> peers = spec.members().stream()
                .map(m -> RaftPeer.newBuilder().setId(m.nodeId()).setAddress(m.address()).setPriority(m.priority()).build())
                .toList();
        return RaftGroup.valueOf(groupId(spec), peers);
    }

    @Override
    public ReplicatedLog log(int range) {
        RatisReplicatedLog log = logs.get(range);
        if (log == null) throw new IllegalArgumentException("node " + server.getId() + " is not a member of group " + range);
        return log;
    }

    /** A group's name in log lines: its range. */
    private String name(RaftGroupId gid) {
        for (RatisReplicatedLog log : logs.values())
            if (groupId(log.group()).equals(gid)) return String.valueOf(log.group().range());
        return gid.toString();
    }

    @Override
    public void close() throws IOException {
        leadershipReturn.close();
        reconnects.close();
        try {
            server.close();
        } finally {
            logs.values().forEach(RatisReplicatedLog::close);
        }
    }
}
