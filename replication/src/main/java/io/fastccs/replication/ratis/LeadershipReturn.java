package io.fastccs.replication.ratis;

import io.fastccs.replication.NamedThreads;
import io.fastccs.replication.ReplicaSettings;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.impl.ClientProtoUtils;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.proto.RaftProtos.StartLeaderElectionRequestProto;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Keeps each group led by a member that can serve. Two rules, both about the applier, which Raft does not look at.
 *
 * <p><b>A leader with a backlog hands over.</b> Raft elects any member whose log is complete, also one restarted a
 * minute before whose applier is still far behind; it can serve only once it has applied everything (Ratis's leader is
 * ready after applying its term's first entry), and 20 s failovers were measured so. A member elected with more than
 * {@link ReplicaSettings#stepDownBacklog()} committed entries still to apply, and more than it applies in two longest
 * election timeouts at its recent rate, hands leadership to a follower whose log matches its own, as Ratis's
 * leadership transfer does (a StartLeaderElection request, on which the follower stands at once and this member, its
 * log no newer, votes for it), once its term's first entry is committed, at most once per longest election timeout per
 * group. Ratis's own transfer cannot be used: it goes only to the member of highest priority, the preferred one, which
 * is the one down. Merely stepping down does not work: it was tried, and the lagging member won every following
 * election (eight in a row in a test), since after stepping down it refuses the others' votes for a while, as a
 * follower that has just heard from a leader (itself) does.
 *
 * <p><b>Leadership returns to the preferred member.</b> It brings each group's leadership back to its preferred member
 * (the highest priority), asked for by that member once it has applied what the group committed. Ratis's own return ({@code checkPeersForYieldingLeader}) waits until the
 * preferred member's log matches the leader's last entry exactly, which under steady writes rarely happens: measured,
 * leadership stayed away for minutes and one node led every group, so its kill failed them all over at once.
 *
 * <p>The member asks, not the leader, because only the member knows how far its applier is behind: a member that took
 * leadership with a backlog to apply could serve only once it had applied it (20 s failovers were measured that way).
 * It asks once its applied index has been within {@link #APPLY_GAP} entries of its commit index for
 * {@link #STEADY_MILLIS} under a known leader, and at most once per {@link #COOLDOWN_MILLIS} per group.
 * The leader then blocks writes until the member's log matches (one append round, since it is caught up) and the
 * member starts an election at once; if that does not happen within the transfer timeout the leader stays and writes
 * resume (docs/design/replication-leadership.md, "Leadership returns to the preferred member").
 *
 * <p><b>A leader with a stuck follower steps down.</b> Ratis can record a follower as holding an entry it does not hold,
 * and then never sends it that entry ({@link StuckFollowers}); only a leader of a new term starts over. A leader that
 * sees a follower answer without taking entries for {@link #STUCK_ELECTION_TIMEOUTS} longest election timeouts steps
 * down, at most once per {@link #UNSTICK_COOLDOWN_MILLIS} per group.
 */
final class LeadershipReturn implements AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(LeadershipReturn.class);
    static final long CHECK_MILLIS = 200;
    /** How long the preferred member must have been caught up before it asks for leadership back. */
    static final long STEADY_MILLIS = 3000;
    static final long APPLY_GAP = 100;
    static final long COOLDOWN_MILLIS = 10_000;
    /** How long (in longest election timeouts) a follower's match index must stand still to count as stuck. */
    static final long STUCK_ELECTION_TIMEOUTS = 5;
    static final long UNSTICK_COOLDOWN_MILLIS = 30_000;

    private final RaftServer server;
    private final ReplicaSettings settings;
    private final ScheduledExecutorService timer;
    /** Since when (nanoTime) the preferred member has been caught up under a known leader. */
    private final Map<RaftGroupId, Long> steadySince = new ConcurrentHashMap<>();
    private final Map<RaftGroupId, Long> lastAsked = new ConcurrentHashMap<>();
    private final Map<RaftGroupId, Long> lastHandedOver = new ConcurrentHashMap<>();
    /** Per group: the applied index and time of the previous check, and the recent apply rate (entries per second). */
    private final Map<RaftGroupId, long[]> lastApplied = new ConcurrentHashMap<>();
    private final Map<RaftGroupId, Double> applyRate = new ConcurrentHashMap<>();
    /** Per group this member leads: its followers' progress, the term it was watched in, the last hand-over for one. */
    private final Map<RaftGroupId, StuckFollowers> stuck = new ConcurrentHashMap<>();
    private final Map<RaftGroupId, Long> stuckWatchTerm = new ConcurrentHashMap<>();
    private final Map<RaftGroupId, Long> lastUnstuck = new ConcurrentHashMap<>();
    private final Function<RaftGroupId, String> names;

    /** @param names a group's name in log lines */
    LeadershipReturn(RaftServer server, ReplicaSettings settings, Function<RaftGroupId, String> names) {
        this.server = server;
        this.settings = settings;
        this.names = names;
        this.timer = NamedThreads.scheduled("fastccs-raft-leadership-return");
        timer.scheduleWithFixedDelay(this::checkAll, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void checkAll() {
        try {
            // One group's failure must not skip the checks of the others.
            for (RaftGroupId gid : server.getGroupIds()) {
                try {
                    check(gid);
                } catch (Exception e) {
                    logger.debug("FastCCS: leadership return check of {} failed", names.apply(gid), e);
                }
            }
        } catch (Exception e) {
            logger.debug("FastCCS: leadership return could not list its groups", e);
        }
    }

    private void check(RaftGroupId gid) throws Exception {
        RaftServer.Division division = server.getDivision(gid);
        DivisionInfo info = division.getInfo();
        long now = MonotonicClock.nanoTime();
        long committed = division.getRaftLog().getLastCommittedIndex();
        long applied = info.getLastAppliedIndex();
        long backlog = committed - applied;
        double rate = measureApplyRate(gid, applied, now);
        long worthStepping = Math.max(settings.stepDownBacklog(), (long) (rate * 2 * settings.electionTimeoutMax().toMillis() / 1000.0));
        if (info.isLeader() && !info.isLeaderReady() && settings.stepDownBacklog() > 0 && backlog > worthStepping
                && termEntryCommitted(division, committed, info.getCurrentTerm())
                && !within(lastHandedOver.get(gid), now, settings.electionTimeoutMax().toMillis())) {
            lastHandedOver.put(gid, now);
            handOver(division, info, backlog, rate);
            return;
        }
        if (info.isLeader() && info.isLeaderReady()) watchFollowers(division, info, now);
        RaftPeerId leader = info.getLeaderId();
        if (!info.isFollower() || leader == null || leader.equals(server.getId()) || !isPreferred(division)
                || backlog > APPLY_GAP) {
            steadySince.remove(gid);
            return;
        }
        long since = steadySince.computeIfAbsent(gid, g -> now);
        if (now - since < TimeUnit.MILLISECONDS.toNanos(STEADY_MILLIS) || within(lastAsked.get(gid), now, COOLDOWN_MILLIS)) return;
        lastAsked.put(gid, now);
        ask(division, leader, info.getLastAppliedIndex(), committed);
    }

    /** Whether the leader's first entry of its term is committed: a majority holds it, so a follower's log matches. */
    private static boolean termEntryCommitted(RaftServer.Division division, long committed, long term) {
        TermIndex entry = division.getRaftLog().getTermIndex(committed);
        return entry != null && entry.getTerm() == term;
    }

    /** Entries applied per second lately (a moving average over the checks), 0 until known. */
    private double measureApplyRate(RaftGroupId gid, long applied, long now) {
        long[] previous = lastApplied.put(gid, new long[]{applied, now});
        double rate = applyRate.getOrDefault(gid, 0.0);
        if (previous == null || now <= previous[1] || applied < previous[0]) return rate;
        double sample = (applied - previous[0]) * 1e9 / (now - previous[1]);
        rate = rate == 0 ? sample : 0.8 * rate + 0.2 * sample;
        applyRate.put(gid, rate);
        return rate;
    }

    private static boolean within(Long then, long now, long millis) {
        return then != null && now - then < TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /**
     * Asks each follower heard from lately, in turn, to stand for election at once; the first whose log matches this
     * member's last entry does (the others refuse).
     */
    private void handOver(RaftServer.Division division, DivisionInfo info, long backlog, double rate) {
        RaftGroupId gid = division.getGroup().getGroupId();
        TermIndex last = division.getRaftLog().getLastEntryTermIndex();
        for (ServerRpcProto follower : info.getRoleInfoProto().getLeaderInfo().getFollowerInfoList()) {
            if (follower.getLastRpcElapsedTimeMs() > settings.electionTimeoutMin().toMillis()) continue;
            RaftPeerId target = RaftPeerId.valueOf(follower.getId().getId());
            StartLeaderElectionRequestProto request = StartLeaderElectionRequestProto.newBuilder()
                    .setServerRequest(ClientProtoUtils.toRaftRpcRequestProtoBuilder(division.getMemberId(), target))
                    .setLeaderLastEntry(last.toProto())
                    .build();
            try {
                boolean started = server.getServerRpc().startLeaderElection(request).getServerReply().getSuccess();
                logger.info("FastCCS group {}: elected with {} committed entries still to apply (applying {} a second); "
                                + "asked {} to lead instead: {}", names.apply(gid), backlog, Math.round(rate), target,
                        started ? "it stands" : "refused");
                if (started) return;
            } catch (Exception e) {
                logger.info("FastCCS group {}: could not hand leadership to {} ({})", names.apply(gid), target, e.toString());
            }
        }
    }

    /**
     * On a leader: when a follower is stuck ({@link StuckFollowers}), steps down, since only a leader of a new term starts
     * over from what the stuck one holds; at most once per {@link #UNSTICK_COOLDOWN_MILLIS} per group. A short election
     * (the group serves nothing meanwhile, as in a failover) instead of a follower stuck for minutes, during which the
     * group commits with one follower only and a kill of this leader waits for the stuck one to be caught up (15 s
     * measured). If this member is the preferred one, leadership comes back to it by the rule above.
     */
    private void watchFollowers(RaftServer.Division division, DivisionInfo info, long now) {
        RaftGroupId gid = division.getGroup().getGroupId();
        // A stuck follower answers seldom: Ratis's appender backs off after each refusal (one every 5 s was seen), so
        // "answering" means heard from within three longest election timeouts; one that is down is not heard from at all.
        StuckFollowers watch = stuck.computeIfAbsent(gid, g -> new StuckFollowers(STUCK_ELECTION_TIMEOUTS
                * settings.electionTimeoutMax().toMillis(), 3 * settings.electionTimeoutMax().toMillis(), APPLY_GAP));
        Long watchedTerm = stuckWatchTerm.put(gid, info.getCurrentTerm());
        if (watchedTerm == null || watchedTerm != info.getCurrentTerm()) watch.reset();
        List<ServerRpcProto> rpcs = info.getRoleInfoProto().getLeaderInfo().getFollowerInfoList();
        long[] match = info.getFollowerMatchIndices(); // the same log appenders, in the same order
        TermIndex last = division.getRaftLog().getLastEntryTermIndex();
        if (match.length != rpcs.size() || last == null) return; // the configuration is changing
        List<StuckFollowers.Follower> followers = new ArrayList<>();
        for (int i = 0; i < match.length; i++)
            followers.add(new StuckFollowers.Follower(rpcs.get(i).getId().getId().toStringUtf8(), match[i],
                    rpcs.get(i).getLastRpcElapsedTimeMs()));
        List<String> stuckIds = watch.observe(followers, last.getIndex(), division.getRaftLog().getStartIndex(), now);
        if (stuckIds.isEmpty() || within(lastUnstuck.get(gid), now, UNSTICK_COOLDOWN_MILLIS)) return;
        lastUnstuck.put(gid, now);
        // Stepping down, not a transfer: Ratis transfers only to the member of highest priority, which may be the stuck
        // one. The election that follows goes to a member whose log is complete (this one or the other follower), in
        // a new term, and its leader starts over from what each follower says it holds.
        String outcome = transfer(division, server.getId(), null, settings.electionTimeoutMax().toMillis());
        logger.info("FastCCS group {}: follower {} answers but has taken no entry past {} for {} s while this leader's log "
                        + "reached {}; stepped down so that the next leader catches it up: {}", names.apply(gid), stuckIds,
                followers.stream().filter(x -> stuckIds.contains(x.id())).map(x -> String.valueOf(x.matchIndex()))
                        .collect(Collectors.joining(", ")),
                STUCK_ELECTION_TIMEOUTS * settings.electionTimeoutMax().toSeconds(), last.getIndex(), outcome);
    }

    /** Asks {@code leader} to transfer leadership to {@code target} (null: to step down); says how that went. */
    private String transfer(RaftServer.Division division, RaftPeerId leader, RaftPeerId target, long timeoutMillis) {
        try (RaftClient client = RaftClient.newBuilder().setRaftGroup(division.getGroup())
                .setLeaderId(leader)
                .setProperties(RatisProperties.forClient(settings))
                .setParameters(RatisProperties.parameters(settings))
                .setRetryPolicy(RetryPolicies.noRetry()).build()) {
            RaftClientReply reply = client.admin().transferLeadership(target, leader, timeoutMillis);
            return reply.isSuccess() ? "done" : String.valueOf(reply.getException());
        } catch (Exception e) {
            return "failed (" + e + ")";
        }
    }

    /** Whether this server has a higher priority than every other member of the group's current configuration. */
    private boolean isPreferred(RaftServer.Division division) {
        RaftPeer self = division.getRaftConf().getPeer(server.getId());
        if (self == null) return false;
        for (RaftPeer p : division.getRaftConf().getCurrentPeers())
            if (!p.getId().equals(server.getId()) && p.getPriority() >= self.getPriority()) return false;
        return division.getRaftConf().getPreviousPeers().isEmpty(); // no configuration change under way
    }

    private void ask(RaftServer.Division division, RaftPeerId leader, long applied, long committed) {
        String outcome = transfer(division, leader, server.getId(), settings.electionTimeoutMin().toMillis());
        logger.info("FastCCS group {}: asked leader {} to hand leadership back to this preferred member (applied {} of {} "
                + "committed): {}", names.apply(division.getGroup().getGroupId()), leader, applied, committed, outcome);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
