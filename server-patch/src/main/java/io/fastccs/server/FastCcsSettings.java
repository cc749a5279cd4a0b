package io.fastccs.server;

import io.fastccs.protocol.PartitionConfig;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The plugin's settings, in Cassandra's conventions: an optional {@code fastccs.yaml} (snake_case keys, units in the
 * values: {@code transaction_timeout: 2s}, {@code max_value_size: 1MiB}) named by {@code -Dfastccs.config}, and
 * JVM properties {@code -Dfastccs.<key>=<value>} that override it. Every key has a default, so the agent alone works.
 */
public final class FastCcsSettings {
    /** The JVM properties the plugin reads (all through here, as Cassandra reads its own through one enum). */
    public enum Property {
        CONFIG("fastccs.config"),
        PARTITIONS("fastccs.partitions");

        public final String key;

        Property(String key) {
            this.key = key;
        }

        public String get() {
            return System.getProperty(key);
        }
    }

    static final Set<String> KEYS = Set.of("port", "partitions", "transaction_timeout", "check_interval",
            "stabilization_interval", "stabilization_heartbeat", "gc_interval", "version_retention", "decision_retention",
            "version_cache_keys", "max_keys_per_request", "max_key_size", "max_value_size", "ring_settle_time",
            "max_frame_size", "keyspace");

    private final Map<String, String> values;

    private FastCcsSettings(Map<String, String> values) {
        this.values = values;
    }

    /** Reads {@code -Dfastccs.config} (if set) and every {@code -Dfastccs.<key>} property. */
    public static FastCcsSettings load() throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        String file = Property.CONFIG.get();
        if (file != null) {
            Path path = Path.of(file.startsWith("file:") ? java.net.URI.create(file).getPath() : file);
            try (Reader in = Files.newBufferedReader(path)) {
                values.putAll(parseYaml(in, path.toString()));
            }
        }
        for (String key : KEYS) {
            String v = System.getProperty("fastccs." + key);
            if (v != null) values.put(key, v);
        }
        return new FastCcsSettings(values);
    }

    public static FastCcsSettings of(Map<String, String> values) {
        for (String k : values.keySet())
            if (!KEYS.contains(k)) throw new IllegalArgumentException("unknown FastCCS setting '" + k + "'; known: " + KEYS);
        return new FastCcsSettings(new LinkedHashMap<>(values));
    }

    static Map<String, String> parseYaml(Reader in, String source) {
        Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
        Map<String, String> out = new LinkedHashMap<>();
        if (doc == null) return out;
        if (!(doc instanceof Map<?, ?> map)) throw new IllegalArgumentException(source + ": expected a map of settings");
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String k = String.valueOf(e.getKey());
            if (!KEYS.contains(k)) throw new IllegalArgumentException(source + ": unknown FastCCS setting '" + k + "'; known: " + KEYS);
            out.put(k, String.valueOf(e.getValue()));
        }
        return out;
    }

    public int port() {
        return (int) integer("port", 9142, 0, 65535);
    }

    /** The number of partitions the plugin waits for before it serves; 0 means "whatever the ring settles on". */
    public int expectedPartitions() {
        return (int) integer("partitions", 0, 0, 4096);
    }

    public long ringSettleMicros() {
        return duration("ring_settle_time", "10s");
    }

    public int versionCacheKeys() {
        return (int) integer("version_cache_keys", 100_000, 1, Integer.MAX_VALUE);
    }

    public int maxFrameBytes() {
        return (int) size("max_frame_size", "16MiB");
    }

    public String keyspace() {
        return values.getOrDefault("keyspace", "fastccs");
    }

    public PartitionConfig partitionConfig() {
        long timeout = duration("transaction_timeout", "2s");
        return PartitionConfig.builder()
                .transactionTimeoutMicros(timeout)
                .checkIntervalMicros(duration("check_interval", "200ms"))
                .stabilizationIntervalMicros(duration("stabilization_interval", "5ms"))
                .stabilizationHeartbeatMicros(duration("stabilization_heartbeat", "1s"))
                .gcIntervalMicros(duration("gc_interval", "500ms"))
                .versionRetentionMicros(values.containsKey("version_retention") ? duration("version_retention", "2s") : timeout)
                .decisionRetentionMicros(duration("decision_retention", "60s"))
                .maxKeysPerRequest((int) integer("max_keys_per_request", 1024, 1, 1 << 20))
                .maxKeyBytes((int) size("max_key_size", "65535B"))
                .maxValueBytes((int) size("max_value_size", "1MiB"))
                .build();
    }

    private long integer(String key, long dflt, long min, long max) {
        String v = values.get(key);
        if (v == null) return dflt;
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("FastCCS setting " + key + ": '" + v + "' is not a whole number");
        }
        if (n < min || n > max) throw new IllegalArgumentException("FastCCS setting " + key + ": " + n + " outside " + min + ".." + max);
        return n;
    }

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(us|µs|ms|s|m|h)");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB)");

    /** A duration with its unit, as Cassandra writes them: 500ms, 2s, 1m. In microseconds. */
    private long duration(String key, String dflt) {
        String v = values.getOrDefault(key, dflt).trim();
        Matcher m = DURATION.matcher(v);
        if (!m.matches())
            throw new IllegalArgumentException("FastCCS setting " + key + ": '" + v + "' is not a duration such as 500ms, 2s or 1m");
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "us", "µs" -> n;
            case "ms" -> n * 1_000;
            case "s" -> n * 1_000_000;
            case "m" -> n * 60_000_000;
            default -> n * 3_600_000_000L;
        };
    }

    /** A size with its unit: 128B, 64KiB, 1MiB. In bytes. */
    private long size(String key, String dflt) {
        String v = values.getOrDefault(key, dflt).trim();
        Matcher m = SIZE.matcher(v);
        if (!m.matches()) throw new IllegalArgumentException("FastCCS setting " + key + ": '" + v + "' is not a size such as 128B, 64KiB or 1MiB");
        long n = Long.parseLong(m.group(1));
        long bytes = switch (m.group(2)) {
            case "B" -> n;
            case "KiB" -> n << 10;
            case "MiB" -> n << 20;
            default -> n << 30;
        };
        if (bytes > Integer.MAX_VALUE) throw new IllegalArgumentException("FastCCS setting " + key + ": " + v + " is too large");
        return bytes;
    }

    @Override
    public String toString() {
        return values.isEmpty() ? "defaults" : values.toString().toLowerCase(Locale.ROOT);
    }
}
