package io.fastccs.server.cassandra;

import io.fastccs.server.transport.Traffic;

import java.util.Map;

/** The {@link FastCcsTrafficMXBean} of the running node. */
final class FastCcsTraffic implements FastCcsTrafficMXBean {
    static final String NAME = "io.fastccs:type=Traffic";

    private final Traffic traffic;

    private FastCcsTraffic(Traffic traffic) {
        this.traffic = traffic;
    }

    static void register(Traffic traffic) throws Exception {
        JmxBeans.replace(NAME, new FastCcsTraffic(traffic));
    }

    @Override
    public Map<String, Long> getCounters() {
        return traffic.snapshot();
    }
}
