package io.fastccs.server.storage;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.protocol.api.PartitionStore.Decision;
import io.fastccs.protocol.api.PartitionStore.Recovered;
import io.fastccs.protocol.api.PartitionStore.TxnRecord;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Outcome;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM of {@link StoreCrashRecoveryTest}: starts a node on a directory and either writes through a store,
 * waits until the writes are durable and dies without flushing or draining ({@code Runtime.halt}), or starts the
 * node again (replaying the commit log) and describes what the store recovers. Both describe their state in the
 * same text format, the writer from the reference store given the same operations.
 *
 * <p>Arguments: {@code write|read|read-without-hook <directory>}.
 */
public final class StoreCrashProbe {
    static final int SELF = 1;
    static final int PARTITIONS = 3;
    static final Key KEY = Key.of("crash-key");
    static final String EXPECTED = "expected.txt";
    static final String ACTUAL = "actual.txt";

    private StoreCrashProbe() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path dir = Paths.get(args[1]);
        int status = 0;
        try {
            EmbeddedCassandra.start(dir, !mode.equals("read-without-hook"));
            CassandraPartitionStore.Settings settings = new CassandraPartitionStore.Settings(SELF, PARTITIONS, 100,
                    CassandraPartitionStore.DEFAULT_WRITER_THREADS, mode.equals("read-without-hook"));
            CassandraPartitionStore store = CassandraPartitionStore.open(settings);
            if (mode.equals("write")) {
                InMemoryPartitionStore reference = new InMemoryPartitionStore();
                writeEverything(store);
                writeEverything(reference);
                store.whenDurable().get(60, TimeUnit.SECONDS);
                Files.writeString(dir.resolve(EXPECTED), describe(reference.recover(), reference.versions(KEY)));
            } else {
                Files.writeString(dir.resolve(ACTUAL), describe(store.recover(), store.versions(KEY)));
            }
        } catch (Throwable t) {
            t.printStackTrace(); // the parent keeps the child's output in the directory
            status = 1;
        }
        // A crash: no flush, no drain; what survives is what the commit log holds.
        Runtime.getRuntime().halt(status);
    }

    private static void writeEverything(PartitionStore store) {
        VectorClock commit = VectorClock.of(3, 4, 5);
        for (long s = 1; s <= 4; s++) {
            store.savePrepared(new TxnRecord(new TxnId(77, s), s, SELF, List.of(0, SELF),
                    List.of(new KeyValue(KEY, ("w" + s).getBytes(StandardCharsets.UTF_8))), VectorClock.of(0, s - 1, 0),
                    1_000 + s, Outcome.UNDECIDED, null, 0));
        }
        store.saveOutcome(new TxnId(77, 1), 1, Outcome.COMMITTED, commit, 1_234_567L);
        store.saveOutcome(new TxnId(77, 2), 2, Outcome.ABORTED, null, 0);
        store.saveOutcome(new TxnId(77, 3), 3, Outcome.COMMITTED, commit.with(SELF, 3), 1_234_567L);
        store.saveSnapshot(VectorClock.of(0, 2, 1), SELF); // drops records 1 and 2
        store.saveDecision(new Decision(new TxnId(5, 5), Outcome.COMMITTED, commit, 1_234_567L, List.of(0, 1, 2), 500));
        store.saveDecision(new Decision(new TxnId(6, 6), Outcome.ABORTED, null, 0, List.of(), 600));
        store.saveDecision(new Decision(new TxnId(7, 7), Outcome.ABORTED, null, 0, List.of(1), 700));
        store.forgetDecision(new TxnId(6, 6));
        for (long s = 1; s <= 5; s++)
            store.putVersion(KEY, new Version(s, VectorClock.of(s, s, 0), 0, ("v" + s).getBytes(StandardCharsets.UTF_8)));
        store.removeVersionsOlderThan(KEY, store.versions(KEY).get(1));
    }

    static String describe(Recovered recovered, List<Version> versions) {
        List<String> lines = new ArrayList<>();
        lines.add("snapshot " + recovered.snapshot());
        for (TxnRecord r : recovered.transactions()) lines.add("record " + r);
        for (Decision d : recovered.decisions()) lines.add("decision " + d);
        for (Version v : versions)
            lines.add("version " + v.sequence() + " " + v.commitClock() + " " + HexFormat.of().formatHex(v.value()));
        return String.join("\n", lines) + "\n";
    }
}
