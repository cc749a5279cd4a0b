package io.fastccs.client;

import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client against scripted nodes playing replicated partitions: a partition's leader changes (a failover), the
 * old one answers {@code NOT_LEADER}, and the ring names the new one.
 */
class ReplicatedPartitionsClientTest {
    private static final int N = 3;
    private ScriptedCluster cluster;
    private FastCcsClient client;

    private FastCcsClient connect(Duration requestTimeout) throws Exception {
        client = FastCcsClient.builder()
                .addContactPoint(cluster.contactPoints().get(0))
                .withRequestTimeout(requestTimeout)
                .withReconnectDelay(Duration.ofMillis(20), Duration.ofMillis(200))
                .withIoThreads(2)
                .build();
        return client;
    }

    @AfterEach
    void tearDown() {
        if (client != null) client.close();
        if (cluster != null) cluster.close();
    }

    private List<String> keysOn(int partition, int count) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < count; i++) if (cluster.ring().ownerOf(Key.of("k" + i)) == partition) keys.add("k" + i);
        return keys;
    }

    private List<ClientRequest> requestsOf(Class<? extends ClientRequest> type) {
        return cluster.allRequests().stream().filter(type::isInstance).toList();
    }

    @Test
    void everyPartitionConnectionNamesItsPartitionInTheHello() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        connect(Duration.ofSeconds(2));
        assertThat(client.metrics().connectedPartitions()).isEqualTo(N);
        for (int p = 0; p < N; p++) {
            int partition = p;
            assertThat(cluster.node(p).hellos).extracting(Hello::target).as("hellos at node %d", p)
                    .contains(partition).allMatch(t -> t == partition || t == -1);
        }
        // The contact point's connection is for the ring only: its Hello names no partition.
        assertThat(cluster.node(0).hellos.get(0).target()).isEqualTo(-1);
    }

    @Test
    void helloRefusedWithNotLeaderIsAnUnavailablePartitionUntilTheRingNamesTheNewLeader() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        cluster.stepDown(1); // node 1 refuses partition 1; the ring still names it
        connect(Duration.ofSeconds(2));
        Eventually.within(Duration.ofSeconds(5), () -> cluster.node(1).hellos.stream().anyMatch(h -> h.target() == 1));
        assertThat(client.metrics().connectedPartitions()).isEqualTo(N - 1);
        CausalSession s = client.session();
        List<String> keys = keysOn(1, 3);
        // A refused Hello is neither a login failure nor a protocol error: the partition is unavailable for now.
        assertThatThrownBy(() -> s.read(keys))
                .isInstanceOfSatisfying(PartitionUnavailableException.class, e -> assertThat(e.partition()).isEqualTo(1));

        CompletableFuture<ReadResult> read = s.readAsync(keys).toCompletableFuture();
        cluster.lead(1, 2); // the election is over: node 2 leads partition 1
        assertThat(read.get(30, TimeUnit.SECONDS).size()).isEqualTo(3);
        assertThat(cluster.node(2).hellos).extracting(Hello::target).contains(1);
        assertThat(cluster.node(2).requests).hasAtLeastOneElementOfType(FirstRoundRead.class);
        assertThat(cluster.node(1).requests).isEmpty();
        assertThat(client.metrics().connectedPartitions()).isEqualTo(N);
    }

    @Test
    void readWhoseConnectionDropsIsRetriedAtThePartitionsNewLeader() throws Exception {
        AtomicBoolean failedOver = new AtomicBoolean();
        ScriptedCluster.Script store = ScriptedCluster.emptyStore(N);
        cluster = ScriptedCluster.start(N, (node, request, out) -> {
            if (out.partition() == 1 && request instanceof FirstRoundRead && failedOver.compareAndSet(false, true)) {
                cluster.lead(1, 2); // node 1 dies mid-request; node 2 takes over
                out.closeConnection();
                return;
            }
            store.onRequest(node, request, out);
        });
        connect(Duration.ofSeconds(5));
        List<String> keys = keysOn(1, 3);

        ReadResult r = client.session().read(keys);

        assertThat(r.size()).isEqualTo(3);
        FirstRoundRead lost = (FirstRoundRead) cluster.node(1).requests.get(0);
        assertThat(cluster.node(2).requests).singleElement()
                .isInstanceOfSatisfying(FirstRoundRead.class, again -> assertThat(again.requestId()).isEqualTo(lost.requestId()));
        assertThat(client.metrics().retries()).isPositive();
        assertThat(client.metrics().reads().successes()).isEqualTo(1);
    }

    @Test
    void aRingNamingAnotherNodeDoesNotMoveAPartitionWhoseLeaderAnswersUntilItRefuses() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        client = FastCcsClient.builder()
                .addContactPoint(cluster.contactPoints().get(0))
                .withRequestTimeout(Duration.ofSeconds(5))
                .withReconnectDelay(Duration.ofMillis(20), Duration.ofMillis(200))
                .withRingRefreshInterval(Duration.ofMillis(50))
                .withIoThreads(2)
                .build();
        CausalSession s = client.session();
        List<String> keys = keysOn(1, 3);
        assertThat(s.read(keys).size()).isEqualTo(3);

        cluster.misname(1, 0); // a stale ring: node 1 still leads partition 1 and answers for it
        long refreshes = client.metrics().ringRefreshes();
        Eventually.within(Duration.ofSeconds(5), () -> client.metrics().ringRefreshes() > refreshes + 2);
        assertThat(s.read(keys).size()).isEqualTo(3);
        assertThat(cluster.node(0).hellos).extracting(Hello::target).doesNotContain(1);
        assertThat(cluster.node(1).requests).filteredOn(FirstRoundRead.class::isInstance).hasSize(2);

        cluster.lead(1, 0); // now node 1 refuses partition 1, and the ring's answer is right
        assertThat(s.read(keys).size()).isEqualTo(3);
        assertThat(cluster.node(0).hellos).extracting(Hello::target).contains(1);
        assertThat(cluster.node(0).requests).hasAtLeastOneElementOfType(FirstRoundRead.class);
    }

    @Test
    void readFailsClearlyOnceTheDeadlinePassesWithoutALeader() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        connect(Duration.ofMillis(500));
        long refreshes = client.metrics().ringRefreshes();
        cluster.stepDown(1); // every request for partition 1 is refused with NOT_LEADER; no new leader comes

        assertThatThrownBy(() -> client.session().read(keysOn(1, 1)))
                .isInstanceOfSatisfying(PartitionUnavailableException.class, e -> {
                    assertThat(e.partition()).isEqualTo(1);
                    assertThat(e).hasMessageContaining("NOT_LEADER");
                });

        List<ClientRequest> tries = cluster.node(1).requests;
        assertThat(tries).hasSizeGreaterThan(1).extracting(ClientRequest::requestId).containsOnly(tries.get(0).requestId());
        assertThat(client.metrics().retries()).isGreaterThanOrEqualTo(tries.size() - 1);
        assertThat(client.metrics().reads().errors()).isEqualTo(1);
        Eventually.within(Duration.ofSeconds(5), () -> client.metrics().ringRefreshes() > refreshes);
    }

    @Test
    void writeRefusedWithNotLeaderIsSentAgainAtTheNewLeader() throws Exception {
        AtomicBoolean failedOver = new AtomicBoolean();
        ScriptedCluster.Script store = ScriptedCluster.emptyStore(N);
        cluster = ScriptedCluster.start(N, (node, request, out) -> {
            if (out.partition() == 1 && request instanceof WriteRequest w && failedOver.compareAndSet(false, true)) {
                cluster.lead(1, 2);
                out.reply(new ErrorReply(w.requestId(), ErrorCode.NOT_LEADER, "stepped down", 2));
                return;
            }
            store.onRequest(node, request, out);
        });
        connect(Duration.ofSeconds(5));
        CausalSession s = client.session();

        WriteResult w = s.write(Map.of(keysOn(1, 1).get(0), "v"));

        assertThat(w.partitionsTouched()).isEqualTo(1);
        assertThat(cluster.node(2).requests).singleElement().isInstanceOf(WriteRequest.class);
        assertThat(requestsOf(WriteRequest.class)).hasSizeGreaterThanOrEqualTo(2)
                .allMatch(r -> ((WriteRequest) r).txnId().equals(((WriteRequest) cluster.node(2).requests.get(0)).txnId()));
        assertThat(s.hasUnconfirmedWrite()).isFalse();
        assertThat(s.exportToken().clock()[1]).isPositive();
    }

    @Test
    void writeWaitsForAParticipantsConnectionInsteadOfFailing() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        connect(Duration.ofSeconds(5));
        cluster.node(1).stop();
        Eventually.within(Duration.ofSeconds(5), () -> client.metrics().connectedPartitions() == N - 1);
        CompletableFuture<WriteResult> write = client.session().writeAsync(Map.of(keysOn(1, 1).get(0), "v")).toCompletableFuture();
        cluster.node(1).restart();

        assertThat(write.get(30, TimeUnit.SECONDS).partitionsTouched()).isEqualTo(1);
        assertThat(cluster.node(1).requests).singleElement().isInstanceOf(WriteRequest.class);
    }

    @Test
    void writeWhoseConnectionDropsAfterSendingIsNotSentAgainAndIsSettledByARetriedOutcomeQuery() throws Exception {
        AtomicBoolean queryLost = new AtomicBoolean();
        ScriptedCluster.Script store = ScriptedCluster.emptyStore(N);
        cluster = ScriptedCluster.start(N, (node, request, out) -> {
            if (request instanceof WriteRequest && out.partition() == 1) {
                out.closeConnection(); // taken, maybe prepared, but the reply is lost
            } else if (request instanceof OutcomeQuery q) {
                if (queryLost.compareAndSet(false, true)) out.closeConnection(); // the coordinator fails over too
                else out.reply(new OutcomeReply(q.requestId(), q.txnId(), Outcome.COMMITTED, VectorClock.of(1, 1, 0), 0));
            } else {
                store.onRequest(node, request, out);
            }
        });
        connect(Duration.ofSeconds(5));
        CausalSession s = client.session();
        Map<String, String> writes = Map.of(keysOn(0, 1).get(0), "a", keysOn(1, 1).get(0), "b");

        assertThatThrownBy(() -> s.write(writes)).isInstanceOfSatisfying(WriteTimeoutException.class,
                e -> assertThat(e.outcome()).isEqualTo(WriteOutcome.COMMITTED_UNCONFIRMED));

        assertThat(cluster.node(1).requests).filteredOn(r -> r instanceof WriteRequest).hasSize(1);
        assertThat(requestsOf(WriteRequest.class)).hasSize(2); // one per participant, never again
        List<ClientRequest> queries = requestsOf(OutcomeQuery.class);
        assertThat(queries).hasSize(2).extracting(ClientRequest::requestId).containsOnly(queries.get(0).requestId());
        assertThat(s.hasUnconfirmedWrite()).isTrue();
    }
}
