package io.fastccs.server.config;

import io.fastccs.core.PartitionConfig;

import java.util.Locale;

/**
 * Every JVM property the plugin reads, with its default: the one place where they are named, as Cassandra names its
 * own in {@code CassandraRelevantProperties}. A setting {@code key} is read from {@code fastccs.yaml} (named by
 * {@link #CONFIG}) and from {@code -Dfastccs.<key>}, which wins; {@link FastCcsSettings} gives each its type.
 * Reading one touches no Cassandra class, so the agent may do it before the node has loaded its configuration.
 */
public enum FastCcsProperty {
    /** A {@code fastccs.yaml} file (a path or a file: URI) with any of the settings below. */
    CONFIG("fastccs.config", null),
    PORT("port", "9142"),
    /** The number of partitions the plugin waits for before it serves; 0: whatever the ring settles on. */
    PARTITIONS("partitions", "0"),
    RING_SETTLE_TIME("ring_settle_time", "10s"),
    /** How long the agent waits for the node to reach NORMAL mode before it gives up (state FAILED). */
    STARTUP_TIMEOUT("startup_timeout", "10m"),
    TRANSACTION_TIMEOUT("transaction_timeout", "2s"),
    CHECK_INTERVAL("check_interval", "200ms"),
    STABILIZATION_INTERVAL("stabilization_interval", "5ms"),
    STABILIZATION_HEARTBEAT("stabilization_heartbeat", "1s"),
    /**
     * Up to this many + 1 partitions, every partition sends its settled prefix to every other (the thesis); beyond, they
     * stabilize up and down a tree of this fan-out, 2(N-1) messages an interval instead of N(N-1).
     */
    STABILIZATION_FANOUT("stabilization_fanout", String.valueOf(PartitionConfig.DEFAULT_STABILIZATION_FANOUT)),
    GC_INTERVAL("gc_interval", "500ms"),
    /** Unset: the transaction timeout (a round two may come that late). */
    VERSION_RETENTION("version_retention", null),
    DECISION_RETENTION("decision_retention", "60s"),
    VERSION_CACHE_KEYS("version_cache_keys", "100000"),
    /** Threads that read versions missing from the cache from disk, off the protocol thread. */
    CACHE_LOADER_THREADS("cache_loader_threads", "4"),
    MAX_KEYS_PER_REQUEST("max_keys_per_request", "1024"),
    MAX_KEY_SIZE("max_key_size", "65535B"),
    MAX_VALUE_SIZE("max_value_size", "1MiB"),
    MAX_FRAME_SIZE("max_frame_size", "16MiB"),
    KEYSPACE("keyspace", "fastccs"),
    /**
     * Replicas per partition: 1 is one node per partition (the thesis's setting); 3 makes each partition a Raft group
     * of the node owning its token range and the next two in token order (thesis section 3.8).
     */
    REPLICATION_FACTOR("replication_factor", "1"),
    /**
     * The consistency protocols the node runs: fastccs, and/or those the thesis compares it with (eiger, wren,
     * eventual), comma-separated, all on the one port (a connection names its protocol in its Hello), for side-by-side
     * measurements; every node of a cluster must name the same ones, and a client one of them.
     */
    PROTOCOL("protocol", "fastccs"),
    /** The consensus port of replicated partitions, the same on every node, on the node's listen address. */
    RAFT_PORT("raft_port", "9143"),
    /** Where replicated partitions keep their logs and snapshots; unset: {@code fastccs-raft} beside the first data directory. */
    RAFT_DIRECTORY("raft_directory", null),
    /**
     * Test only: shifts the wall clock FastCCS uses on this node by a signed duration ({@code -700ms}, {@code +2s}),
     * and, when given at all, opens the JMX operation that changes it while the node runs (the nemesis's clock
     * fault). Never set it in production.
     */
    TEST_CLOCK_OFFSET("test_clock_offset", "0ms"),
    /**
     * Test only: the nodes (listen addresses, comma-separated, or {@code none}) this node's consensus traffic is cut off
     * from, both ways, while every other port stays open; when given at all, opens the JMX control that changes it
     * while the node runs (the nemesis's leader cut-off). Never set it in production.
     */
    TEST_RAFT_CUT_OFF("test_raft_cut_off", "none"),
    /**
     * A group member snapshots its tables after this many log entries and drops the log before; a member that falls
     * further behind, or replaces a wiped one, is caught up by the snapshot.
     */
    RAFT_SNAPSHOT_INTERVAL("raft_snapshot_interval", "100000"),
    /**
     * A group member flushes its FastCCS tables after this many applied entries and records how far they are on disk,
     * so that a restart replays only the entries after that point instead of everything since the last snapshot.
     */
    RAFT_FLUSH_INTERVAL("raft_flush_interval", "20000"),
    /**
     * Cassandra 5.0's own {@code cassandra.schema.update_handler_factory.class}
     * ({@code CassandraRelevantProperties.SCHEMA_UPDATE_HANDLER_FACTORY_CLASS}), which the agent sets so that our
     * node-local keyspace is registered before commit-log replay. Not a FastCCS setting.
     */
    SCHEMA_UPDATE_HANDLER_FACTORY("cassandra.schema.update_handler_factory.class", null, false);

    /** The key in {@code fastccs.yaml}, or the full property name of {@link #CONFIG} and Cassandra's own. */
    public final String key;
    /** The JVM property: {@code fastccs.<key>} for settings. */
    public final String property;
    /** The default as text, in the same form a user writes it; null where there is none. */
    public final String defaultValue;
    final boolean isSetting;

    FastCcsProperty(String key, String defaultValue) {
        this(key, defaultValue, !key.startsWith("fastccs."));
    }

    FastCcsProperty(String key, String defaultValue, boolean isSetting) {
        this.key = key;
        this.property = isSetting ? "fastccs." + key : key;
        this.defaultValue = defaultValue;
        this.isSetting = isSetting;
    }

    /** The JVM property's value, or null. */
    public String getString() {
        return System.getProperty(property);
    }

    public void setString(String value) {
        System.setProperty(property, value);
    }

    /** The setting with this yaml key, or null. */
    static FastCcsProperty setting(String key) {
        for (FastCcsProperty p : values())
            if (p.isSetting && p.key.equals(key)) return p;
        return null;
    }

    static String knownSettings() {
        StringBuilder b = new StringBuilder();
        for (FastCcsProperty p : values())
            if (p.isSetting) b.append(b.length() == 0 ? "" : ", ").append(p.key);
        return b.toString();
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
