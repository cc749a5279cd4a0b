package io.fastccs.protocol.messages;

import io.fastccs.core.messages.PeerMessage;
import java.util.List;

/**
 * Tree stabilization, towards partition 0: what partition {@code from} knows its subtree (itself and the partitions below
 * it) has settled, the entries that rose since it last reported, or all of them at a heartbeat.
 *
 * @param epoch the newest stable-base epoch known in the subtree (0: none): a restarted root numbers its bases above it
 */
public record StabilizeUp(int from, List<Settled> entries, long epoch) implements PeerMessage {
    public StabilizeUp {
        entries = List.copyOf(entries);
    }

    /** A report that names no stable base. */
    public StabilizeUp(int from, List<Settled> entries) {
        this(from, entries, 0);
    }

    @Override
    public boolean isStabilization() {
        return true;
    }
}
