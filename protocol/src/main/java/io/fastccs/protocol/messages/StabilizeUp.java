package io.fastccs.protocol.messages;

import java.util.List;

/**
 * Tree stabilization, towards partition 0: what partition {@code from} knows its subtree (itself and the partitions below
 * it) has settled, the entries that rose since it last reported, or all of them at a heartbeat.
 */
public record StabilizeUp(int from, List<Settled> entries) implements PeerMessage {
    public StabilizeUp {
        entries = List.copyOf(entries);
    }
}
