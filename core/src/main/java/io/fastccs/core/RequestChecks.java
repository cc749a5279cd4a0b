package io.fastccs.core;

import io.fastccs.core.typed.Operands;

import io.fastccs.core.api.Topology;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.primitives.Key;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The checks every protocol's partition makes on a client's keys and values before it changes anything: the same
 * limits and the same error for the same bad input, whatever the protocol.
 */
public final class RequestChecks {
    private final PartitionConfig config;
    private final Topology topology;
    private final int self;

    private final boolean commutativeOperations;

    /** Checks for a protocol of puts only: a commutative operation is refused. */
    public RequestChecks(PartitionConfig config, Topology topology, int self) {
        this(config, topology, self, false);
    }

    /** @param commutativeOperations whether the protocol takes commutative operations (FastCCS) besides puts */
    public RequestChecks(PartitionConfig config, Topology topology, int self, boolean commutativeOperations) {
        this.config = config;
        this.topology = topology;
        this.self = self;
        this.commutativeOperations = commutativeOperations;
    }

    /** Null if {@code keys} are a valid read of this partition, else the error to answer. */
    public ErrorReply keys(long requestId, List<Key> keys) {
        if (keys == null || keys.isEmpty()) return invalid(requestId, "no keys");
        if (keys.size() > config.maxKeysPerRequest())
            return invalid(requestId, keys.size() + " keys, more than the maximum of " + config.maxKeysPerRequest());
        Set<Key> seen = new HashSet<>();
        for (Key key : keys) {
            ErrorReply e = key(requestId, key);
            if (e != null) return e;
            if (!seen.add(key)) return invalid(requestId, "key " + key + " appears twice");
        }
        return null;
    }

    /** Null if {@code writes} are a valid write at this partition (every key its own), else the error to answer. */
    public ErrorReply writes(long requestId, List<KeyValue> writes) {
        return writes(requestId, writes, true);
    }

    /**
     * Null if {@code writes} are well formed, wherever their keys live (a coordinator that hands each participant its
     * share), else the error to answer.
     */
    public ErrorReply writesOfAnyPartition(long requestId, List<KeyValue> writes) {
        return writes(requestId, writes, false);
    }

    private ErrorReply writes(long requestId, List<KeyValue> writes, boolean ownedHere) {
        if (writes == null || writes.isEmpty()) return invalid(requestId, "no writes");
        if (writes.size() > config.maxKeysPerRequest())
            return invalid(requestId, writes.size() + " writes, more than the maximum of " + config.maxKeysPerRequest());
        Set<Key> seen = new HashSet<>();
        for (KeyValue kv : writes) {
            if (kv == null) return invalid(requestId, "a missing write");
            ErrorReply e = ownedHere ? key(requestId, kv.key()) : wellFormed(requestId, kv.key());
            if (e != null) return e;
            if (!seen.add(kv.key())) return invalid(requestId, "key " + kv.key() + " written twice");
            if (kv.value() == null || kv.value().length == 0) return invalid(requestId, "empty value for key " + kv.key());
            if (kv.value().length > config.maxValueBytes())
                return invalid(requestId, "value of " + kv.value().length + " bytes for key " + kv.key()
                        + ", more than the maximum of " + config.maxValueBytes());
            if (kv.kind() != io.fastccs.core.primitives.WriteKind.PUT && !commutativeOperations)
                return invalid(requestId, kv.kind() + " on key " + kv.key() + ": this protocol takes puts only");
            String problem = Operands.problem(kv.kind(), kv.value());
            if (problem != null) return invalid(requestId, kv.kind() + " on key " + kv.key() + " " + problem);
        }
        return null;
    }

    /** Null if {@code key} is a valid key owned by this partition, else the error to answer. */
    public ErrorReply key(long requestId, Key key) {
        ErrorReply e = wellFormed(requestId, key);
        if (e != null) return e;
        int owner = topology.ownerOf(key);
        if (owner != self)
            return new ErrorReply(requestId, ErrorCode.NOT_OWNER,
                    "key " + key + " is owned by partition " + owner + ", not " + self, owner);
        return null;
    }

    private ErrorReply wellFormed(long requestId, Key key) {
        if (key == null || key.length() == 0) return invalid(requestId, "empty key");
        if (key.length() > config.maxKeyBytes())
            return invalid(requestId, "key of " + key.length() + " bytes, more than the maximum of " + config.maxKeyBytes());
        return null;
    }

    public static ErrorReply invalid(long requestId, String message) {
        return ErrorReply.of(requestId, ErrorCode.INVALID_REQUEST, message);
    }
}
