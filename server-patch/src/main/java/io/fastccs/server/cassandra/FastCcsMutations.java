package io.fastccs.server.cassandra;

import io.fastccs.server.storage.StoreMutations;

import java.util.Map;

/** The {@link FastCcsMutationsMXBean} of the running node. */
final class FastCcsMutations implements FastCcsMutationsMXBean {
    static final String NAME = "io.fastccs:type=Mutations";

    private FastCcsMutations() {
    }

    static void register() throws Exception {
        JmxBeans.replace(NAME, new FastCcsMutations());
    }

    @Override
    public Map<String, Long> getCounters() {
        return StoreMutations.snapshot();
    }
}
