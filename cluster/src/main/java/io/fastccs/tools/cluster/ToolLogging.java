package io.fastccs.tools.cluster;

/**
 * Logging for the command-line tools: slf4j-simple printing warnings only, without thread and logger names, unless
 * the user set those properties. Here because every {@code bin/fastccs} tool depends on the cluster tool.
 */
public final class ToolLogging {
    private ToolLogging() {
    }

    public static void quiet() {
        ToolProperty.LOG_LEVEL.setIfAbsent("warn");
        ToolProperty.LOG_THREAD_NAME.setIfAbsent("false");
        ToolProperty.LOG_LOGGER_NAME.setIfAbsent("false");
    }
}
