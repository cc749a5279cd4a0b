package io.fastccs.protocol.messages;

import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;

/**
 * The coordinator's answer to an {@link OutcomeQuery}; {@code commitClock} is set and {@code commitTime} non-zero only
 * when COMMITTED.
 */
public record OutcomeReply(long requestId, TxnId txnId, Outcome outcome, VectorClock commitClock, long commitTime)
        implements ClientResponse {
}
