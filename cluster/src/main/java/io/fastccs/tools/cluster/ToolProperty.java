package io.fastccs.tools.cluster;

/**
 * Every JVM property the command-line tools read or set, and the environment variables they read: the one place
 * where they are named, as {@code io.fastccs.server.config.FastCcsProperty} is the plugin's and Cassandra's
 * {@code CassandraRelevantProperties} its own. Here because every {@code bin/fastccs} tool depends on the cluster tool.
 */
public enum ToolProperty {
    /**
     * Seconds a node may serve CQL before its plugin must answer the handshake; unset: the cluster tool's own grace.
     * The nemesis and the replication experiment raise it when the user did not set it.
     */
    PLUGIN_GRACE_SECONDS("fastccs.cluster.pluginGraceSeconds"),
    /** {@code true}: the nemesis also wipes a node's disk and brings it back as a replacement (its {@code --with-wipe}). */
    NEMESIS_WIPE("fastccs.nemesis.wipe"),
    /** This JVM's installation directory. */
    JAVA_HOME("java.home"),
    /** Bounds an RMI (JMX) read from a hung node, in milliseconds; read by the JDK at its first use of RMI. */
    RMI_RESPONSE_TIMEOUT("sun.rmi.transport.tcp.responseTimeout"),
    /** Bounds an RMI (JMX) connect to a hung node, in milliseconds; read by the JDK at its first use of RMI. */
    RMI_CONNECTION_TIMEOUT("sun.rmi.transport.connectionTimeout"),
    /** slf4j-simple's level, and whether it prints thread and logger names ({@link ToolLogging}). */
    LOG_LEVEL("org.slf4j.simpleLogger.defaultLogLevel"),
    LOG_THREAD_NAME("org.slf4j.simpleLogger.showThreadName"),
    LOG_LOGGER_NAME("org.slf4j.simpleLogger.showLogName");

    /** The JVM property. */
    public final String property;

    ToolProperty(String property) {
        this.property = property;
    }

    /** The property's value, or null. */
    public String get() {
        return System.getProperty(property);
    }

    /** The value as a number, or null when unset or not a number (as {@link Long#getLong(String)}). */
    public Long getLong() {
        return Long.getLong(property);
    }

    /** Whether the value is {@code true} (as {@link Boolean#getBoolean(String)}). */
    public boolean getBoolean() {
        return Boolean.getBoolean(property);
    }

    public void set(String value) {
        System.setProperty(property, value);
    }

    /** Sets it unless the user (or an earlier call) did. */
    public void setIfAbsent(String value) {
        if (get() == null) set(value);
    }

    /** The environment variables the tools read. */
    public enum Env {
        JAVA_HOME, PATH;

        /** The variable's value, or null. */
        public String get() {
            return System.getenv(name());
        }
    }
}
