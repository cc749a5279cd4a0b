package io.fastccs.protocol.messages;

import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.Payloads;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;

import java.util.List;

/**
 * Round one of a read-only transaction ({@code multiget_slice}): the keys this partition owns and the
 * client's clock. The partition merges the clock into its snapshot and answers with the newest visible versions.
 */
public record FirstRoundRead(long requestId, List<Key> keys, VectorClock clock) implements ClientRequest {
    public FirstRoundRead {
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
