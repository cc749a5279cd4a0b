package io.fastccs.protocol.messages;

import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Payloads;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;

import java.util.List;

/**
 * Round one of a write-only transaction ({@code transactional_batch_mutate}): the writes for this partition,
 * the client's clock, the coordinator chosen by the client and the full set of participants.
 *
 * @param dependencyTime the largest commit time the client's session has read or written: the coordinator stamps
 *                       the commit above it, so that the arbitration order extends causality
 */
public record WriteRequest(long requestId, TxnId txnId, int coordinator, List<Integer> participants,
                           List<KeyValue> writes, VectorClock clock, long dependencyTime) implements ClientRequest {
    public WriteRequest {
        participants = List.copyOf(participants);
        writes = List.copyOf(writes);
    }

    @Override
    public long payloadBytes() {
        return Payloads.writesPayload(writes);
    }
}
