package io.fastccs.server.cassandra;

import java.util.List;

/**
 * With replicated partitions, which groups this node leads, as JMX attributes of {@code io.fastccs:type=Groups}.
 * {@code PreferredNotLeading} lists the groups whose preferred member this node is but which another member leads (or
 * none yet): once it is empty on every node, every group's leadership has come back to its preferred member, and the
 * local cluster tool's start says the cluster serves.
 */
public interface FastCcsGroupsMXBean {
    List<Integer> getLeading();

    List<Integer> getPreferredNotLeading();
}
