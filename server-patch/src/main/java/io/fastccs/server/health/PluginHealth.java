package io.fastccs.server.health;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import java.lang.management.ManagementFactory;

/**
 * Whether FastCCS serves on this node, for operators: the JMX attributes {@code State} (STARTING, SERVING, FAILED)
 * and {@code StateReason} of {@code io.fastccs:type=FastCcs}. The agent registers them before the node starts, so
 * a plugin that never comes up shows FAILED with its reason instead of a node that silently serves CQL alone; once
 * serving, the full metrics bean takes the same name and keeps these two attributes. Refers to no Cassandra class.
 */
public final class PluginHealth implements PluginHealthMBean {
    public static final String MBEAN_NAME = "io.fastccs:type=FastCcs";

    public enum State { STARTING, SERVING, FAILED }

    private static final PluginHealth INSTANCE = new PluginHealth();

    private volatile State state = State.STARTING;
    private volatile String reason = "waiting for the node to reach NORMAL mode";

    private PluginHealth() {
    }

    /** The node's one health record (the plugin is one per JVM, as the agent is). */
    public static PluginHealth get() {
        return INSTANCE;
    }

    public void serving(String why) {
        set(State.SERVING, why);
    }

    public void failed(String why) {
        set(State.FAILED, why);
    }

    public void starting(String why) {
        set(State.STARTING, why);
    }

    private synchronized void set(State s, String why) {
        state = s;
        reason = why;
    }

    public State state() {
        return state;
    }

    @Override
    public String getState() {
        return state.name();
    }

    @Override
    public String getStateReason() {
        return reason;
    }

    /** Registers the health-only bean under {@link #MBEAN_NAME} unless a bean is there already. */
    public void registerEarly() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(MBEAN_NAME);
        if (!server.isRegistered(name)) server.registerMBean(new StandardMBean(this, PluginHealthMBean.class), name);
    }
}
