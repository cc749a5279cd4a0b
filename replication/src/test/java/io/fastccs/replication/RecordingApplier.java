package io.fastccs.replication;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Remembers what the group applied, in order; its snapshot is that list. */
class RecordingApplier implements ReplicaApplier {
    private final List<String> applied = new ArrayList<>();
    final List<Long> leaderReadyTerms = new CopyOnWriteArrayList<>();
    final List<Long> steppedDownTerms = new CopyOnWriteArrayList<>();
    volatile long restoredAt = -1;

    @Override
    public synchronized void apply(long index, byte[] batch) {
        applied.add(new String(batch, StandardCharsets.UTF_8));
    }

    synchronized List<String> applied() {
        return List.copyOf(applied);
    }

    @Override
    public void onLeaderReady(long term) {
        leaderReadyTerms.add(term);
    }

    @Override
    public void onSteppedDown(long term) {
        steppedDownTerms.add(term);
    }

    @Override
    public synchronized void takeSnapshot(Path file) throws IOException {
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
            out.writeInt(applied.size());
            for (String s : applied) out.writeUTF(s);
        }
    }

    @Override
    public synchronized void installSnapshot(long index, Path file) throws IOException {
        restoredAt = index;
        applied.clear();
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
            int n = in.readInt();
            for (int i = 0; i < n; i++) applied.add(in.readUTF());
        }
    }
}
