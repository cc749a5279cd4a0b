package io.fastccs.server;

import io.fastccs.server.config.FastCcsSettings;
import io.fastccs.server.health.PluginHealth;
import io.fastccs.server.node.MonotonicClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

/**
 * The plugin's entry point: {@code -javaagent:/path/to/fastccs-server-patch-agent.jar} on a stock Cassandra 5.0
 * node. {@code premain} runs before Cassandra has read its configuration, so it loads no class that needs it: a daemon
 * thread waits (through JMX, which needs none of them) until the node reports operation mode NORMAL, and only then
 * starts FastCCS. The node itself starts and serves CQL exactly as without the agent. If the node does not reach
 * NORMAL within {@code startup_timeout}, or FastCCS fails to start, the agent says so in the log and in the JMX
 * attribute {@code State} ({@link PluginHealth}).
 */
public final class FastCcsAgent {
    private FastCcsAgent() {
    }

    public static void premain(String args, Instrumentation instrumentation) {
        // Our node-local keyspace must be known before the commit log is replayed, at every start.
        io.fastccs.server.storage.StorageStartupHook.install();
        Thread starter = new Thread(FastCcsAgent::startWhenNodeIsUp, "fastccs-starter");
        starter.setDaemon(true);
        starter.start();
    }

    private static void startWhenNodeIsUp() {
        PluginHealth health = PluginHealth.get();
        try {
            health.registerEarly();
            // Settings first: a bad value fails at once, with its key named, instead of after the node is up.
            long deadline = MonotonicClock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FastCcsSettings.load().startupTimeout().toMilliseconds());
            MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
            ObjectName storageService = new ObjectName("org.apache.cassandra.db:type=StorageService");
            String mode = "not started";
            while (!"NORMAL".equals(mode)) {
                if (MonotonicClock.nanoTime() - deadline > 0) {
                    String why = "gave up waiting for the node to reach NORMAL mode (it is " + mode + ") after startup_timeout; "
                            + "the node serves CQL without FastCCS";
                    health.failed(why);
                    LoggerFactory.getLogger(FastCcsAgent.class).error("FastCCS {}", why);
                    return;
                }
                Thread.sleep(200);
                if (mbeans.isRegistered(storageService)) mode = String.valueOf(mbeans.getAttribute(storageService, "OperationMode"));
            }
            health.starting("the node is in NORMAL mode; FastCCS is starting");
            // Loaded only now: the node's logging and configuration are initialized.
            Class.forName("io.fastccs.server.cassandra.FastCcsPlugin").getMethod("start").invoke(null);
        } catch (Throwable t) {
            Throwable cause = t instanceof java.lang.reflect.InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : t;
            health.failed("FastCCS failed to start: " + cause + "; the node serves CQL without FastCCS");
            Logger logger = LoggerFactory.getLogger(FastCcsAgent.class);
            logger.error("FastCCS failed to start; the node keeps serving CQL without FastCCS", cause);
        }
    }
}
