package io.fastccs.client;

import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.Hello;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.primitives.VectorClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The consistency protocol in the handshake: the client names its own and refuses nodes running another. */
class ProtocolHandshakeTest {
    private static final int N = 3;
    private ScriptedCluster cluster;
    private FastCcsClient client;

    private FastCcsClientBuilder builder() {
        return FastCcsClient.builder()
                .addContactPoint(cluster.contactPoints().get(0))
                .withRequestTimeout(Duration.ofMillis(500))
                .withConnectTimeout(Duration.ofSeconds(2))
                .withReconnectDelay(Duration.ofMillis(20), Duration.ofMillis(200))
                .withIoThreads(2);
    }

    @AfterEach
    void tearDown() {
        if (client != null) client.close();
        if (cluster != null) cluster.close();
    }

    @Test
    void aNodeRunningAnotherProtocolFailsTheBuildAtOnceNamingBoth() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        cluster.runs(Protocol.EIGER);
        FastCcsClientBuilder b = builder().addContactPoint(cluster.contactPoints().get(1));
        assertThatThrownBy(b::build).isInstanceOfSatisfying(ProtocolMismatchException.class, e -> {
            assertThat(e).isInstanceOf(ProtocolException.class);
            assertThat(e.nodeProtocol()).isEqualTo(Protocol.EIGER);
            assertThat(e.clientProtocol()).isEqualTo(Protocol.FASTCCS);
            assertThat(e.getMessage()).contains("node 127.0.0.1:" + cluster.node(0).port + " runs eiger")
                    .contains("this client was built for fastccs").contains("FastCcsClientBuilder.withProtocol");
        });
        // A configuration error: the second contact point is not tried.
        assertThat(cluster.allHellos()).hasSize(1);
        assertThat(cluster.allHellos().get(0).protocol()).isEqualTo(Protocol.FASTCCS);
    }

    @Test
    void aClientOfAnotherProtocolRefusesAFastCcsNode() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        assertThatThrownBy(() -> builder().withProtocol(Protocol.WREN).build())
                .isInstanceOf(ProtocolMismatchException.class)
                .hasMessageContaining("runs fastccs; this client was built for wren");
        assertThat(cluster.allHellos()).extracting(Hello::protocol).containsOnly(Protocol.WREN);
    }

    @Test
    void aNodeRefusingTheHelloIsReported() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        cluster.refuseHellos(ErrorReply.of(0, ErrorCode.INVALID_REQUEST, "this node runs eiger, the client speaks fastccs"));
        assertThatThrownBy(() -> builder().build()).isInstanceOf(FastCcsException.class)
                .hasMessageContaining("refused the handshake").hasMessageContaining("this node runs eiger");
    }

    @Test
    void aMatchingNodeIsUsedAndEveryHelloNamesTheProtocol() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        cluster.runs(Protocol.EIGER);
        client = builder().withProtocol(Protocol.EIGER).build();
        assertThat(client.metrics().connectedPartitions()).isEqualTo(N);
        assertThat(cluster.allHellos()).hasSize(N + 1).extracting(Hello::protocol).containsOnly(Protocol.EIGER);
        assertThat(client.toString()).contains("eiger");
        // Causal tokens carry FastCCS's vector clock: another protocol's sessions have none to export or resume.
        CausalSession s = client.session();
        assertThatThrownBy(s::exportToken).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("causal tokens are FastCCS's").hasMessageContaining("speaks eiger");
        assertThatThrownBy(() -> client.session(CausalToken.of(new long[N], cluster.ring().fingerprint())))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("speaks eiger");
        assertThat(s.toString()).contains("protocol=eiger");
    }

    @Test
    void aFastCcsRoundTripThroughTheNeutralSessionIsUnchanged() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        client = builder().withProtocol(Protocol.FASTCCS).build();
        assertThat(cluster.allHellos()).extracting(Hello::protocol).containsOnly(Protocol.FASTCCS);
        CausalSession s = client.session();
        List<String> keys = List.of("a", "b", "c", "d", "e", "f");
        Map<String, String> writes = Map.of("a", "1", "b", "2", "c", "3", "d", "4", "e", "5", "f", "6");
        WriteResult w = s.write(writes);
        int owners = (int) keys.stream().map(k -> cluster.ring().ownerOf(io.fastccs.core.primitives.Key.of(k))).distinct().count();
        assertThat(w.partitionsTouched()).isEqualTo(owners);
        assertThat(w.size()).isEqualTo(6);
        assertThat(w.commitClock()).hasSize(N).isEqualTo(s.exportToken().clock());
        assertThat(w.commitTime()).isPositive().isEqualTo(s.exportToken().commitTime());
        ReadResult r = s.read(keys);
        assertThat(r.rounds()).isEqualTo(1);
        assertThat(r.partitionsTouched()).isEqualTo(owners);
        assertThat(r.secondRoundPartitions()).isZero();
        assertThat(client.metrics().readRounds()).isEqualTo(1);

        // The token resumes the context elsewhere: the new session's first read carries the clock.
        CausalToken token = CausalToken.parse(s.exportToken().toString());
        CausalSession resumed = client.session(token);
        assertThat(resumed.exportToken()).isEqualTo(token);
        List<ClientRequest> before = cluster.allRequests();
        resumed.read("a");
        assertThat(since(before)).singleElement().isInstanceOfSatisfying(FirstRoundRead.class,
                read -> assertThat(read.clock()).isEqualTo(VectorClock.of(w.commitClock())));
        before = cluster.allRequests();
        resumed.write(Map.of("a", "again"));
        assertThat(since(before)).singleElement().isInstanceOfSatisfying(WriteRequest.class,
                q -> assertThat(q.clock()).isEqualTo(VectorClock.of(w.commitClock())));
    }

    /** The requests the nodes received since {@code before} was taken. */
    private List<ClientRequest> since(List<ClientRequest> before) {
        java.util.Set<ClientRequest> old = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        old.addAll(before);
        return cluster.allRequests().stream().filter(q -> !old.contains(q)).toList();
    }
}
