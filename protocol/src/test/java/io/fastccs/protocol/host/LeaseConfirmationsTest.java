package io.fastccs.protocol.host;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import static org.assertj.core.api.Assertions.assertThat;

class LeaseConfirmationsTest {
    /** The protocol thread, run by hand. */
    private final ArrayDeque<Runnable> protocolThread = new ArrayDeque<>();
    private final Executor executor = protocolThread::add;

    private void runProtocolThread() {
        while (!protocolThread.isEmpty()) protocolThread.poll().run();
    }

    @Test
    void aCheckThatCompletesAsItStartsReleasesItsReplyAtOnce() {
        int[] checks = {0};
        LeaseConfirmations lease = new LeaseConfirmations(() -> {
            checks[0]++;
            return CompletableFuture.completedFuture(null);
        }, executor);
        CompletableFuture<Void> first = lease.afterNow();
        CompletableFuture<Void> second = lease.afterNow();
        assertThat(first).isCompleted();
        assertThat(second).isCompleted();
        assertThat(checks[0]).as("each reply made after the last check started gets a check of its own").isEqualTo(2);
        assertThat(protocolThread).isEmpty();
    }

    @Test
    void repliesMadeWhileACheckRunsWaitForTheNextOne() {
        List<CompletableFuture<Void>> started = new ArrayList<>();
        LeaseConfirmations lease = new LeaseConfirmations(() -> {
            CompletableFuture<Void> check = new CompletableFuture<>();
            started.add(check);
            return check;
        }, executor);
        CompletableFuture<Void> before = lease.afterNow();
        CompletableFuture<Void> during1 = lease.afterNow();
        CompletableFuture<Void> during2 = lease.afterNow();
        assertThat(started).hasSize(1);
        started.get(0).complete(null);
        runProtocolThread();
        assertThat(before).isCompleted();
        assertThat(during1).as("made after the first check started: it does not cover them").isNotDone();
        assertThat(started).as("one check for both replies made meanwhile").hasSize(2);
        started.get(1).complete(null);
        runProtocolThread();
        assertThat(during1).isCompleted();
        assertThat(during2).isCompleted();
    }

    @Test
    void aFailedCheckFailsItsReplies() {
        LeaseConfirmations lease = new LeaseConfirmations(
                () -> CompletableFuture.failedFuture(new IllegalStateException("not leading")), executor);
        assertThat(lease.afterNow()).isCompletedExceptionally();
        CompletableFuture<Void> thrown = new LeaseConfirmations(() -> {
            throw new IllegalStateException("closed");
        }, executor).afterNow();
        assertThat(thrown).isCompletedExceptionally();
    }
}
