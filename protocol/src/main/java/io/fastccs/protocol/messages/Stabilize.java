package io.fastccs.protocol.messages;

import io.fastccs.core.messages.PeerMessage;

/**
 * Stabilization (section 3.3.3): partition {@code from} has settled every sequence number up to {@code settled}.
 */
public record Stabilize(int from, long settled) implements PeerMessage {
    @Override
    public boolean isStabilization() {
        return true;
    }
}
