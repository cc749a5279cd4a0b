package io.fastccs.replication;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * What a consensus implementation provides (found with {@link ServiceLoader}, as Ratis finds its own RPC factories),
 * so that this API names no implementation: {@code io.fastccs.replication.ratis} registers one.
 */
public interface ReplicaServerFactory {
    ReplicaServer start(GroupMember self, Path storageDir, ReplicaSettings settings, Map<GroupSpec, ReplicaApplier> groups)
            throws IOException;

    ReplicaServer startReplacing(GroupMember self, String replaced, Path storageDir, ReplicaSettings settings,
                                 Map<GroupSpec, ReplicaApplier> groups) throws IOException;

    Optional<GroupSpec> currentMembers(GroupSpec assumed, ReplicaSettings settings);

    /** The implementation on the classpath. */
    static ReplicaServerFactory load() {
        return ServiceLoader.load(ReplicaServerFactory.class, ReplicaServerFactory.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new IllegalStateException("no consensus implementation on the classpath "
                        + "(META-INF/services/" + ReplicaServerFactory.class.getName() + ")"));
    }
}
