/**
 * Cassandra's token ring on the client side: {@link io.fastccs.core.ring.Murmur3Token} hashes a key the way
 * Cassandra's Murmur3Partitioner does, and {@link io.fastccs.core.ring.TokenRing} maps tokens to partitions
 * as a {@link io.fastccs.core.api.Topology}. Pure: no I/O.
 */
package io.fastccs.core.ring;
