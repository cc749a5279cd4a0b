package io.fastccs.tools.nemesis;

import io.fastccs.tools.cluster.Ports;

import javax.management.InstanceNotFoundException;
import javax.management.MBeanException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.util.Optional;

/**
 * Steps a running node's FastCCS clock over JMX ({@code io.fastccs:type=TestClock}, open only on nodes started with
 * the test-only setting {@code test_clock_offset}): the clock-offset fault, as an NTP step would, forwards or back.
 */
public final class NodeClockOffsets {
    /** The node setting that opens the control; the nemesis starts its clusters with it at zero. */
    public static final String SETTING = "test_clock_offset";
    private static final String BEAN = "io.fastccs:type=TestClock";

    private final Ports ports;

    public NodeClockOffsets(Ports ports) {
        this.ports = ports;
    }

    /** Empty if {@code node} offers the control; else why not. */
    public Optional<String> unusableReason(int node) {
        try {
            get(node);
            return Optional.empty();
        } catch (IllegalStateException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The node's offset now, as it reports it ({@code +0us}). */
    public String get(int node) {
        return call(node, c -> String.valueOf(c.getAttribute(new ObjectName(BEAN), "ClockOffset")));
    }

    /** Steps node's FastCCS clock to the wall clock plus {@code offset} (a signed duration: {@code -700ms}, {@code +2s}). */
    public void set(int node, String offset) {
        call(node, c -> {
            c.setAttribute(new ObjectName(BEAN), new javax.management.Attribute("ClockOffset", offset));
            return null;
        });
    }

    private interface JmxCall<T> {
        T on(javax.management.MBeanServerConnection c) throws Exception;
    }

    private <T> T call(int node, JmxCall<T> call) {
        try {
            JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + ports.jmx(node) + "/jmxrmi");
            try (JMXConnector connector = JMXConnectorFactory.connect(url)) {
                return call.on(connector.getMBeanServerConnection());
            }
        } catch (InstanceNotFoundException e) {
            throw new IllegalStateException("node " + node + " has no test clock control (start it with the node setting "
                    + SETTING + ", e.g. " + SETTING + "=0ms)");
        } catch (MBeanException e) {
            throw new IllegalStateException("node " + node + " refused the clock offset: " + e.getCause().getMessage(), e);
        } catch (javax.management.RuntimeMBeanException e) {
            throw new IllegalStateException("node " + node + " refused the clock offset: " + e.getTargetException().getMessage(), e);
        } catch (Exception e) {
            throw new IllegalStateException("node " + node + " (JMX port " + ports.jmx(node) + ") did not answer: " + e, e);
        }
    }
}
