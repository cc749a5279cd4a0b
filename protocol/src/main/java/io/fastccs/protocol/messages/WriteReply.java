package io.fastccs.protocol.messages;

import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;

/**
 * A participant's final answer to a {@link WriteRequest}. A committed reply is sent only once every smaller
 * sequence number on that partition is settled, so the client may adopt {@code commitClock} once every
 * participant answered.
 *
 * @param commitClock the transaction's commit clock; {@code null} unless {@code outcome} is COMMITTED
 * @param commitTime  the transaction's commit time; 0 unless {@code outcome} is COMMITTED
 */
public record WriteReply(long requestId, TxnId txnId, Outcome outcome, VectorClock commitClock, long commitTime)
        implements ClientResponse {
}
