package io.fastccs.tools.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Explains a node that did not come up: its exit code, the ends of its logs, the plugin's log lines, who still runs. */
final class NodeDiagnosis {
    private final Path dir;
    private final NodeLogs logs;
    private final NodeProcesses processes;
    /** Nodes the cluster object launched: their exit codes explain a failed start. */
    private final Map<Integer, Process> launched;

    NodeDiagnosis(Path dir, NodeLogs logs, NodeProcesses processes, Map<Integer, Process> launched) {
        this.dir = dir;
        this.logs = logs;
        this.processes = processes;
        this.launched = launched;
    }

    String describeDeath(ClusterState state, int node) {
        Process process = launched.get(node);
        String exit = "";
        if (process != null) {
            try {
                if (process.waitFor(2, TimeUnit.SECONDS))
                    exit = " with exit code " + process.exitValue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return "node " + node + " (" + state.ports().address(node) + ", pid " + state.pid(node) + ") exited" + exit + " before serving.";
    }

    /** The end of the node's stdout.log (latest launch only) and system.log, for error messages. */
    String logTails(int node) {
        return logs.tails(node);
    }

    /** What the plugin logged in system.log (lines naming FastCCS and the stack traces under them). */
    String pluginLogLines(int node) {
        return logs.pluginLines(node);
    }

    String othersStillRunning(ClusterState state, int exceptNode) {
        List<Integer> others = new ArrayList<>(processes.running(state));
        others.remove(Integer.valueOf(exceptNode));
        return others.isEmpty() ? "" : String.format("%nNodes %s are still running: bin/fastccs cluster stop --dir %s",
                others, dir);
    }
}
