package io.fastccs.server.health;

import org.junit.jupiter.api.Test;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;

class PluginHealthTest {
    @Test
    void stateIsVisibleInJmxFromTheStart() throws Exception {
        PluginHealth health = PluginHealth.get();
        health.starting("waiting for the node to reach NORMAL mode");
        health.registerEarly();
        var server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(PluginHealth.MBEAN_NAME);
        assertThat(server.getAttribute(name, "State")).isEqualTo("STARTING");
        health.failed("gave up waiting");
        assertThat(server.getAttribute(name, "State")).isEqualTo("FAILED");
        assertThat(server.getAttribute(name, "StateReason")).isEqualTo("gave up waiting");
        health.serving("partition 0 of 3");
        assertThat(server.getAttribute(name, "State")).isEqualTo("SERVING");
        server.unregisterMBean(name);
    }
}
