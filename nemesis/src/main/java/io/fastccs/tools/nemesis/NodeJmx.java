package io.fastccs.tools.nemesis;

import io.fastccs.tools.cluster.Ports;

import javax.management.Attribute;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.util.Optional;

/**
 * One test-only control of the local cluster's nodes over JMX: a writable text attribute of a bean that a node opens
 * only when started with {@code setting}. Errors say which node and what to do.
 */
final class NodeJmx {
    private final Ports ports;
    private final ObjectName bean;
    private final String attribute;
    private final String setting;
    private final String example;
    /** What the control is and what it sets, in errors: "test clock control", "clock offset". */
    private final String control, value;

    NodeJmx(Ports ports, String bean, String attribute, String setting, String example, String control, String value) {
        this.ports = ports;
        try {
            this.bean = new ObjectName(bean);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalArgumentException(bean, e);
        }
        this.attribute = attribute;
        this.setting = setting;
        this.example = example;
        this.control = control;
        this.value = value;
    }

    /** Empty if {@code node} offers the control; else why not. */
    Optional<String> unusableReason(int node) {
        try {
            get(node);
            return Optional.empty();
        } catch (IllegalStateException e) {
            return Optional.of(e.getMessage());
        }
    }

    String get(int node) {
        return call(node, c -> String.valueOf(c.getAttribute(bean, attribute)));
    }

    void set(int node, String value) {
        call(node, c -> {
            c.setAttribute(bean, new Attribute(attribute, value));
            return null;
        });
    }

    private interface JmxCall<T> {
        T on(MBeanServerConnection c) throws Exception;
    }

    private <T> T call(int node, JmxCall<T> call) {
        try {
            JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + ports.jmx(node) + "/jmxrmi");
            try (JMXConnector connector = JMXConnectorFactory.connect(url)) {
                return call.on(connector.getMBeanServerConnection());
            }
        } catch (InstanceNotFoundException e) {
            throw new IllegalStateException("node " + node + " has no " + control + " (start it with the node setting "
                    + setting + ", e.g. " + setting + "=" + example + ")");
        } catch (MBeanException e) {
            throw new IllegalStateException("node " + node + " refused the " + value + ": " + e.getCause().getMessage(), e);
        } catch (RuntimeMBeanException e) {
            throw new IllegalStateException("node " + node + " refused the " + value + ": " + e.getTargetException().getMessage(), e);
        } catch (Exception e) {
            throw new IllegalStateException("node " + node + " (JMX port " + ports.jmx(node) + ") did not answer: " + e, e);
        }
    }
}
