package io.fastccs.tools.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Cassandra's nodetool against one node of the cluster, from the nodes' own classpath and with its JMX port. */
final class Nodetool {
    private final ClusterLayout layout;

    Nodetool(ClusterLayout layout) {
        this.layout = layout;
    }

    /** Starts nodetool against node {@code node}; with {@code inheritIO} its output goes to this process's. */
    Process start(ClusterState state, int node, List<String> args, boolean inheritIO) {
        String classpath = RepositoryFiles.readNodeClasspath(state.nodeClasspathFile());
        try {
            Files.createDirectories(layout.nodetoolHome());
            if (!Files.isRegularFile(layout.toolsLogbackXml()))
                Files.writeString(layout.toolsLogbackXml(), NodeConfigFiles.toolsLogbackXml());
            ProcessBuilder builder = new ProcessBuilder(NodeCommandLine.nodetool(state, layout, node, classpath, args))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            if (inheritIO)
                builder.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
            else
                builder.redirectErrorStream(true);
            return builder.start();
        } catch (IOException e) {
            throw new ClusterException("cannot run nodetool: " + e.getMessage(), e);
        }
    }

    /** Runs nodetool against node {@code node} and collects its output. */
    LocalCluster.NodetoolResult run(ClusterState state, int node, String... args) {
        Process process = start(state, node, List.of(args), false);
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new ClusterException("nodetool " + String.join(" ", args) + " did not finish in 2 minutes");
            }
            return new LocalCluster.NodetoolResult(process.exitValue(), output);
        } catch (IOException e) {
            throw new ClusterException("cannot read nodetool's output: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new ClusterException("interrupted while nodetool ran", e);
        }
    }
}
