package io.fastccs.protocol.messages;

import java.util.List;

/**
 * Tree stabilization, away from partition 0: the settled prefixes partition 0 has gathered from the whole tree, the
 * entries that rose since its last round, or all of them at a heartbeat. Each partition forwards it to its children
 * as it arrives; {@code from} is the sender, the receiver's parent.
 */
public record StabilizeDown(int from, List<Settled> entries) implements PeerMessage {
    public StabilizeDown {
        entries = List.copyOf(entries);
    }
}
