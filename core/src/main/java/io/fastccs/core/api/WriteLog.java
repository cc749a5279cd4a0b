package io.fastccs.core.api;

import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.primitives.TxnId;

import java.util.List;

/**
 * Where a partition of a compared protocol (Eiger, Wren, eventual) records the writes it takes on, at the moment it
 * promises them (eventual: applied; Eiger and Wren: prepared, or committed at Eiger's coordinator). The nodes make
 * them durable through Cassandra's commit log and hold every message the partition sends afterwards until they are,
 * as FastCCS's store does for its records, so that a comparison counts the same storage work. FastCCS has its own
 * store ({@link PartitionStore}) and never calls this.
 */
@FunctionalInterface
public interface WriteLog {
    /** Keeps nothing: the simulator and the tests. */
    WriteLog NONE = (txnId, writes) -> { };

    /** Transaction {@code txnId}'s writes to keys of this partition were taken on. Protocol thread only. */
    void accepted(TxnId txnId, List<KeyValue> writes);
}
