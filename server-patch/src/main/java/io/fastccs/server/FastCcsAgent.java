package io.fastccs.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;

/**
 * The plugin's entry point: {@code -javaagent:/path/to/fastccs-server-patch-agent.jar} on a stock Cassandra 5.0
 * node. {@code premain} runs before Cassandra has read its configuration, so it touches no Cassandra class: a daemon
 * thread waits (through JMX, which needs none of them) until the node reports operation mode NORMAL, and only then
 * starts FastCCS. The node itself starts and serves CQL exactly as without the agent.
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
        try {
            MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
            ObjectName storageService = new ObjectName("org.apache.cassandra.db:type=StorageService");
            while (true) {
                if (mbeans.isRegistered(storageService)
                        && "NORMAL".equals(String.valueOf(mbeans.getAttribute(storageService, "OperationMode")))) break;
                Thread.sleep(200);
            }
            // Loaded only now: the node's logging and configuration are initialized.
            Class.forName("io.fastccs.server.cassandra.FastCcsPlugin").getMethod("start").invoke(null);
        } catch (Throwable t) {
            Logger logger = LoggerFactory.getLogger(FastCcsAgent.class);
            logger.error("FastCCS failed to start; the node keeps serving CQL without FastCCS", t);
        }
    }
}
