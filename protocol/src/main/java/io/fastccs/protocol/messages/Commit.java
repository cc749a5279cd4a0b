package io.fastccs.protocol.messages;

import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;

/**
 * The coordinator's commit decision with the transaction's commit clock (algorithm 2, line 32) and commit time (its
 * place in the arbitration order, see {@link io.fastccs.protocol.primitives.CommitOrder}).
 */
public record Commit(TxnId txnId, VectorClock commitClock, long commitTime) implements PeerMessage {
}
