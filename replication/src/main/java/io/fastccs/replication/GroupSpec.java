package io.fastccs.replication;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The replica group of one token range (FastCCS partition {@code range}): its members. The group's identity is derived
 * from the range alone, so every node names the same group without coordination.
 */
public record GroupSpec(int range, List<GroupMember> members) {
    public GroupSpec {
        if (range < 0) throw new IllegalArgumentException("range must be >= 0, not " + range);
        members = List.copyOf(members);
        if (members.isEmpty()) throw new IllegalArgumentException("a group needs at least one member");
        Set<String> ids = new HashSet<>();
        for (GroupMember m : members)
            if (!ids.add(m.nodeId())) throw new IllegalArgumentException("node " + m.nodeId() + " is twice in group " + range);
    }

    /** The same for every node that names this range. */
    public UUID groupUuid() {
        return groupUuid(range);
    }

    /** Range {@code range}'s group id, as every member names it (for tools that know no members). */
    public static UUID groupUuid(int range) {
        return UUID.nameUUIDFromBytes(("fastccs-range-" + range).getBytes(StandardCharsets.UTF_8));
    }

    public boolean hasMember(String nodeId) {
        return members.stream().anyMatch(m -> m.nodeId().equals(nodeId));
    }

    /** How many members must hold an entry before it commits. */
    public int majority() {
        return members.size() / 2 + 1;
    }
}
