package io.fastccs.protocol.messages;

import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.primitives.VectorClock;

/** The coordinator's commit decision with the transaction's commit clock (algorithm 2, line 32). */
public record Commit(TxnId txnId, VectorClock commitClock) implements PeerMessage {
}
