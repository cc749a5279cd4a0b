package io.fastccs.server;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shape the house keeps, read off every module's main sources: files small enough to read (one job each), and
 * hosts that choose what to do by a protocol's capabilities, never by its name.
 */
class HouseShapeTest {
    static final int MAX_LINES = 600;
    /** The history checker's one algorithm, a single scan over primitive arrays kept together for speed. */
    private static final Set<String> LONGER_ALLOWED = Set.of("checker/src/main/java/io/fastccs/check/CheckRun.java");
    /** The modules that host protocols: they may name one as a default, never branch on one. */
    private static final Set<String> HOSTS = Set.of("server-patch", "simulator", "client-lib", "cluster", "testkit",
            "stress", "cli", "nemesis");
    /**
     * A branch on a protocol: comparing a {@code Protocol} with a constant, asking whether a set holds one, or testing
     * whether an object is one protocol's class.
     */
    private static final Pattern PROTOCOL_BRANCH = Pattern.compile(
            "Protocol\\.(FASTCCS|EIGER|WREN|EVENTUAL)\\s*[=!]=|[=!]=\\s*Protocol\\.(FASTCCS|EIGER|WREN|EVENTUAL)"
                    + "|contains\\(Protocol\\.[A-Z]+\\)|equals\\((List|EnumSet|Set)\\.of\\(Protocol\\."
                    + "|instanceof\\s+(FastCcsProtocol|EigerProtocol|WrenProtocol|EventualProtocol)\\b");

    /** The project's modules a pom depends on, with their scope (compile when none is named). */
    private static List<String> projectDependencies(String module) throws IOException {
        String pom = Files.readString(Path.of("..", module, "pom.xml"));
        pom = pom.substring(pom.indexOf("<dependencies>"));
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL).matcher(pom);
        while (m.find()) {
            Matcher id = Pattern.compile("<artifactId>(fastccs-[a-z-]+)</artifactId>").matcher(m.group(1));
            if (!id.find()) continue;
            Matcher scope = Pattern.compile("<scope>(\\w+)</scope>").matcher(m.group(1));
            out.add(id.group(1) + (scope.find() ? " (" + scope.group(1) + ")" : ""));
        }
        return out;
    }

    @Test
    void theCoreNamesNoProtocolAndEachProtocolOnlyTheCore() throws IOException {
        assertThat(projectDependencies("core")).as("the core's dependencies among ours").isEmpty();
        assertThat(projectDependencies("baselines")).as("the baselines' dependencies among ours").containsExactly("fastccs-core");
        // FastCCS's wire tests cover every protocol's messages, so the baselines are on its test class path only.
        assertThat(projectDependencies("protocol")).as("FastCCS's dependencies among ours")
                .containsExactlyInAnyOrder("fastccs-core", "fastccs-baselines (test)");
    }

    private static List<Path> mainSources(Path module) throws IOException {
        Path root = module.resolve("src/main/java");
        if (!Files.isDirectory(root)) return List.of();
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".java")).toList();
        }
    }

    /** Every module with main sources; fails if the hosts are not among them (the test then read the wrong folder). */
    private static List<Path> modules() throws IOException {
        List<Path> found;
        try (Stream<Path> modules = Files.list(Path.of(".."))) {
            found = modules.filter(m -> Files.isDirectory(m.resolve("src/main/java"))).sorted().toList();
        }
        assertThat(found).extracting(m -> m.getFileName().toString()).as("modules read").containsAll(HOSTS)
                .contains("core", "protocol", "baselines", "checker");
        return found;
    }

    @Test
    void noMainFileIsLongerThanOneJobNeeds() throws IOException {
        List<String> tooLong = new ArrayList<>();
        for (Path module : modules())
            for (Path f : mainSources(module)) {
                String name = Path.of("..").relativize(f).toString();
                long lines = Files.readAllLines(f).size();
                if (lines > MAX_LINES && !LONGER_ALLOWED.contains(name)) tooLong.add(name + " (" + lines + " lines)");
            }
        assertThat(tooLong).as("main files over %d lines", MAX_LINES).isEmpty();
    }

    @Test
    void hostsChooseByCapabilitiesNotByProtocolName() throws IOException {
        List<String> branches = new ArrayList<>();
        for (Path module : modules()) {
            if (!HOSTS.contains(module.getFileName().toString())) continue;
            for (Path f : mainSources(module)) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = PROTOCOL_BRANCH.matcher(lines.get(i));
                    if (m.find()) branches.add(Path.of("..").relativize(f) + ":" + (i + 1) + ": " + lines.get(i).trim());
                }
            }
        }
        assertThat(branches).as("hosts branching on a protocol's name").isEmpty();
    }
}
