package io.fastccs.core.messages;

/**
 * Every message of every protocol: client requests, their responses, messages between partitions, and the
 * connection's control messages. No protocol seals these types: each protocol's messages are records of its own that
 * implement them, and each protocol registers the wire mapping of its records with the wire codec.
 */
public interface Message {
    /** Bytes of keys and values among its encoded bytes; the rest is metadata (all of it, for most messages). */
    default long payloadBytes() {
        return 0;
    }

    /** Whether the message is stabilization (a partition telling others how far it has settled), for the measurements. */
    default boolean isStabilization() {
        return false;
    }
}
