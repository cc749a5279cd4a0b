package io.fastccs.protocol.messages;

/**
 * One partition of the ring.
 *
 * @param token the partition's Murmur3 token: it owns the keys whose token is in (previous token, token]
 * @param alive whether the answering node currently sees it up
 */
public record RingMember(int partition, String host, int port, long token, boolean alive) {
}
