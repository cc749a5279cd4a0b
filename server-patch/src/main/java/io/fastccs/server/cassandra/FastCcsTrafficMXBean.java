package io.fastccs.server.cassandra;

import java.util.Map;

/**
 * Frames and bytes through the node's FastCCS port, per protocol, as the JMX attribute {@code Counters} of
 * {@code io.fastccs:type=Traffic}: totals since the node started, named {@code <protocol>.<kind>.frames} and
 * {@code <protocol>.<kind>.bytes}, the kind being {@code client_requests}, {@code client_answers} or
 * {@code peer_messages} (counted where they arrive). The experiments read it before and after each run.
 */
public interface FastCcsTrafficMXBean {
    Map<String, Long> getCounters();
}
