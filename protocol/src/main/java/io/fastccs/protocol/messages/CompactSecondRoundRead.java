package io.fastccs.protocol.messages;

import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.Payloads;
import io.fastccs.core.primitives.Key;

import java.util.List;

/** {@link SecondRoundRead} on the wire with its clock relative to a stable base; the partition answers {@link CompactReadReply}. */
public record CompactSecondRoundRead(long requestId, List<Key> keys, BasedClock clock, long firstRoundTime)
        implements ClientRequest {
    public CompactSecondRoundRead {
        keys = List.copyOf(keys);
    }

    @Override
    public long payloadBytes() {
        return Payloads.keysPayload(keys);
    }

    @Override
    public boolean onlyReads() {
        return true;
    }
}
