package io.fastccs.server.groups;

import java.util.Map;
import java.util.TreeMap;

/**
 * The groups a node leads, with their terms, as it tells every other node (through Cassandra's gossip): how a node
 * that is not a member of a group, or a member during an election, learns who leads it. Encoded as
 * {@code "0@5,3@2"} (partition@term). Of two nodes claiming a group, the higher term wins: a deposed leader's claim
 * stays in gossip until it notices, but its successor's term is higher.
 */
public final class LeaderClaims {
    private LeaderClaims() {
    }

    public static String encode(Map<Integer, Long> termByPartition) {
        StringBuilder out = new StringBuilder();
        new TreeMap<>(termByPartition).forEach((p, t) -> out.append(out.isEmpty() ? "" : ",").append(p).append('@').append(t));
        return out.toString();
    }

    /** The partitions and terms in {@code encoded}; entries that do not parse are skipped (a newer node's format). */
    public static Map<Integer, Long> decode(String encoded) {
        Map<Integer, Long> out = new TreeMap<>();
        if (encoded == null || encoded.isEmpty()) return out;
        for (String claim : encoded.split(",")) {
            int at = claim.indexOf('@');
            if (at <= 0) continue;
            try {
                out.put(Integer.parseInt(claim.substring(0, at)), Long.parseLong(claim.substring(at + 1)));
            } catch (NumberFormatException e) {
                // skip it
            }
        }
        return out;
    }

    /**
     * The node whose claim to lead {@code partition} has the highest term, or -1 if none claims it.
     *
     * @param claimsByNode each live node's decoded claims, indexed by node rank (null for nodes not known alive)
     */
    public static int leaderOf(int partition, java.util.List<Map<Integer, Long>> claimsByNode) {
        int best = -1;
        long bestTerm = Long.MIN_VALUE;
        for (int node = 0; node < claimsByNode.size(); node++) {
            Map<Integer, Long> claims = claimsByNode.get(node);
            Long term = claims == null ? null : claims.get(partition);
            if (term != null && term > bestTerm) {
                best = node;
                bestTerm = term;
            }
        }
        return best;
    }

    /** Where a node publishes its own claims and reads the others' (Cassandra's gossip in the plugin). */
    public interface Gossip {
        void publish(Map<Integer, Long> termByPartition);

        /** The live node whose claim to lead {@code partition} has the highest term, or -1. */
        int leaderOf(int partition);
    }
}
