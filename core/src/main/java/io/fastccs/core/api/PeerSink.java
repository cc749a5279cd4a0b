package io.fastccs.core.api;

import io.fastccs.core.messages.PeerMessage;

/**
 * Sends messages to other partitions. Delivery may be late, lost or reordered; the protocol copes.
 *
 * <p>Durability rule: everything a partition wrote to its {@link PartitionStore} before calling {@code send}
 * must be durable before the message leaves the node. A host that batches storage syncs must hold outgoing
 * messages until the batch is synced.
 */
@FunctionalInterface
public interface PeerSink {
    void send(int toPartition, PeerMessage message);
}
