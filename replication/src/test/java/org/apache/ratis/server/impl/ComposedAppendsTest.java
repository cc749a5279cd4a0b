package org.apache.ratis.server.impl;

import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Why our groups turn {@code raft.server.log.append-entries.compose.enabled} off (see RatisProperties): in Ratis
 * 3.3.0 a follower that receives an append while another with the same first index is in progress takes it as a
 * duplicate, however many more entries it carries, and answers it as soon as the shorter one is written. The
 * follower's reply names the longer append's last entry, which it never wrote. This test lives in Ratis's package to
 * reach the package-private class; when a Ratis upgrade makes it fail, the setting may be reconsidered.
 */
class ComposedAppendsTest {
    private static List<LogEntryProto> entries(long term, long first, long last) {
        List<LogEntryProto> out = new ArrayList<>();
        for (long i = first; i <= last; i++) out.add(LogEntryProto.newBuilder().setTerm(term).setIndex(i).build());
        return out;
    }

    @Test
    void aLongerAppendWithTheSameFirstIndexIsAnsweredWithoutItsExtraEntries() {
        ServerImplUtils.NavigableIndices inProgress = new ServerImplUtils.NavigableIndices();
        List<List<Long>> written = new ArrayList<>(); // the indices of each append that reached the log
        CompletableFuture<Void> firstWrite = new CompletableFuture<>();

        // A leader's catch-up sends 10391..10396; before it is written, a retry sends 10391..10401.
        CompletableFuture<Void> shorter = inProgress.append(entries(3, 10391, 10396), es -> write(written, es, firstWrite));
        CompletableFuture<Void> longer = inProgress.append(entries(3, 10391, 10401),
                es -> write(written, es, CompletableFuture.completedFuture(null)));
        firstWrite.complete(null);
        shorter.join();
        longer.join(); // completed: the follower's reply would say "matched up to 10401"

        assertThat(written).as("only the shorter append was written").singleElement()
                .satisfies(indices -> assertThat(indices).last().isEqualTo(10396L));
    }

    private static CompletableFuture<Void> write(List<List<Long>> written, List<LogEntryProto> entries, CompletableFuture<Void> done) {
        written.add(entries.stream().map(LogEntryProto::getIndex).toList());
        return done;
    }
}
