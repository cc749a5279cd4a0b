package io.fastccs.tools.soak;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** One node's figures at one moment, read over JMX (FastCCS's MBean and the JVM's) and from its data directory. */
record NodeSample(int node, long heapUsedBytes, long versionRows, long versionsCollected, long writesCommitted,
                  long writesAborted, int unsettled, int pending, long clockAhead, long versionsDiskBytes) {

    static NodeSample take(int node, int jmxPort, Path dataDir) throws Exception {
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi");
        try (JMXConnector connector = JMXConnectorFactory.connect(url)) {
            MBeanServerConnection c = connector.getMBeanServerConnection();
            ObjectName fastccs = new ObjectName("io.fastccs:type=FastCcs");
            CompositeData heap = (CompositeData) c.getAttribute(new ObjectName("java.lang:type=Memory"), "HeapMemoryUsage");
            return new NodeSample(node, (Long) heap.get("used"), (Long) c.getAttribute(fastccs, "VersionRows"),
                    (Long) c.getAttribute(fastccs, "VersionsCollected"), (Long) c.getAttribute(fastccs, "WritesCommitted"),
                    (Long) c.getAttribute(fastccs, "WritesAborted"), (Integer) c.getAttribute(fastccs, "UnsettledTransactions"),
                    (Integer) c.getAttribute(fastccs, "PendingTransactions"), (Long) c.getAttribute(fastccs, "ClockAhead"),
                    versionsOnDisk(dataDir));
        }
    }

    /** Bytes of the fastccs.versions table's sstables under the node's data directory. */
    static long versionsOnDisk(Path dataDir) throws IOException {
        if (dataDir == null || !Files.isDirectory(dataDir)) return -1;
        try (Stream<Path> files = Files.walk(dataDir)) {
            return files.filter(p -> p.toString().contains("/fastccs/versions-") && Files.isRegularFile(p))
                    .mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
