package io.fastccs.protocol.messages;

import io.fastccs.protocol.primitives.TxnId;
import io.fastccs.protocol.primitives.VectorClock;

/**
 * The coordinator's answer to an {@link OutcomeQuery}; {@code commitClock} is set and {@code commitTime} non-zero only
 * when COMMITTED.
 */
public record OutcomeReply(long requestId, TxnId txnId, Outcome outcome, VectorClock commitClock, long commitTime)
        implements ClientResponse {
}
