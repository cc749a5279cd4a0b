package io.fastccs.replication;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Remembers what the group applied, in order; its snapshot is that list. */
final class RecordingApplier implements ReplicaApplier {
    private final List<String> applied = new ArrayList<>();
    final List<Long> leaderReadyTerms = new CopyOnWriteArrayList<>();
    final List<Long> steppedDownTerms = new CopyOnWriteArrayList<>();
    volatile long restoredAt = -1;

    @Override
    public synchronized void apply(long index, byte[] batch) {
        applied.add(new String(batch, java.nio.charset.StandardCharsets.UTF_8));
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
    public synchronized byte[] snapshot() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(applied.size());
            for (String s : applied) out.writeUTF(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Override
    public synchronized void restore(long index, byte[] snapshot) {
        restoredAt = index;
        applied.clear();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(snapshot))) {
            int n = in.readInt();
            for (int i = 0; i < n; i++) applied.add(in.readUTF());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
