package io.fastccs.server.config;

import java.util.List;
import io.fastccs.core.spi.Capability;
import io.fastccs.core.spi.Protocols;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.PartitionConfig;
import org.apache.cassandra.config.DataStorageSpec;
import org.apache.cassandra.config.DurationSpec;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The plugin's settings, in Cassandra's conventions: an optional {@code fastccs.yaml} (snake_case keys, units in the
 * values: {@code transaction_timeout: 2s}, {@code max_value_size: 1MiB}) named by {@code -Dfastccs.config}, and JVM
 * properties {@code -Dfastccs.<key>=<value>} that override it. Units are parsed by Cassandra's own
 * {@link DurationSpec} and {@link DataStorageSpec}, as in {@code cassandra.yaml}; the keys and their defaults are
 * {@link FastCcsProperty}. Every key has a default, so the agent alone works.
 */
public record FastCcsSettings(
        int port,
        int partitions,
        DurationSpec.LongMicrosecondsBound ringSettleTime,
        DurationSpec.LongMillisecondsBound startupTimeout,
        DurationSpec.LongMicrosecondsBound transactionTimeout,
        DurationSpec.LongMicrosecondsBound checkInterval,
        DurationSpec.LongMicrosecondsBound stabilizationInterval,
        DurationSpec.LongMicrosecondsBound stabilizationHeartbeat,
        int stabilizationFanout,
        DurationSpec.LongMicrosecondsBound gcInterval,
        DurationSpec.LongMicrosecondsBound versionRetention,
        DurationSpec.LongMicrosecondsBound decisionRetention,
        int versionCacheKeys,
        int cacheLoaderThreads,
        int maxKeysPerRequest,
        DataStorageSpec.IntBytesBound maxKeySize,
        DataStorageSpec.IntBytesBound maxValueSize,
        DataStorageSpec.IntBytesBound maxFrameSize,
        String keyspace,
        int replicationFactor,
        int raftPort,
        String raftDirectory,
        long testClockOffsetMicros,
        Set<String> testRaftCutOff,
        int raftSnapshotInterval,
        int raftFlushInterval,
        Set<Protocol> protocols,
        Map<FastCcsProperty, String> given) {

    /** Every default. */
    public static FastCcsSettings defaults() {
        return of(Map.of());
    }

    /** Reads {@code -Dfastccs.config} (if set), then every {@code -Dfastccs.<key>} property over it. */
    public static FastCcsSettings load() throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        String file = FastCcsProperty.CONFIG.getString();
        if (file != null) {
            Path path = Path.of(file.startsWith("file:") ? java.net.URI.create(file).getPath() : file);
            try (Reader in = Files.newBufferedReader(path)) {
                values.putAll(parseYaml(in, path.toString()));
            }
        }
        for (FastCcsProperty p : FastCcsProperty.values()) {
            String v = p.isSetting ? p.getString() : null;
            if (v != null) values.put(p.key, v);
        }
        return of(values);
    }

    /**
     * Settings from {@code key -> value} text (yaml keys); unset keys take their defaults.
     *
     * @throws IllegalArgumentException naming the key, for an unknown key or a value that does not parse
     */
    public static FastCcsSettings of(Map<String, String> values) {
        Map<FastCcsProperty, String> given = new EnumMap<>(FastCcsProperty.class);
        for (Map.Entry<String, String> e : values.entrySet()) {
            FastCcsProperty p = FastCcsProperty.setting(e.getKey());
            if (p == null)
                throw new IllegalArgumentException("unknown FastCCS setting '" + e.getKey() + "'; known: " + FastCcsProperty.knownSettings());
            given.put(p, e.getValue().trim());
        }
        Parser p = new Parser(given);
        DurationSpec.LongMicrosecondsBound timeout = p.micros(FastCcsProperty.TRANSACTION_TIMEOUT);
        Set<Protocol> protocols = p.protocols(FastCcsProperty.PROTOCOL);
        int replicationFactor = p.integer(FastCcsProperty.REPLICATION_FACTOR, 1, 7);
        List<Protocol> unreplicated = protocols.stream().filter(x -> !Protocols.factory(x).has(Capability.REPLICATION)).toList();
        if (!unreplicated.isEmpty() && replicationFactor != 1)
            throw new IllegalArgumentException("FastCCS setting " + FastCcsProperty.PROTOCOL.key + ": "
                    + unreplicated.stream().map(Protocol::word).collect(Collectors.joining(", "))
                    + ": the compared protocols run at replication_factor 1 only (they keep their versions in memory, one"
                    + " node per partition); got replication_factor " + replicationFactor);
        if (replicationFactor != 1 && protocols.size() != 1)
            throw new IllegalArgumentException("FastCCS setting " + FastCcsProperty.PROTOCOL.key + ": replicated partitions"
                    + " run one protocol, not " + protocols.stream().map(Protocol::word).collect(Collectors.joining(", ")));
        return new FastCcsSettings(
                p.integer(FastCcsProperty.PORT, 0, 65535),
                p.integer(FastCcsProperty.PARTITIONS, 0, 4096),
                p.micros(FastCcsProperty.RING_SETTLE_TIME),
                p.millis(FastCcsProperty.STARTUP_TIMEOUT),
                timeout,
                p.micros(FastCcsProperty.CHECK_INTERVAL),
                p.micros(FastCcsProperty.STABILIZATION_INTERVAL),
                p.micros(FastCcsProperty.STABILIZATION_HEARTBEAT),
                p.integer(FastCcsProperty.STABILIZATION_FANOUT, 1, 4096),
                p.micros(FastCcsProperty.GC_INTERVAL),
                given.containsKey(FastCcsProperty.VERSION_RETENTION) ? p.micros(FastCcsProperty.VERSION_RETENTION) : timeout,
                p.micros(FastCcsProperty.DECISION_RETENTION),
                p.integer(FastCcsProperty.VERSION_CACHE_KEYS, 1, Integer.MAX_VALUE),
                p.integer(FastCcsProperty.CACHE_LOADER_THREADS, 1, 256),
                p.integer(FastCcsProperty.MAX_KEYS_PER_REQUEST, 1, 1 << 20),
                p.bytes(FastCcsProperty.MAX_KEY_SIZE),
                p.bytes(FastCcsProperty.MAX_VALUE_SIZE),
                p.bytes(FastCcsProperty.MAX_FRAME_SIZE),
                p.text(FastCcsProperty.KEYSPACE),
                replicationFactor,
                p.integer(FastCcsProperty.RAFT_PORT, 1, 65535),
                given.get(FastCcsProperty.RAFT_DIRECTORY),
                p.signedMicros(FastCcsProperty.TEST_CLOCK_OFFSET),
                p.hosts(FastCcsProperty.TEST_RAFT_CUT_OFF),
                p.integer(FastCcsProperty.RAFT_SNAPSHOT_INTERVAL, 1, Integer.MAX_VALUE),
                p.integer(FastCcsProperty.RAFT_FLUSH_INTERVAL, 1, Integer.MAX_VALUE),
                protocols,
                Map.copyOf(given));
    }

    /** Whether {@code test_clock_offset} was given (the test-only clock control is then open over JMX). */
    public boolean testClockControl() {
        return given.containsKey(FastCcsProperty.TEST_CLOCK_OFFSET);
    }

    /** Whether {@code test_raft_cut_off} was given (the test-only consensus cut-off is then open over JMX). */
    public boolean testRaftCutOffControl() {
        return given.containsKey(FastCcsProperty.TEST_RAFT_CUT_OFF);
    }

    /**
     * Node addresses, comma-separated, or {@code none} for none: the form of {@code test_raft_cut_off}, also when
     * changed over JMX.
     *
     * @throws IllegalArgumentException naming {@code key}, for an entry that is not an IP address
     */
    public static Set<String> parseHosts(String key, String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty() || t.equalsIgnoreCase("none")) return Set.of();
        Set<String> hosts = new java.util.LinkedHashSet<>();
        for (String part : t.split(",")) {
            String host = part.trim();
            if (!host.matches("\\d{1,3}(\\.\\d{1,3}){3}|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*"))
                throw new IllegalArgumentException("FastCCS setting " + key + ": '" + host + "' is not a node's IP address "
                        + "(give addresses separated by commas, or none)");
            hosts.add(host);
        }
        return Collections.unmodifiableSet(hosts);
    }

    /** The largest test clock offset accepted either way: beyond it a typo rather than a test is likely. */
    public static final long MAX_TEST_CLOCK_OFFSET_MICROS = 3_600_000_000L;

    /**
     * A signed duration in Cassandra's units ({@code -700ms}, {@code +2s}, {@code 0ms}), in microseconds; the form of
     * {@code test_clock_offset}, also when changed over JMX.
     *
     * @throws IllegalArgumentException naming {@code key}, for text that does not parse or an offset beyond an hour
     */
    public static long parseSignedDuration(String key, String text) {
        String t = text == null ? "" : text.trim();
        int sign = t.startsWith("-") ? -1 : 1;
        String magnitude = t.startsWith("-") || t.startsWith("+") ? t.substring(1) : t;
        long micros;
        try {
            micros = new DurationSpec.LongMicrosecondsBound(magnitude).toMicroseconds();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("FastCCS setting " + key + ": '" + text + "' is not a signed duration such as "
                    + "-700ms, +2s or 0ms (" + e.getMessage() + ")");
        }
        if (micros > MAX_TEST_CLOCK_OFFSET_MICROS)
            throw new IllegalArgumentException("FastCCS setting " + key + ": '" + text + "' is beyond an hour either way");
        return sign * micros;
    }

    static Map<String, String> parseYaml(Reader in, String source) {
        Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
        Map<String, String> out = new LinkedHashMap<>();
        if (doc == null) return out;
        if (!(doc instanceof Map<?, ?> map)) throw new IllegalArgumentException(source + ": expected a map of settings");
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String k = String.valueOf(e.getKey());
            if (FastCcsProperty.setting(k) == null)
                throw new IllegalArgumentException(source + ": unknown FastCCS setting '" + k + "'; known: " + FastCcsProperty.knownSettings());
            out.put(k, String.valueOf(e.getValue()));
        }
        return out;
    }

    /** The protocol's tunables. */
    public PartitionConfig partitionConfig() {
        return PartitionConfig.builder()
                .transactionTimeoutMicros(transactionTimeout.toMicroseconds())
                .checkIntervalMicros(checkInterval.toMicroseconds())
                .stabilizationIntervalMicros(stabilizationInterval.toMicroseconds())
                .stabilizationHeartbeatMicros(stabilizationHeartbeat.toMicroseconds())
                .stabilizationFanout(stabilizationFanout)
                .gcIntervalMicros(gcInterval.toMicroseconds())
                .versionRetentionMicros(versionRetention.toMicroseconds())
                .decisionRetentionMicros(decisionRetention.toMicroseconds())
                .maxKeysPerRequest(maxKeysPerRequest)
                .maxKeyBytes(maxKeySize.toBytes())
                .maxValueBytes(maxValueSize.toBytes())
                .build();
    }

    /** The settings given (not defaulted), for the start-up log line. */
    @Override
    public String toString() {
        if (given.isEmpty()) return "defaults";
        StringBuilder b = new StringBuilder("{");
        given.forEach((k, v) -> b.append(b.length() > 1 ? ", " : "").append(k.key).append('=').append(v));
        return b.append('}').toString();
    }

    /** Parses given values or defaults, naming the key in every error. */
    private record Parser(Map<FastCcsProperty, String> given) {
        private String raw(FastCcsProperty p) {
            return given.getOrDefault(p, p.defaultValue);
        }

        String text(FastCcsProperty p) {
            return raw(p);
        }

        int integer(FastCcsProperty p, int min, int max) {
            String v = raw(p);
            long n;
            try {
                n = Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("FastCCS setting " + p.key + ": '" + v + "' is not a whole number");
            }
            if (n < min || n > max) throw new IllegalArgumentException("FastCCS setting " + p.key + ": " + n + " outside " + min + ".." + max);
            return (int) n;
        }

        /** One protocol word or several, comma-separated. */
        Set<Protocol> protocols(FastCcsProperty p) {
            Set<Protocol> out = EnumSet.noneOf(Protocol.class);
            for (String word : raw(p).split(",", -1)) {
                if (word.isBlank())
                    throw new IllegalArgumentException("FastCCS setting " + p.key + ": '" + raw(p) + "' names no protocol"
                            + " (one or several of fastccs, eiger, wren, eventual, comma-separated)");
                try {
                    out.add(Protocol.parse(word));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("FastCCS setting " + p.key + ": " + e.getMessage());
                }
            }
            return Collections.unmodifiableSet(out);
        }

        DurationSpec.LongMicrosecondsBound micros(FastCcsProperty p) {
            return spec(p, DurationSpec.LongMicrosecondsBound::new, "a duration such as 500ms, 2s or 1m");
        }

        long signedMicros(FastCcsProperty p) {
            return parseSignedDuration(p.key, raw(p));
        }

        Set<String> hosts(FastCcsProperty p) {
            return parseHosts(p.key, raw(p));
        }

        DurationSpec.LongMillisecondsBound millis(FastCcsProperty p) {
            return spec(p, DurationSpec.LongMillisecondsBound::new, "a duration such as 30s or 10m");
        }

        DataStorageSpec.IntBytesBound bytes(FastCcsProperty p) {
            return spec(p, DataStorageSpec.IntBytesBound::new, "a size such as 128B, 64KiB or 1MiB");
        }

        /** Parses with Cassandra's own spec type, naming the key in the error. */
        private <T> T spec(FastCcsProperty p, java.util.function.Function<String, T> parse, String expected) {
            String v = raw(p);
            try {
                return parse.apply(v);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("FastCCS setting " + p.key + ": '" + v + "' is not " + expected + " (" + e.getMessage() + ")");
            }
        }
    }
}
