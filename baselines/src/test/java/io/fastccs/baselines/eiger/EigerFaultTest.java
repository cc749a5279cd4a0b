package io.fastccs.baselines.eiger;

import io.fastccs.core.PartitionConfig;
import io.fastccs.baselines.eiger.EigerMessages.Commit;
import io.fastccs.baselines.eiger.EigerMessages.Read1;
import io.fastccs.baselines.eiger.EigerMessages.ReadAt;
import io.fastccs.baselines.eiger.EigerMessages.ReadReply;
import io.fastccs.baselines.eiger.EigerMessages.YesVote;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.spi.ReadStep;
import io.fastccs.core.spi.WriteStep;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.fastccs.baselines.eiger.EigerReadTest.A;
import static io.fastccs.baselines.eiger.EigerReadTest.B;
import static io.fastccs.baselines.eiger.EigerReadTest.str;
import static io.fastccs.baselines.eiger.EigerReadTest.writeBoth;
import static io.fastccs.baselines.eiger.EigerReadTest.writes;
import static io.fastccs.baselines.eiger.EigerTestCluster.FIRST;
import static io.fastccs.baselines.eiger.EigerTestCluster.peer;
import static org.assertj.core.api.Assertions.assertThat;

class EigerFaultTest {
    static final PartitionConfig CONFIG = PartitionConfig.builder().transactionTimeoutMicros(20_000).checkIntervalMicros(5_000)
            .decisionRetentionMicros(100_000).versionRetentionMicros(50_000).gcIntervalMicros(10_000).build();

    @Test
    void lostVoteAbortsAtTheCoordinatorAndTheCohortDropsItsMark() {
        EigerTestCluster c = new EigerTestCluster(2, CONFIG, Set.of());
        EigerSession s = c.session(1);
        writeBoth(c, s, "a1", "b1");
        WriteStep w = c.startWrite(s, writes("a2", "b2"), FIRST);
        c.deliverAll(e -> !peer(YesVote.class).test(e));
        c.inFlight.removeIf(peer(YesVote.class)); // lost
        c.tick(25_000);
        c.deliverAll();
        assertThat(w.outcome()).isEqualTo(Outcome.ABORTED);
        assertThat(c.partitions[0].metrics().coordinatorTimeouts()).isEqualTo(1);
        // the cohort still holds its mark until it asks (its own timeout), then drops it
        c.tick(25_000);
        c.deliverAll();
        ReadStep r = c.startRead(c.session(2), List.of(A, B));
        c.deliverAll();
        assertThat(r.result().rounds()).isEqualTo(1);
        assertThat(str(r.result().values().get(A))).isEqualTo("a1");
        assertThat(str(r.result().values().get(B))).isEqualTo("b1");
        assertThat(c.partitions[1].toString()).contains("pending=0");
    }

    @Test
    void lostCommitIsLearnedByTheCohortOnTick() {
        EigerTestCluster c = new EigerTestCluster(2, CONFIG, Set.of());
        EigerSession s = c.session(1);
        WriteStep w = c.startWrite(s, writes("a1", "b1"), FIRST);
        c.deliverAll(e -> !peer(Commit.class).test(e));
        c.inFlight.removeIf(peer(Commit.class)); // lost
        assertThat(w.isConfirmed()).isTrue();
        c.tick(25_000);
        c.deliverAll(e -> !peer(Commit.class).test(e)); // the coordinator's resent Commit is lost too
        c.inFlight.removeIf(peer(Commit.class));
        ReadStep r = c.startRead(c.session(2), List.of(B));
        c.deliverAll();
        assertThat(str(r.result().values().get(B))).isEqualTo("b1");
        assertThat(r.result().rounds()).isEqualTo(1);
        assertThat(c.partitions[1].toString()).contains("pending=0");
    }

    @Test
    void outcomeQueryAnswersCommittedOrPresumesAbort() {
        EigerTestCluster c = new EigerTestCluster(2, CONFIG, Set.of());
        EigerSession s = c.session(1);
        WriteStep w = writeBoth(c, s, "a1", "b1");
        List<ClientResponse> out = new ArrayList<>();
        c.submit(w.queryOutcome(), out::add);
        c.deliverAll();
        assertThat(out).hasSize(1);
        EigerMessages.OutcomeReply o = (EigerMessages.OutcomeReply) out.get(0);
        assertThat(o.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(o.stamp()).isEqualTo(w.commitStamp());

        // a transaction the coordinator never heard of is presumed aborted, and its late request cannot commit
        WriteStep lost = c.startWrite(s, writes("a2", "b2"), FIRST);
        List<EigerTestCluster.Envelope> held = new ArrayList<>(c.inFlight);
        c.inFlight.clear();
        WriteStep probe = lost;
        c.submit(probe.queryOutcome(), probe::onResponse);
        c.deliverAll();
        assertThat(lost.outcome()).isEqualTo(Outcome.ABORTED);
        c.inFlight.addAll(held);
        c.deliverAll();
        c.tick(25_000);
        c.deliverAll();
        ReadStep r = c.startRead(c.session(2), List.of(A, B));
        c.deliverAll();
        assertThat(str(r.result().values().get(A))).isEqualTo("a1");
        assertThat(str(r.result().values().get(B))).isEqualTo("b1");
    }

    @Test
    void oldVersionsAreCollectedAndARoundTwoBehindThemIsRefused() {
        EigerTestCluster c = new EigerTestCluster(2, CONFIG, Set.of());
        EigerSession s = c.session(1);
        writeBoth(c, s, "a1", "b1");
        long early = c.partitions[0].clock();
        writeBoth(c, s, "a2", "b2");
        writeBoth(c, s, "a3", "b3");
        c.tick(60_000); // everything is older than the retention: keep only the newest
        assertThat(c.partitions[0].metrics().versionsCollected()).isEqualTo(2);
        List<ClientResponse> out = new ArrayList<>();
        c.partitions[0].onClientRequest(out::add, new ReadAt(50, c.partitions[0].clock(), List.of(A), early));
        assertThat(((ErrorReply) out.get(0)).code()).isEqualTo(ErrorCode.SNAPSHOT_EXPIRED);
        c.partitions[0].onClientRequest(out::add, new Read1(51, 0, List.of(A)));
        assertThat(str(new io.fastccs.core.messages.ReadValue(A, ((ReadReply) out.get(1)).values().get(0).value(), 1))).isEqualTo("a3");
    }

    @Test
    void aDecisionIsForgottenAfterItsRetentionButNotBeforeEveryCohortAcknowledged() {
        EigerTestCluster c = new EigerTestCluster(2, CONFIG, Set.of());
        EigerSession s = c.session(1);
        writeBoth(c, s, "a1", "b1"); // acknowledged by its cohort
        WriteStep unacked = c.startWrite(s, writes("a2", "b2"), FIRST);
        c.deliverAll(e -> !peer(EigerMessages.Ack.class).test(e));
        c.inFlight.removeIf(peer(EigerMessages.Ack.class)); // the cohort's acknowledgement is lost
        assertThat(unacked.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(c.partitions[0].toString()).contains("decisions=2");

        c.tick(60_000);
        assertThat(c.partitions[0].toString()).contains("decisions=2"); // within the retention
        c.tick(60_000);
        c.inFlight.removeIf(peer(EigerMessages.Ack.class)); // the acknowledgements of resent commits are lost too
        assertThat(c.partitions[0].toString()).contains("decisions=1"); // the acknowledged one went
        c.tick(10_000);
        c.deliverAll(); // a resent commit is acknowledged at last
        assertThat(c.partitions[0].toString()).contains("decisions=0");
    }
}
