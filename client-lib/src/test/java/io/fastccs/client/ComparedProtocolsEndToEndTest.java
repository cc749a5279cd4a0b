package io.fastccs.client;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.server.node.InProcessCluster;
import io.fastccs.server.transport.TransportSecurity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every protocol through the client against real nodes (in-process, real sockets) that run all four on one port: a
 * session writes across partitions and reads its writes back, and each protocol's reads take its rounds.
 */
class ComparedProtocolsEndToEndTest {
    private static final int PARTITIONS = 3;
    private static InProcessCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = InProcessCluster.start(PARTITIONS, PartitionConfig.defaults(), TransportSecurity.NONE, EnumSet.allOf(Protocol.class));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) cluster.close();
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void aSessionReadsItsOwnWritesAcrossPartitions(Protocol protocol) {
        try (FastCcsClient client = FastCcsClient.builder().addContactPoints(cluster.contactPoints()).withProtocol(protocol).build()) {
            CausalSession s = client.session();
            Map<String, String> writes = new LinkedHashMap<>();
            for (int i = 0; i < 12; i++) writes.put(protocol.word() + "-k" + i, "v" + i);
            WriteResult w = s.write(writes);
            assertThat(w.size()).isEqualTo(writes.size());
            ReadResult r = s.read(List.copyOf(writes.keySet()));
            writes.forEach((k, v) -> assertThat(r.getString(k)).as(protocol + " " + k).isEqualTo(v));
            assertThat(r.partitionsTouched()).isEqualTo(PARTITIONS);
            assertThat(r.rounds()).isBetween(1, 3);
            if (protocol == Protocol.WREN) // (its own recent writes may come from its write cache after the start round)
                assertThat(s.read(List.of("wren-never-written")).rounds()).as("Wren: a start round and a read round").isEqualTo(2);

            s.write(Map.of(protocol.word() + "-k0", "v0-again"));
            assertThat(s.read(List.of(protocol.word() + "-k0")).getString(protocol.word() + "-k0")).isEqualTo("v0-again");
            // The protocols keep separate data on the same nodes: what this one wrote is not another's.
            Protocol other = protocol == Protocol.FASTCCS ? Protocol.EVENTUAL : Protocol.FASTCCS;
            try (FastCcsClient otherClient = FastCcsClient.builder().addContactPoints(cluster.contactPoints()).withProtocol(other).build()) {
                assertThat(otherClient.session().read(List.of(protocol.word() + "-k0")).getString(protocol.word() + "-k0")).isNull();
            }
        }
    }

    /** The nodes' traffic counters (what the experiments read over JMX) count each protocol's frames under its name. */
    @ParameterizedTest
    @EnumSource(Protocol.class)
    void eachProtocolsFramesAreCountedUnderItsName(Protocol protocol) {
        try (FastCcsClient client = FastCcsClient.builder().addContactPoints(cluster.contactPoints()).withProtocol(protocol).build()) {
            CausalSession s = client.session();
            Map<String, Long> before = cluster.traffic();
            s.write(Map.of(protocol.word() + "-t1", "a", protocol.word() + "-t2", "b", protocol.word() + "-t3", "c"));
            s.read(List.of(protocol.word() + "-t1", protocol.word() + "-t2", protocol.word() + "-t3"));
            Map<String, Long> after = cluster.traffic();
            for (Protocol p : Protocol.values()) {
                for (String kind : List.of("client_requests", "client_answers")) {
                    long frames = after.get(p.word() + "." + kind + ".frames") - before.get(p.word() + "." + kind + ".frames");
                    long bytes = after.get(p.word() + "." + kind + ".bytes") - before.get(p.word() + "." + kind + ".bytes");
                    if (p == protocol) {
                        assertThat(frames).as(p + " " + kind + ": a write and a read, at least one frame each").isGreaterThanOrEqualTo(2);
                        assertThat(bytes).as(p + " " + kind + ": every frame has its 4-byte length and a body").isGreaterThan(5 * frames);
                    } else {
                        assertThat(frames).as(p + " " + kind + " while only " + protocol + " ran").isZero();
                    }
                }
            }
        }
    }

    @Test
    void aNodeThatDoesNotRunTheClientsProtocolRefusesItByName() throws Exception {
        try (InProcessCluster eigerOnly = InProcessCluster.start(1, PartitionConfig.defaults(), TransportSecurity.NONE,
                EnumSet.of(Protocol.EIGER))) {
            assertThatThrownBy(() -> FastCcsClient.builder().addContactPoints(eigerOnly.contactPoints()).build())
                    .hasMessageContaining("this node runs eiger; the connection speaks fastccs");
        }
    }
}
