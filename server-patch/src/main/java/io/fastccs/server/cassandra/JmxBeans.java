package io.fastccs.server.cassandra;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;

/** How the plugin puts its beans on the node's JMX server. */
final class JmxBeans {
    private JmxBeans() {
    }

    /** Registers {@code bean} under {@code name}, in place of one registered there before (a restarted plugin's). */
    static void replace(String name, Object bean) throws Exception {
        var server = ManagementFactory.getPlatformMBeanServer();
        ObjectName objectName = new ObjectName(name);
        if (server.isRegistered(objectName)) server.unregisterMBean(objectName);
        server.registerMBean(bean, objectName);
    }
}
