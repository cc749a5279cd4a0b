package io.fastccs.protocol.messages;

import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.Payloads;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;

import java.util.List;

/**
 * Round two of a read-only transaction ({@code multiget_slice_by_time}): read the newest versions with commit
 * clock at most {@code clock}.
 *
 * @param firstRoundTime the {@link ReadReply#serverTime()} this partition gave in round one; the partition
 *                       refuses a round two older than its version-retention window, because GC may have
 *                       collected the versions it would need
 */
public record SecondRoundRead(long requestId, List<Key> keys, VectorClock clock, long firstRoundTime)
        implements ClientRequest {
    public SecondRoundRead {
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
