package io.fastccs.protocol.messages;

import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Payloads;
import io.fastccs.core.primitives.TxnId;

import java.util.List;

/** {@link WriteRequest} on the wire with its clock relative to a stable base; the partition answers {@link CompactWriteReply}. */
public record CompactWriteRequest(long requestId, TxnId txnId, int coordinator, List<Integer> participants,
                                  List<KeyValue> writes, BasedClock clock, long dependencyTime) implements ClientRequest {
    public CompactWriteRequest {
        participants = List.copyOf(participants);
        writes = List.copyOf(writes);
    }

    @Override
    public long payloadBytes() {
        return Payloads.writesPayload(writes);
    }
}
