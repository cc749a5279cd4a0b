package io.fastccs.server.groups;

import java.util.ArrayList;
import java.util.List;

/**
 * Which nodes replicate which partition: partition p's group is the node owning token range p (its preferred leader)
 * and the next {@code replicationFactor - 1} nodes in token order, as Cassandra's SimpleStrategy places a range.
 * Nodes are numbered like partitions, by token rank.
 */
public record GroupLayout(int nodes, int replicationFactor) {
    public GroupLayout {
        if (replicationFactor < 1) throw new IllegalArgumentException("replication factor must be >= 1, not " + replicationFactor);
        if (replicationFactor > nodes)
            throw new IllegalArgumentException("replication factor " + replicationFactor + " needs at least as many nodes; the ring has " + nodes);
    }

    /** The nodes of partition {@code partition}'s group, its preferred leader first. */
    public List<Integer> members(int partition) {
        List<Integer> out = new ArrayList<>(replicationFactor);
        for (int j = 0; j < replicationFactor; j++) out.add((partition + j) % nodes);
        return out;
    }

    public boolean isMember(int node, int partition) {
        return Math.floorMod(node - partition, nodes) < replicationFactor;
    }

    /** The partitions whose groups {@code node} is a member of: its own and the {@code replicationFactor - 1} before it. */
    public List<Integer> groupsOf(int node) {
        List<Integer> out = new ArrayList<>(replicationFactor);
        for (int j = 0; j < replicationFactor; j++) out.add(Math.floorMod(node - j, nodes));
        return out;
    }
}
