package io.fastccs.server.groups;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * How a node's consensus server starts (docs/design/replication-replacement.md, "The decision"): it resumes the storage
 * it has, forms new groups (a new ring), or, its storage lost, rejoins its groups under a new member id in place of the
 * one it had. It never comes back under an id whose term and log it has forgotten: that member could vote twice in a
 * term or elect a leader without committed entries.
 *
 * @param memberId   the id this node runs its groups under
 * @param replacedId with {@link Mode#REPLACE}, the id its groups name at this node's address, which {@code memberId}
 *                   replaces (null when none names one there any more: an earlier replacement dropped it and stopped
 *                   before adding its own); else null
 */
public record ConsensusStart(Mode mode, String memberId, String replacedId) {
    public enum Mode { RESUME, FORM, REPLACE }

    /**
     * What Cassandra says about this start.
     *
     * @param hostId          this node's Cassandra host id
     * @param replacingItself this boot replaced the node at this node's own address ({@code replace_address_first_boot}
     *                        naming it): its data was wiped, and Cassandra kept its host id
     * @param replacedAddress the address this boot replaced when it is another node's (a node moved to a new
     *                        address), else null
     * @param memberBefore    why this node's Cassandra data shows it was a member of its groups before (its data
     *                        directory names its member id, or its local tables hold FastCCS records); null if nothing does
     */
    public record NodeFacts(String hostId, boolean replacingItself, String replacedAddress, String memberBefore) {
    }

    /**
     * What the consensus storage and the groups say.
     *
     * @param storageHoldsGroups the consensus storage holds groups (a restart)
     * @param storedMemberId     the member id recorded in that storage; empty for storage made before ids were recorded
     * @param idAtOwnAddress     per group of this node: the member id the group names at this node's consensus address
     *                           (empty if it names none there); a group no member answered for is absent
     * @param groups             every group this node is a member of
     */
    public record GroupFacts(boolean storageHoldsGroups, Optional<String> storedMemberId,
                             Map<Integer, Optional<String>> idAtOwnAddress, List<Integer> groups) {
    }

    /**
     * @throws IllegalStateException saying what happened and what to do, when the node must not start its groups
     */
    public static ConsensusStart decide(NodeFacts node, GroupFacts groups, String storageDir, String ownAddress) {
        if (node.replacedAddress() != null)
            throw new IllegalStateException("this node replaced " + node.replacedAddress() + ", another node's address: with "
                    + "replicated partitions a group member cannot move to a new address yet (a ring change). Replace a "
                    + "node at its own address (-Dcassandra.replace_address_first_boot=" + ownAddress + ")");
        if (groups.storageHoldsGroups())
            return new ConsensusStart(Mode.RESUME, groups.storedMemberId().orElse(MemberIds.first(node.hostId())), null);
        Map<Integer, String> named = new LinkedHashMap<>();
        groups.idAtOwnAddress().forEach((group, id) -> id.ifPresent(i -> named.put(group, i)));
        if (node.replacingItself()) {
            List<Integer> silent = groups.groups().stream().filter(g -> !groups.idAtOwnAddress().containsKey(g)).toList();
            if (!silent.isEmpty())
                throw new IllegalStateException("this node replaces itself, but no member of groups " + silent
                        + " answered: it needs each group's members to rejoin it (is a majority of a group down?)");
            TreeSet<String> ids = new TreeSet<>(named.values());
            if (ids.size() > 1)
                throw new IllegalStateException("this node's groups name different members at " + ownAddress + " " + named
                        + ": not replacing on a guess");
            // A group that names nobody here lost its member at this address to an earlier replacement that stopped
            // between its two steps (the old member dropped, the new one not yet added): it gets this member added.
            // When no group names one any more, the id the last incarnation had is unknown; the next one after the
            // host id is taken, which no group's configuration holds (a dropped id is never voted with again).
            if (ids.isEmpty()) return new ConsensusStart(Mode.REPLACE, MemberIds.next(MemberIds.first(node.hostId())), null);
            String replaced = ids.first();
            return new ConsensusStart(Mode.REPLACE, MemberIds.next(replaced), replaced);
        }
        // A new ring: the other members may have formed the groups already (nodes start at different times), naming
        // this node by its host id. Anything else means this node ran its groups before and lost their storage.
        String first = MemberIds.first(node.hostId());
        Map<Integer, String> otherIds = new LinkedHashMap<>(named);
        otherIds.values().removeIf(first::equals);
        String evidence = node.memberBefore() != null ? node.memberBefore()
                : !otherIds.isEmpty() ? "its groups name it " + otherIds : null;
        if (evidence != null)
            throw new IllegalStateException("the consensus storage " + storageDir + " is empty, but this node was a member "
                    + "of its groups (" + evidence + "): its Raft term and log are lost, and under its old id it could "
                    + "vote against what its groups committed. Replace it: stop it, delete its data, commitlog, "
                    + "saved_caches and hints directories and " + storageDir + ", and start it with "
                    + "-Dcassandra.replace_address_first_boot=" + ownAddress
                    + " (bin/fastccs cluster replace K does all that on a local cluster)");
        return new ConsensusStart(Mode.FORM, first, null);
    }
}
