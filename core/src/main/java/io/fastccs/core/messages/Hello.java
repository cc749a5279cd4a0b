package io.fastccs.core.messages;

import io.fastccs.core.primitives.Protocol;

import java.util.Objects;

/**
 * The first frame on every connection. A client leaves {@code partition} at -1; a peer names the partition it
 * is, so the receiver knows who sends its peer messages. Credentials are checked when the node requires them.
 *
 * @param user     null when none is given
 * @param password null when none is given
 * @param target   the partition the connection is for, when the node hosts several (replicated partitions); -1: the
 *                 node's own
 * @param protocol the consistency protocol the sender speaks; a node running another one refuses the connection
 *                 (absent on the wire: FastCCS, what every client spoke before the word existed)
 */
public record Hello(int version, int partition, String user, String password, int target, Protocol protocol)
        implements ControlMessage {
    public static final int PROTOCOL_VERSION = 1;

    public Hello {
        Objects.requireNonNull(protocol, "protocol");
    }

    public Hello(int version, int partition, String user, String password) {
        this(version, partition, user, password, -1, Protocol.FASTCCS);
    }

    public static Hello client(String user, String password) {
        return new Hello(PROTOCOL_VERSION, -1, user, password);
    }

    public static Hello peer(int partition) {
        return new Hello(PROTOCOL_VERSION, partition, null, null);
    }

    /** The same Hello for a connection to partition {@code target}. */
    public Hello to(int target) {
        return new Hello(version, partition, user, password, target, protocol);
    }

    /** The same Hello from a speaker of {@code protocol}. */
    public Hello speaking(Protocol protocol) {
        return new Hello(version, partition, user, password, target, protocol);
    }

    public boolean fromPeer() {
        return partition >= 0;
    }

    @Override
    public String toString() {
        return "Hello[version=" + version + ", partition=" + partition + ", user=" + user + (password == null ? "" : ", password=***")
                + (target < 0 ? "" : ", target=" + target) + ", protocol=" + protocol.word() + "]";
    }
}
