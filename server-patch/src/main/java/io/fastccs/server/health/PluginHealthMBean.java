package io.fastccs.server.health;

/** The health attributes of {@code io.fastccs:type=FastCcs}; see {@link PluginHealth}. */
public interface PluginHealthMBean {
    /** STARTING, SERVING or FAILED. */
    String getState();

    /** Why: what it waits for, what it serves, or what failed. */
    String getStateReason();
}
