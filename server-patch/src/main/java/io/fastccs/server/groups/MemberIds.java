package io.fastccs.server.groups;

/**
 * A node's id in its replica groups: its Cassandra host id while it keeps its consensus storage, and a new id each time
 * it comes back without it ({@code <host id>.2}, {@code .3}...). Cassandra keeps the host id when a node replaces
 * itself at its own address (StorageService.prepareForReplacement takes the replaced node's), so the host id alone
 * cannot tell a member that forgot its term and log from the one that had them.
 */
final class MemberIds {
    private static final char INCARNATION = '.';

    private MemberIds() {
    }

    /** The id a node first joins its groups under. */
    static String first(String hostId) {
        if (hostId.indexOf(INCARNATION) >= 0) throw new IllegalArgumentException("a host id has no '.': " + hostId);
        return hostId;
    }

    /** The id of the member that replaces {@code id} after its storage was lost. */
    static String next(String id) {
        int dot = id.lastIndexOf(INCARNATION);
        if (dot < 0) return id + INCARNATION + 2;
        int incarnation;
        try {
            incarnation = Integer.parseInt(id.substring(dot + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a FastCCS member id: " + id);
        }
        return id.substring(0, dot) + INCARNATION + (incarnation + 1);
    }

    /** The Cassandra host id a member id belongs to. */
    static String hostIdOf(String id) {
        int dot = id.indexOf(INCARNATION);
        return dot < 0 ? id : id.substring(0, dot);
    }
}
