package io.fastccs.server.storage;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

class PendingWritesTest {
    private static final Key A = Key.of("a");
    private static final Key B = Key.of("b");

    private static VersionChange put(long sequence) {
        return new VersionChange.Put(new Version(sequence, VectorClock.of(sequence), 0, new byte[0]));
    }

    @Test
    void whenAppliedWaitsForEveryEarlierWriteInAnyCompletionOrder() {
        PendingWrites pending = new PendingWrites();
        assertThat(pending.whenApplied()).isDone();
        PendingWrites.Write first = pending.issue(null, null);
        PendingWrites.Write second = pending.issue(A, put(1));
        CompletableFuture<Void> both = pending.whenApplied();
        PendingWrites.Write third = pending.issue(null, null);
        CompletableFuture<Void> all = pending.whenApplied();

        pending.completed(second, null);
        assertThat(both).isNotDone();
        pending.completed(first, null);
        assertThat(both).isCompleted();
        assertThat(all).isNotDone();
        assertThat(pending.unappliedCount()).isEqualTo(1);
        pending.completed(third, null);
        assertThat(all).isCompleted();
        assertThat(pending.whenApplied()).isDone();
        assertThat(pending.unappliedCount()).isZero();
    }

    @Test
    void aKeysChangeStaysListedUntilEveryEarlierChangeOfTheKeyIsApplied() {
        PendingWrites pending = new PendingWrites();
        PendingWrites.Write a1 = pending.issue(A, put(1));
        PendingWrites.Write b1 = pending.issue(B, put(2));
        PendingWrites.Write a2 = pending.issue(A, put(3));
        pending.completed(a2, null); // applied, but a1 is not: a reader must still replay both, in order
        assertThat(pending.unappliedChanges(A)).hasSize(2);
        pending.completed(a1, null);
        assertThat(pending.unappliedChanges(A)).isEmpty();
        assertThat(pending.unappliedChanges(B)).hasSize(1);
        pending.completed(b1, null);
        assertThat(pending.unappliedChanges(B)).isEmpty();
    }

    @Test
    void aFailedWriteFailsTheWaitsAndEveryLaterOne() {
        PendingWrites pending = new PendingWrites();
        PendingWrites.Write w = pending.issue(null, null);
        CompletableFuture<Void> f = pending.whenApplied();
        pending.completed(w, new RuntimeException("disk full"));
        assertThat(f).isCompletedExceptionally();
        assertThat(pending.whenApplied()).isCompletedExceptionally();
    }

    @Test
    void replayingChangesOverAnyAppliedSubsetGivesTheSameList() {
        Version v1 = new Version(1, VectorClock.of(1, 0), 0, new byte[0]);
        Version v2 = new Version(2, VectorClock.of(2, 5), 0, new byte[0]);
        Version v3 = new Version(3, VectorClock.of(3, 0), 0, new byte[0]);
        List<VersionChange> changes = List.of(new VersionChange.Put(v1), new VersionChange.Put(v2),
                new VersionChange.RemoveOlderThan(v2), new VersionChange.Put(v3));
        List<Version> expected = apply(List.of(), changes);
        assertThat(expected).containsExactly(v2, v3);
        for (int mask = 0; mask < 16; mask++) {
            List<Version> table = List.of();
            for (int i = 0; i < 4; i++) if ((mask & (1 << i)) != 0) table = changes.get(i).applyTo(table);
            assertThat(apply(table, changes)).as("applied subset %s", Integer.toBinaryString(mask)).isEqualTo(expected);
        }
    }

    private static List<Version> apply(List<Version> versions, List<VersionChange> changes) {
        for (VersionChange c : changes) versions = c.applyTo(versions);
        return versions;
    }
}
