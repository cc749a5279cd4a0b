package io.fastccs.tools.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** What a node's logs say, for error messages that explain a node that died or a plugin that does not answer. */
final class NodeLogs {
    /** Marks each launch in stdout.log, so a failure shows the output of the latest launch only. */
    static final String LAUNCH_MARKER = "---- fastccs cluster: ";
    private static final int TAIL_LINES = 25;
    private static final int LINE_CHARS = 300;
    /** A system.log entry starts with its level (see NodeConfigFiles.logbackXml); other lines continue it. */
    private static final Pattern ENTRY_START = Pattern.compile("(TRACE|DEBUG|INFO|WARN|ERROR) +\\[");
    /** Entries about the plugin: they name FastCCS (its classes, threads or messages), not inside a path. */
    private static final Pattern PLUGIN_ENTRY = Pattern.compile("(?i)(?<![/\\w-])fastccs");
    /** Cassandra's own entries that name the cluster (fastccs) or its config path, not the plugin. */
    private static final Pattern CONFIG_ENTRY = Pattern.compile("Node configuration:\\[|Configuration location:");

    private final ClusterLayout layout;

    NodeLogs(ClusterLayout layout) {
        this.layout = layout;
    }

    /** The end of the node's stdout.log (latest launch only) and system.log. */
    String tails(int node) {
        StringBuilder text = new StringBuilder();
        for (Path log : List.of(layout.stdoutLog(node), layout.systemLog(node))) {
            List<String> lines;
            try {
                lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            } catch (IOException e) {
                continue;
            }
            int from = 0;
            for (int i = 0; i < lines.size(); i++)
                if (lines.get(i).startsWith(LAUNCH_MARKER))
                    from = i + 1;
            from = Math.max(from, lines.size() - TAIL_LINES);
            if (from >= lines.size())
                continue;
            text.append(String.format("%n--- last lines of %s:%n", log));
            for (String line : lines.subList(from, lines.size())) // Cassandra logs its whole config on one line
                text.append(shorten(line)).append(System.lineSeparator());
        }
        return text.length() == 0 ? String.format("%n(node %d has written no log in %s yet)", node, layout.logDir(node)) : text.toString();
    }

    /** What the plugin logged in system.log (lines naming FastCCS and the stack traces under them). */
    String pluginLines(int node) {
        List<String> lines;
        try {
            lines = Files.readAllLines(layout.systemLog(node), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
        List<String> picked = new ArrayList<>();
        boolean inPluginEntry = false;
        for (String line : lines) {
            boolean entryStart = ENTRY_START.matcher(line).lookingAt();
            if (entryStart)
                inPluginEntry = PLUGIN_ENTRY.matcher(line).find() && !CONFIG_ENTRY.matcher(line).find();
            if (inPluginEntry)
                picked.add(shorten(line));
        }
        if (picked.isEmpty())
            return String.format("%n(the plugin logged nothing in %s)", layout.systemLog(node));
        List<String> last = picked.subList(Math.max(0, picked.size() - TAIL_LINES), picked.size());
        return String.format("%n--- the plugin's lines in %s:%n%s", layout.systemLog(node),
                String.join(System.lineSeparator(), last));
    }

    private static String shorten(String line) {
        return line.length() <= LINE_CHARS ? line : line.substring(0, LINE_CHARS) + " [...]";
    }
}
