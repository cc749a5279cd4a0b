/**
 * The host of one FastCCS partition, as pure code: what may leave when. A host runs the
 * {@link io.fastccs.protocol.partition.Partition} on one thread and holds every message until the store writes made
 * before it are durable; it tells the partition which part of its settled prefix is durable, lets read answers within
 * that part leave at once, makes client replies of a replicated partition wait for a lease check, and holds back
 * requests whose keys are not in memory
 * (docs/design/replication-reads.md, "What a read answer rests on"; docs/design/cache-misses.md, "Cache misses off the
 * protocol thread").
 *
 * <p>{@link io.fastccs.protocol.host.PartitionHost} has no threads, clock or I/O of its own: a node runs it on its
 * protocol thread with its Cassandra store, the simulator on simulated time with a simulated replica group, through
 * {@link io.fastccs.protocol.host.HostEnvironment} and {@link io.fastccs.protocol.host.DurablePartitionStore}.
 */
package io.fastccs.protocol.host;
