package io.fastccs.core.messages;

import java.util.List;

/** The ring, ordered by partition index (which is also token order). */
public record RingReply(long requestId, List<RingMember> members) implements ControlMessage {
    public RingReply {
        members = List.copyOf(members);
    }
}
