package io.fastccs.server.cassandra;

import io.fastccs.server.groups.PartitionGroups;

import java.util.List;

/** The {@link FastCcsGroupsMXBean} of the running node. */
final class FastCcsGroups implements FastCcsGroupsMXBean {
    static final String NAME = "io.fastccs:type=Groups";

    private final PartitionGroups groups;

    private FastCcsGroups(PartitionGroups groups) {
        this.groups = groups;
    }

    static void register(PartitionGroups groups) throws Exception {
        JmxBeans.replace(NAME, new FastCcsGroups(groups));
    }

    @Override
    public List<Integer> getLeading() {
        return groups.leading();
    }

    @Override
    public List<Integer> getPreferredNotLeading() {
        return groups.preferredNotLeading();
    }
}
