package io.fastccs.baselines.wren;

import static io.fastccs.core.messages.Payloads.*;

import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;

import java.util.List;

/**
 * Wren's messages (single datacenter). Timestamps are {@link Hlc} longs. On the wire they are the schema's {@code Wren*}
 * structs (mapped by the wire package's {@code WrenWire}); payload bytes are the keys' and values' bytes only. Records
 * keep the lists they are given (no copies), so a partition can see and refuse malformed ones.
 */
public final class WrenMessages {
    private WrenMessages() {
    }

    // ---- client requests and responses ----

    /** START: the client's stable time; the partition answers with its GLST, at least {@code lst}. */
    public record Start(long requestId, long lst) implements ClientRequest {
        @Override
        public boolean onlyReads() {
            return true;
        }
    }

    /** The snapshot time {@code lt} a transaction reads at (and the client's new stable time). */
    public record StartReply(long requestId, long lt) implements ClientResponse {
    }

    /** READ: the newest version at or below {@code lt} of each key (all owned by the asked partition). */
    public record Slice(long requestId, List<Key> keys, long lt) implements ClientRequest {
        @Override
        public boolean onlyReads() {
            return true;
        }

        @Override
        public long payloadBytes() {
            return keysPayload(keys);
        }
    }

    /** One value per key asked, in the asked order; {@link ReadValue#sequence()} is the version's commit time. */
    public record SliceReply(long requestId, List<ReadValue> values) implements ClientResponse {
        @Override
        public long payloadBytes() {
            return readValuesPayload(values);
        }
    }

    /**
     * COMMIT to the coordinator (a participant): every write of the transaction, the client's snapshot time and its
     * highest write time. The coordinator forwards each participant its share.
     */
    public record CommitRequest(long requestId, TxnId txnId, long lt, long hwt, List<KeyValue> writes)
            implements ClientRequest {
        @Override
        public long payloadBytes() {
            return writesPayload(writes);
        }
    }

    /** Asks the coordinator what became of a transaction; answered with a {@link CommitReply}. */
    public record OutcomeRequest(long requestId, TxnId txnId) implements ClientRequest {
    }

    /** A transaction's outcome: COMMITTED with its commit time, ABORTED, or (to an outcome request) UNDECIDED. */
    public record CommitReply(long requestId, TxnId txnId, Outcome outcome, long ct) implements ClientResponse {
    }

    // ---- between partitions ----

    /** Coordinator to participant: prepare above {@code ht}. */
    public record Prepare(TxnId txnId, long ht, List<KeyValue> writes) implements PeerMessage {
        @Override
        public long payloadBytes() {
            return writesPayload(writes);
        }
    }

    /** Participant to coordinator: prepared at {@code pt}. */
    public record PrepareReply(TxnId txnId, long pt) implements PeerMessage {
    }

    /** Coordinator to participant: committed at {@code ct}. */
    public record Commit(TxnId txnId, long ct) implements PeerMessage {
    }

    /** Coordinator to participant: aborted; drop the prepared writes. */
    public record Abort(TxnId txnId) implements PeerMessage {
    }

    /** Participant to coordinator, for a transaction prepared longer than the timeout: answer Commit or Abort. */
    public record CheckTxn(TxnId txnId) implements PeerMessage {
    }

    /** STABILIZE: the sender's local stable time (its installed-up-to time VV). */
    public record Lst(long lst) implements PeerMessage {
        @Override
        public boolean isStabilization() {
            return true;
        }
    }
}
