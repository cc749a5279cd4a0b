package io.fastccs.protocol.messages;

/**
 * The first frame on every connection. A client leaves {@code partition} at -1; a peer names the partition it
 * is, so the receiver knows who sends its peer messages. Credentials are checked when the node requires them.
 *
 * @param user     null when none is given
 * @param password null when none is given
 */
public record Hello(int version, int partition, String user, String password) implements ControlMessage {
    public static final int PROTOCOL_VERSION = 1;

    public static Hello client(String user, String password) {
        return new Hello(PROTOCOL_VERSION, -1, user, password);
    }

    public static Hello peer(int partition) {
        return new Hello(PROTOCOL_VERSION, partition, null, null);
    }

    public boolean fromPeer() {
        return partition >= 0;
    }

    @Override
    public String toString() {
        return "Hello[version=" + version + ", partition=" + partition + ", user=" + user + (password == null ? "" : ", password=***") + "]";
    }
}
