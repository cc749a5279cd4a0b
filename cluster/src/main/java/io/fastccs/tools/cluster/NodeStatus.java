package io.fastccs.tools.cluster;

/**
 * One node as {@link LocalCluster#status()} found it.
 *
 * @param pid           the pid this tool started the node with, 0 when none is recorded
 * @param processAlive  that pid is alive and is this node's Cassandra (a reused pid does not count)
 * @param rssBytes      resident memory from /proc, -1 when not running
 * @param liveNodesSeen how many nodes (itself included) the node's gossip considers up, -1 when JMX does not answer
 * @param pluginProblem why the plugin FAILED, as its health bean says; null when it did not
 */
public record NodeStatus(int node, String address, long pid, boolean processAlive, boolean cqlUp,
                         FastCcs fastccs, long rssBytes, int liveNodesSeen, String pluginProblem) {
    /** The plugin's port: OFF when the cluster runs without the plugin; FAILED when the plugin gave up starting. */
    public enum FastCcs { OFF, UP, DOWN, FAILED }

    /** Running and answering on every port it should. */
    public boolean serving() {
        return processAlive && cqlUp && (fastccs == FastCcs.OFF || fastccs == FastCcs.UP);
    }
}
