package io.fastccs.core.api;

/**
 * What a host keeps for a partition across the partition's crashes, for a protocol with crash recovery
 * (the capability {@code CRASH_RECOVERY}): each such protocol names the kind of storage it needs (FastCCS
 * its {@code PartitionStore}), and its factory takes nothing else.
 */
public interface PartitionStorage {
}
