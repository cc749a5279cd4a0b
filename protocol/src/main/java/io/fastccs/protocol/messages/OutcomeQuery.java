package io.fastccs.protocol.messages;

import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.primitives.TxnId;

/**
 * A client asks a transaction's coordinator for its outcome, after the client lost track of a write
 * (timeout, restart). A coordinator that never saw the transaction decides abort, so the answer is final
 * unless it is {@link Outcome#UNDECIDED}.
 */
public record OutcomeQuery(long requestId, TxnId txnId) implements ClientRequest {
}
