package io.fastccs.protocol.messages;

import io.fastccs.protocol.TxnId;
import io.fastccs.protocol.VectorClock;

/** The coordinator's commit decision with the transaction's commit clock (algorithm 2, line 32). */
public record Commit(TxnId txnId, VectorClock commitClock) implements PeerMessage {
}
