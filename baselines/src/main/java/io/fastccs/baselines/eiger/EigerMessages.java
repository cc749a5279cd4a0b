package io.fastccs.baselines.eiger;

import static io.fastccs.core.messages.Payloads.*;

import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;

import java.util.List;

/**
 * Eiger's messages. Every one carries the sender's Lamport clock ({@code clock}). On the wire they are the schema's
 * {@code Eiger*} structs (mapped by the wire package's {@code EigerWire}); payload bytes are the keys' and values' bytes.
 */
public final class EigerMessages {
    private EigerMessages() {
    }

    /** One dependency: a key (the coordinator key of a transaction, or the key itself) and a version. */
    public record Dep(Key key, long version) {
    }

    /**
     * One key as a read returns it.
     *
     * @param value    null when the key has no version at the read time
     * @param version  the version's stamp ({@code (EVT << 16) | coordinator partition}), 0 if none
     * @param evt      earliest valid time (the commit time), 0 if none
     * @param lvt      latest valid time known to the partition
     * @param coordKey the coordinator key of the transaction that wrote it, null if none
     */
    public record KeyVersion(Key key, byte[] value, long version, long evt, long lvt, Key coordKey) {
        long payload() {
            return key.length() + (value == null ? 0 : value.length);
        }
    }

    // ---------------------------------------------------------------- client -> partition

    /** Round one of a read-only transaction. */
    public record Read1(long requestId, long clock, List<Key> keys) implements ClientRequest {
        @Override
        public boolean onlyReads() {
            return true;
        }

        public Read1 {
            keys = List.copyOf(keys);
        }

        @Override
        public long payloadBytes() {
            return keysPayload(keys);
        }
    }

    /** Round two: the keys at effective time {@code time}. */
    public record ReadAt(long requestId, long clock, List<Key> keys, long time) implements ClientRequest {
        @Override
        public boolean onlyReads() {
            return true;
        }

        public ReadAt {
            keys = List.copyOf(keys);
        }

        @Override
        public long payloadBytes() {
            return keysPayload(keys);
        }
    }

    /** A write-only transaction's writes for a cohort (a participant that is not the coordinator). */
    public record CohortWrite(long requestId, long clock, TxnId txnId, int coordinator, Key coordKey, List<KeyValue> writes)
            implements ClientRequest {
        public CohortWrite {
            writes = List.copyOf(writes);
        }

        @Override
        public long payloadBytes() {
            return writesPayload(writes);
        }
    }

    /**
     * A write-only transaction's writes for its coordinator, with every participant partition and the client's
     * dependency set.
     */
    public record CoordWrite(long requestId, long clock, TxnId txnId, Key coordKey, List<KeyValue> writes,
                             List<Integer> participants, List<Dep> deps) implements ClientRequest {
        public CoordWrite {
            writes = List.copyOf(writes);
            participants = List.copyOf(participants);
            deps = List.copyOf(deps);
        }

        @Override
        public long payloadBytes() {
            return writesPayload(writes);
        }
    }

    /** Asks a transaction's coordinator partition for its outcome. */
    public record OutcomeQuery(long requestId, long clock, TxnId txnId) implements ClientRequest {
    }

    // ---------------------------------------------------------------- partition -> client

    /**
     * Values of one round of a read.
     *
     * @param checkedCoordinator the partition held the answer for a CheckTxn (Eiger's third round)
     */
    public record ReadReply(long requestId, long clock, List<KeyVersion> values, boolean checkedCoordinator)
            implements ClientResponse {
        public ReadReply {
            values = List.copyOf(values);
        }

        @Override
        public long payloadBytes() {
            long n = 0;
            for (KeyVersion v : values) n += v.payload();
            return n;
        }
    }

    /** A cohort's acknowledgement of its writes (marked pending, vote sent); the coordinator's reply decides. */
    public record WriteAck(long requestId, long clock) implements ClientResponse {
    }

    /** The coordinator's answer to a write: COMMITTED with its stamp, or ABORTED (stamp 0). */
    public record WriteReply(long requestId, long clock, Outcome outcome, long stamp) implements ClientResponse {
    }

    /** The answer to an {@link OutcomeQuery}; stamp 0 unless COMMITTED. */
    public record OutcomeReply(long requestId, long clock, Outcome outcome, long stamp) implements ClientResponse {
    }

    // ---------------------------------------------------------------- partition -> partition

    /** A cohort marked its keys pending at {@code pendingTime} and votes yes. */
    public record YesVote(long clock, TxnId txnId, long pendingTime) implements PeerMessage {
    }

    /** The coordinator committed at {@code commitTime}. */
    public record Commit(long clock, TxnId txnId, long commitTime) implements PeerMessage {
    }

    /** The coordinator aborted (a vote did not arrive in time, or it presumed abort). */
    public record Abort(long clock, TxnId txnId) implements PeerMessage {
    }

    /** A cohort applied a commit. */
    public record Ack(long clock, TxnId txnId) implements PeerMessage {
    }

    /**
     * A cohort asks the coordinator about pending transactions: for a read at {@code time}, or ({@code time} = -1)
     * because the transactions stayed pending past the transaction timeout.
     */
    public record CheckTxn(long clock, List<TxnId> txnIds, long time) implements PeerMessage {
        public CheckTxn {
            txnIds = List.copyOf(txnIds);
        }
    }

    /**
     * One transaction's state at its coordinator: COMMITTED at {@code commitTime}, ABORTED, or UNDECIDED (not committed
     * yet; it will commit, if ever, after the reply's clock).
     */
    public record TxnStatus(TxnId txnId, Outcome outcome, long commitTime) {
    }

    public record CheckTxnReply(long clock, List<TxnStatus> statuses) implements PeerMessage {
        public CheckTxnReply {
            statuses = List.copyOf(statuses);
        }
    }
}
