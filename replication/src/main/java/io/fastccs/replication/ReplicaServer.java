package io.fastccs.replication;

import io.fastccs.replication.ratis.RatisReplicaServer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

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
        return RatisReplicaServer.start(self, storageDir, settings, groups);
    }

    /** This node's log of group {@code range}; throws if the node is not a member. */
    ReplicatedLog log(int range);

    @Override
    void close() throws IOException;
}
