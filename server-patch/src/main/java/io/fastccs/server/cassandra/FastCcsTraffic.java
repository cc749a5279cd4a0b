package io.fastccs.server.cassandra;

import io.fastccs.server.transport.Traffic;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Map;

/** The {@link FastCcsTrafficMXBean} of the running node. */
final class FastCcsTraffic implements FastCcsTrafficMXBean {
    static final String NAME = "io.fastccs:type=Traffic";

    private final Traffic traffic;

    private FastCcsTraffic(Traffic traffic) {
        this.traffic = traffic;
    }

    static void register(Traffic traffic) throws Exception {
        var server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(NAME);
        if (server.isRegistered(name)) server.unregisterMBean(name);
        server.registerMBean(new FastCcsTraffic(traffic), name);
    }

    @Override
    public Map<String, Long> getCounters() {
        return traffic.snapshot();
    }
}
