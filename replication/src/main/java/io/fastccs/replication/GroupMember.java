package io.fastccs.replication;

import java.util.Objects;

/**
 * One server of a replica group: the node's id (stable across restarts; a node whose disk was wiped comes back under a
 * new id), where its consensus port listens, and its leader priority (the highest live one is preferred as leader).
 */
public record GroupMember(String nodeId, String host, int port, int priority) {
    public GroupMember {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(host, "host");
        if (nodeId.isEmpty() || !nodeId.matches("[A-Za-z0-9_.-]+"))
            throw new IllegalArgumentException("a node id is letters, digits, '_', '.' or '-', not '" + nodeId + "'");
        if (port < 1 || port > 65535) throw new IllegalArgumentException("port " + port + " is not a TCP port");
        if (priority < 0) throw new IllegalArgumentException("priority must be >= 0, not " + priority);
    }

    public String address() {
        return host + ":" + port;
    }
}
