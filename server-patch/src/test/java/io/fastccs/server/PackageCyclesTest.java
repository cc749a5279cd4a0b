package io.fastccs.server;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No import cycle between the packages of any module (every {@code src/main/java} of the repository; this test lives
 * here because the plugin's node and transport were the first cycle found). In the plugin the transport reaches the
 * node through an interface and only the wiring knows both; the protocol's value types sit in {@code primitives},
 * below the messages and the SPI; the consensus API finds its implementation with a ServiceLoader. Imports and fully
 * qualified references to {@code io.fastccs.*} count.
 *
 * <p>One edge is allowed: the Java client's API names its implementation at its entry points (the builder, the
 * blocking wrappers), as the Apache Cassandra Java driver's {@code api.core} does with {@code internal.core}.
 */
class PackageCyclesTest {
    private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.fastccs(?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]");
    private static final Map<String, String> ALLOWED = Map.of("io.fastccs.client", "io.fastccs.client.internal");

    @Test
    void packagesFormNoCycle() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        Path repository = Path.of("..");
        List<Path> sourceRoots;
        try (Stream<Path> modules = Files.list(repository)) {
            sourceRoots = modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList();
        }
        for (Path root : sourceRoots) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String pkg = root.relativize(f.getParent()).toString().replace('/', '.');
                    Set<String> targets = uses.computeIfAbsent(pkg, k -> new TreeSet<>());
                    Matcher m = REFERENCE.matcher(Files.readString(f));
                    while (m.find())
                        if (!m.group(1).equals(pkg) && !m.group(1).equals(ALLOWED.get(pkg))) targets.add(m.group(1));
                }
            }
        }
        assertThat(uses).containsKeys("io.fastccs.server.node", "io.fastccs.server.transport", "io.fastccs.server.wiring",
                "io.fastccs.protocol", "io.fastccs.protocol.primitives", "io.fastccs.replication", "io.fastccs.sim");
        List<String> cycles = new ArrayList<>();
        for (String start : uses.keySet()) {
            Deque<List<String>> paths = new ArrayDeque<>();
            paths.add(List.of(start));
            Set<String> seen = new TreeSet<>();
            while (!paths.isEmpty()) {
                List<String> path = paths.poll();
                for (String next : uses.getOrDefault(path.get(path.size() - 1), Set.of())) {
                    if (next.equals(start)) cycles.add(String.join(" -> ", path) + " -> " + start);
                    else if (seen.add(next)) {
                        List<String> longer = new ArrayList<>(path);
                        longer.add(next);
                        paths.add(longer);
                    }
                }
            }
        }
        assertThat(cycles).as("package dependencies %s", uses).isEmpty();
    }
}
