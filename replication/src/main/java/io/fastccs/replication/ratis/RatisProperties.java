package io.fastccs.replication.ratis;

import io.fastccs.replication.GroupMember;
import io.fastccs.replication.ReplicaSettings;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.TimeDuration;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Our settings as Ratis properties, with the choices that are not settings (docs/design/replication-consensus.md,
 * "Settings chosen").
 */
final class RatisProperties {
    private RatisProperties() {
    }

    static RaftProperties of(GroupMember self, Path storageDir, ReplicaSettings settings) {
        RaftProperties p = new RaftProperties();
        // Ratis defaults its storage to /tmp: a reboot would wipe every replica's log and vote at once.
        RaftServerConfigKeys.setStorageDir(p, List.of(storageDir.resolve("groups").toFile()));
        RaftServerConfigKeys.setRemovedGroupsDir(p, storageDir.resolve("removed-groups").toFile());
        GrpcConfigKeys.Server.setHost(p, self.host());
        GrpcConfigKeys.Server.setPort(p, self.port());

        RaftServerConfigKeys.Rpc.setTimeoutMin(p, millis(settings.electionTimeoutMin()));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, millis(settings.electionTimeoutMax()));
        RaftServerConfigKeys.Rpc.setRequestTimeout(p, millis(settings.requestTimeout()));
        // Reads at the leader under a lease: a deposed leader stops answering once its lease runs out, and followers
        // refuse to vote while they hear from a leader whose lease may still run.
        RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        RaftServerConfigKeys.Read.setLeaderLeaseEnabled(p, true);
        // A read barrier asks only "does this member still lead?": what a reply says comes from the leader's own view,
        // and what it depends on is made durable separately. With the default (the commit index) every barrier would
        // also wait for the applier to catch up with the newest committed entry, tying read latency to writes.
        RaftServerConfigKeys.Read.ReadIndex.setType(p, RaftServerConfigKeys.Read.ReadIndex.Type.APPLIED_INDEX);

        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, settings.snapshotEvery());
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        // The newest snapshot and the one before it (kept while the newest may be incomplete); Ratis keeps all by default.
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
        // No commit-index records in the log: Ratis writes one after nearly every entry, each appended, replicated and
        // fsynced like the entry itself, which doubled the log work. They let a member apply its log alone while a
        // majority is down; ours never needs that, since a partition serves only from a leader, which starts after an
        // entry of its own term committed (so every member learns the commit index from it).
        RaftServerConfigKeys.Log.setLogMetadataEnabled(p, false);
        // raft.server.log.unsafe-flush.enabled stays false: an entry counts only once the log is on disk.
        // Off: with it on (the default), a follower that receives an append starting where one still in progress
        // starts answers it once that one is written, with the match index of its own, longer last entry, though its
        // extra entries were never appended (ServerImplUtils.NavigableIndices.alreadyExists compares start indices
        // only). The leader then counts entries the follower lacks toward commits, and never sends them again: it
        // never goes below its recorded match index (docs/design/replication-leadership.md, "A follower that
        // acknowledged what it lacks").
        RaftServerConfigKeys.Log.setAppendEntriesComposeEnabled(p, false);
        return p;
    }

    /** For the admin client a replacement uses to reach a group's leader. */
    static RaftProperties forClient(ReplicaSettings settings) {
        RaftProperties p = new RaftProperties();
        RaftServerConfigKeys.Rpc.setRequestTimeout(p, millis(settings.requestTimeout()));
        return p;
    }

    /**
     * The server's parameters: those of {@link #parameters}, and with controllable link faults the filter that drops
     * traffic with cut-off members ({@code server} gives the server once built, to look senders up in its groups).
     */
    static Parameters serverParameters(ReplicaSettings settings, Supplier<RaftServer> server) {
        Parameters parameters = parameters(settings);
        if (settings.linkFaults().isControllable())
            GrpcConfigKeys.Server.setServicesCustomizer(parameters, new LinkFaultFilter(settings.linkFaults(), server));
        return parameters;
    }

    /** Mutual TLS for the server, the clients and the admin calls when the settings ask for it; empty otherwise. */
    static Parameters parameters(ReplicaSettings settings) {
        Parameters parameters = new Parameters();
        if (settings.tls() != null) {
            GrpcTlsConfig tls = new GrpcTlsConfig(settings.tls().keyManager(), settings.tls().trustManager(), true);
            GrpcConfigKeys.TLS.setConf(parameters, tls);
            GrpcConfigKeys.Server.setTlsConf(parameters, tls);
            GrpcConfigKeys.Client.setTlsConf(parameters, tls);
            GrpcConfigKeys.Admin.setTlsConf(parameters, tls);
        }
        return parameters;
    }

    private static TimeDuration millis(Duration d) {
        return TimeDuration.valueOf(d.toMillis(), TimeUnit.MILLISECONDS);
    }
}
