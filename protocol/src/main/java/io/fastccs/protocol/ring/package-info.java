/**
 * Cassandra's token ring on the client side: {@link io.fastccs.protocol.ring.Murmur3Token} hashes a key the way
 * Cassandra's Murmur3Partitioner does, and {@link io.fastccs.protocol.ring.TokenRing} maps tokens to partitions
 * as a {@link io.fastccs.protocol.api.Topology}. Pure: no I/O.
 */
package io.fastccs.protocol.ring;
