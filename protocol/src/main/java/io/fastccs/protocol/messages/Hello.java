package io.fastccs.protocol.messages;

/**
 * The first frame on every connection. A client leaves {@code partition} at -1; a peer names the partition it
 * is, so the receiver knows who sends its peer messages. Credentials are checked when the node requires them.
 *
 * @param user     null when none is given
 * @param password null when none is given
 * @param target   the partition the connection is for, when the node hosts several (replicated partitions); -1: the
 *                 node's own
 */
public record Hello(int version, int partition, String user, String password, int target) implements ControlMessage {
    public static final int PROTOCOL_VERSION = 1;

    public Hello(int version, int partition, String user, String password) {
        this(version, partition, user, password, -1);
    }

    public static Hello client(String user, String password) {
        return new Hello(PROTOCOL_VERSION, -1, user, password);
    }

    public static Hello peer(int partition) {
        return new Hello(PROTOCOL_VERSION, partition, null, null);
    }

    /** The same Hello for a connection to partition {@code target}. */
    public Hello to(int target) {
        return new Hello(version, partition, user, password, target);
    }

    public boolean fromPeer() {
        return partition >= 0;
    }

    @Override
    public String toString() {
        return "Hello[version=" + version + ", partition=" + partition + ", user=" + user + (password == null ? "" : ", password=***")
                + (target < 0 ? "" : ", target=" + target) + "]";
    }
}
