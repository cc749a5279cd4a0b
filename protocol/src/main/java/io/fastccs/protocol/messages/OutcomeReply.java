package io.fastccs.protocol.messages;

import io.fastccs.protocol.TxnId;
import io.fastccs.protocol.VectorClock;

/** The coordinator's answer to an {@link OutcomeQuery}; {@code commitClock} is set only when COMMITTED. */
public record OutcomeReply(long requestId, TxnId txnId, Outcome outcome, VectorClock commitClock)
        implements ClientResponse {
}
