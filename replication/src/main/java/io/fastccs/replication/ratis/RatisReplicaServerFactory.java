package io.fastccs.replication.ratis;

import io.fastccs.replication.GroupMember;
import io.fastccs.replication.GroupSpec;
import io.fastccs.replication.ReplicaApplier;
import io.fastccs.replication.ReplicaServer;
import io.fastccs.replication.ReplicaServerFactory;
import io.fastccs.replication.ReplicaSettings;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Apache Ratis over gRPC as the consensus implementation (registered in META-INF/services). */
public final class RatisReplicaServerFactory implements ReplicaServerFactory {
    @Override
    public ReplicaServer start(GroupMember self, Path storageDir, ReplicaSettings settings,
                               Map<GroupSpec, ReplicaApplier> groups) throws IOException {
        return RatisReplicaServer.start(self, storageDir, settings, groups);
    }

    @Override
    public ReplicaServer startReplacing(GroupMember self, String replaced, Path storageDir, ReplicaSettings settings,
                                        Map<GroupSpec, ReplicaApplier> groups) throws IOException {
        return RatisReplicaServer.startReplacing(self, replaced, storageDir, settings, groups);
    }

    @Override
    public Optional<GroupSpec> currentMembers(GroupSpec assumed, ReplicaSettings settings) {
        return RatisReplicaServer.currentMembers(assumed, settings);
    }
}
