package io.fastccs.core.messages;

import java.util.List;

/**
 * One partition of the ring.
 *
 * @param token the partition's Murmur3 token: it owns the keys whose token is in (previous token, token]
 * @param alive    whether the answering node currently sees it up
 * @param replicas with replicated partitions, every replica's FastCCS address ("host:port"); host and port are then
 *                 the group leader's, where requests go. Empty at replication factor 1.
 */
public record RingMember(int partition, String host, int port, long token, boolean alive, List<String> replicas) {
    public RingMember {
        replicas = List.copyOf(replicas);
    }

    public RingMember(int partition, String host, int port, long token, boolean alive) {
        this(partition, host, port, token, alive, List.of());
    }
}
