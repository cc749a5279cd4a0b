package io.fastccs.tools.cluster;

/**
 * Logging for the command-line tools: slf4j-simple printing warnings only, without thread and logger names, unless
 * the user set those properties. Here because every {@code bin/fastccs} tool depends on the cluster tool.
 */
public final class ToolLogging {
    private ToolLogging() {
    }

    public static void quiet() {
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setIfAbsent("org.slf4j.simpleLogger.showThreadName", "false");
        setIfAbsent("org.slf4j.simpleLogger.showLogName", "false");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) System.setProperty(key, value);
    }
}
