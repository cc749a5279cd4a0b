package io.fastccs.protocol.messages;

import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.primitives.TxnId;

/**
 * {@link WriteReply} on the wire, the commit clock as a difference from the request's clock ({@code null} unless
 * COMMITTED).
 */
public record CompactWriteReply(long requestId, TxnId txnId, Outcome outcome, ClockDiff commitClock, long commitTime)
        implements ClientResponse {
}
