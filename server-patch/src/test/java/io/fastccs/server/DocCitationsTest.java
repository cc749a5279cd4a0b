package io.fastccs.server;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every citation of a document in the repository's sources resolves: a markdown file under {@code docs/} that a
 * comment (or a message) names exists, and a heading quoted after it, as in {@code docs/design/faults.md, "Duplicated
 * write requests"}, is a heading of that file. Headings match case-insensitively, without their markdown ({@code #},
 * backticks, emphasis, links). A citation may run over a comment's line break or a string concatenation.
 *
 * <p>It reads every module's {@code src/} and {@code scripts/} and its {@code pom.xml}, from the repository root as
 * {@link PackageCyclesTest} does, and reports every broken citation at once, by file and line.
 */
class DocCitationsTest {
    private static final Set<String> SOURCE_TYPES =
            Set.of("java", "thrift", "py", "xml", "properties", "yml", "yaml", "sh");
    /** What joins one cited text across lines: a comment's line break and prefix, or a string concatenation. */
    private static final Pattern JOIN =
            Pattern.compile("\"[ \\t]*\\R?[ \\t]*\\+[ \\t]*\"|\\R[ \\t]*(?:\\*(?!/)|//|#)?[ \\t]*");
    /** A document, and the heading quoted after it if any ({@code \"} inside a string). */
    private static final Pattern CITATION =
            Pattern.compile("\\b(docs/[\\w./-]+?\\.md)\\b(?:,\\s*\\\\?\"([^\"\\\\]+)\\\\?\")?");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$", Pattern.MULTILINE);

    @Test
    void everyCitedDocumentAndHeadingExists() throws IOException {
        Path repository = Path.of("..").toAbsolutePath().normalize();
        List<Path> sources = sources(repository);
        assertThat(sources).as("the sources under %s", repository)
                .contains(repository.resolve("server-patch/src/test/java/io/fastccs/server/DocCitationsTest.java"));

        Map<Path, Set<String>> headings = new HashMap<>();
        List<String> failures = new ArrayList<>();
        int citations = 0;
        for (Path source : sources) {
            Joined text = Joined.of(Files.readString(source));
            Matcher m = CITATION.matcher(text.flat());
            while (m.find()) {
                citations++;
                String where = repository.relativize(source) + ":" + text.lineAt(m.start());
                Path doc = repository.resolve(m.group(1)).normalize();
                if (!doc.startsWith(repository) || !Files.isRegularFile(doc)) {
                    failures.add(where + ": cites " + m.group(1) + ", which does not exist");
                    continue;
                }
                String heading = m.group(2);
                if (heading == null) continue;
                if (!headings.computeIfAbsent(doc, DocCitationsTest::headingsOf).contains(normalize(heading)))
                    failures.add(where + ": cites " + m.group(1) + ", \"" + heading + "\", not a heading there");
            }
        }
        assertThat(citations).as("citations found (does the scan read anything?)").isGreaterThan(20);
        assertThat(failures).withFailMessage("%d broken citations of docs/ in the sources:%n%s", failures.size(),
                String.join(System.lineSeparator(), failures)).isEmpty();
    }

    /** Each module's pom.xml and the source files under its src/ and scripts/. */
    private static List<Path> sources(Path repository) throws IOException {
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(repository)) {
            for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
                if (Files.isRegularFile(module.resolve("pom.xml"))) sources.add(module.resolve("pom.xml"));
                for (String dir : List.of("src", "scripts")) {
                    if (!Files.isDirectory(module.resolve(dir))) continue;
                    try (Stream<Path> files = Files.walk(module.resolve(dir))) {
                        files.filter(Files::isRegularFile).filter(DocCitationsTest::isSource).sorted()
                                .forEach(sources::add);
                    }
                }
            }
        }
        return sources;
    }

    private static boolean isSource(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot > 0 && SOURCE_TYPES.contains(name.substring(dot + 1));
    }

    private static Set<String> headingsOf(Path doc) {
        try {
            Set<String> found = new HashSet<>();
            Matcher m = HEADING.matcher(Files.readString(doc));
            while (m.find()) found.add(normalize(m.group(1)));
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A heading or a cited title without markdown, in lower case, with single spaces. */
    static String normalize(String heading) {
        return heading.replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1")
                .replaceAll("[`*]", "")
                .replaceAll("\\s+", " ")
                .trim()
                .toLowerCase(Locale.ROOT);
    }

    /** A file's text with the joins of {@link #JOIN} taken out, and the original line of each of its characters. */
    private record Joined(String flat, int[] lines) {
        static Joined of(String text) {
            StringBuilder flat = new StringBuilder(text.length());
            int[] lines = new int[text.length() + 1];
            int line = 1;
            int at = 0;
            Matcher m = JOIN.matcher(text);
            while (true) {
                int end = m.find() ? m.start() : text.length();
                for (; at < end; at++) {
                    lines[flat.length()] = line;
                    flat.append(text.charAt(at));
                }
                if (end == text.length()) break;
                if (!m.group().startsWith("\"")) {
                    lines[flat.length()] = line;
                    flat.append(' ');
                }
                line += (int) m.group().chars().filter(c -> c == '\n').count();
                at = m.end();
            }
            lines[flat.length()] = line;
            return new Joined(flat.toString(), lines);
        }

        int lineAt(int index) {
            return lines[index];
        }
    }
}
