package io.fastccs.server.cassandra;

import java.util.Map;

/**
 * Cassandra mutations this node's protocol stores issued, as the JMX attribute {@code Counters} of
 * {@code io.fastccs:type=Mutations}: totals since the node started, named {@code <protocol>.<kind>} ({@code
 * fastccs.prepare}, {@code fastccs.version}, {@code eiger.compared_write}; the kinds are
 * {@link io.fastccs.server.storage.StoreMutations.Kind}'s). The experiments read it before and after each run and divide
 * by the transactions run.
 */
public interface FastCcsMutationsMXBean {
    Map<String, Long> getCounters();
}
