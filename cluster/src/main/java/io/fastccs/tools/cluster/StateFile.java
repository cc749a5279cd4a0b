package io.fastccs.tools.cluster;

import java.io.IOException;
import java.nio.file.Files;

/** A cluster directory's state file ({@link ClusterState}), which every operation reads first and writes after. */
final class StateFile {
    private final ClusterLayout layout;

    StateFile(ClusterLayout layout) {
        this.layout = layout;
    }

    /** Whether the directory holds a cluster. */
    boolean exists() {
        return Files.isRegularFile(layout.stateFile());
    }

    ClusterState read() {
        if (!exists())
            throw new ClusterException("no cluster in " + layout.dir() + " (start one with: bin/fastccs cluster start --nodes 3)");
        try {
            return ClusterState.load(layout.stateFile());
        } catch (IOException e) {
            throw new ClusterException("cannot read " + layout.stateFile() + ": " + e.getMessage(), e);
        }
    }

    void write(ClusterState state) {
        try {
            state.save(layout.stateFile());
        } catch (IOException e) {
            throw new ClusterException("cannot write " + layout.stateFile() + ": " + e.getMessage(), e);
        }
    }
}
