package io.fastccs.protocol.messages;

import io.fastccs.core.messages.PeerMessage;
import java.util.List;

/**
 * Tree stabilization, away from partition 0: the settled prefixes partition 0 has gathered from the whole tree, the
 * entries that rose since its last round, or all of them when {@code full}. Each partition forwards it to its children
 * as it arrives; {@code from} is the sender, the receiver's parent.
 *
 * @param epoch the stable base these entries make (every entry partition 0 sent so far, including the receiver's own),
 *              numbered by partition 0; 0: none (docs/design/stable-bases.md, "Stable bases")
 */
public record StabilizeDown(int from, List<Settled> entries, long epoch, boolean full) implements PeerMessage {
    public StabilizeDown {
        entries = List.copyOf(entries);
    }

    /** Entries that make no stable base. */
    public StabilizeDown(int from, List<Settled> entries) {
        this(from, entries, 0, false);
    }

    @Override
    public boolean isStabilization() {
        return true;
    }
}
