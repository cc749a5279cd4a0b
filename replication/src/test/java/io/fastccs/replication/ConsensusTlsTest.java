package io.fastccs.replication;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.retry.RetryPolicies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The consensus port under mutual TLS, with stores made by keytool as the cluster tool makes Cassandra's: the ring's
 * members form a group and commit; a client without TLS, or with a certificate the ring does not trust, gets nothing
 * through, while the same request with the ring's identity does. gRPC checks the server's address against its
 * certificate, so a node certificate must name the node's IP (subject alternative name).
 */
class ConsensusTlsTest {
    private static final char[] PASSWORD = "fastccs-test".toCharArray();

    @TempDir
    Path dir;

    @Test
    void membersCommitOverMutualTlsAndOutsidersAreRefused() throws Exception {
        ReplicaSettings.Tls ring = tls(dir.resolve("ring"), "ring");
        ReplicaSettings.Tls outsider = tls(dir.resolve("outsider"), "outsider");
        try (TestGroups g = new TestGroups(dir.resolve("groups"), 3, 1, TestGroups.FAST.withTls(ring))) {
            int leader = g.awaitLeader(0, Duration.ofSeconds(20));
            assertThat(g.log(leader, 0).append("over TLS".getBytes()).get(30, TimeUnit.SECONDS)).isPositive();

            RaftGroup group = RaftGroup.valueOf(RaftGroupId.valueOf(g.groups.get(0).groupUuid()),
                    g.groups.get(0).members().stream().map(m -> RaftPeer.newBuilder().setId(m.nodeId()).setAddress(m.address()).build()).toList());
            assertThatThrownBy(() -> send(group, new Parameters())).as("a plaintext client").isInstanceOf(IOException.class);
            Parameters foreign = new Parameters();
            GrpcConfigKeys.Client.setTlsConf(foreign, new GrpcTlsConfig(outsider.keyManager(), ring.trustManager(), true));
            assertThatThrownBy(() -> send(group, foreign)).as("a client whose certificate the ring does not trust")
                    .isInstanceOf(IOException.class);

            // The control: the same request with the ring's own identity gets through.
            Parameters member = new Parameters();
            GrpcConfigKeys.Client.setTlsConf(member, new GrpcTlsConfig(ring.keyManager(), ring.trustManager(), true));
            send(group, member);

            int node = leader;
            TestGroups.await(() -> g.appliers[node][0].applied().size() == 2, Duration.ofSeconds(10), "applied");
            assertThat(g.appliers[leader][0].applied()).as("nothing of the outsiders got in").containsExactly("over TLS", "intruder");
        }
    }

    @Test
    void aMemberWhoseCertificateDoesNotNameItsAddressIsRefusedAtStart() throws Exception {
        ReplicaSettings.Tls unnamed = tls(dir.resolve("unnamed"), "unnamed", "SAN=ip:127.0.70.9,dns:localhost");
        GroupMember self = new GroupMember("n1", "127.0.70.1", 9143, 0);
        GroupSpec group = new GroupSpec(0, List.of(self));
        assertThatThrownBy(() -> ReplicaServer.start(self, dir.resolve("unnamed-storage"), TestGroups.FAST.withTls(unnamed),
                java.util.Map.of(group, new RecordingApplier())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must name its address 127.0.70.1")
                .hasMessageContaining("127.0.70.9")
                .hasMessageContaining("SAN=ip:127.0.70.1");
        assertThat(dir.resolve("unnamed-storage")).as("nothing started").doesNotExist();
    }

    /** Sends "intruder" to the group as a Ratis client would (retrying to find the leader for a few seconds). */
    private static void send(RaftGroup group, Parameters parameters) throws IOException {
        RaftProperties properties = new RaftProperties();
        try (RaftClient client = RaftClient.newBuilder().setRaftGroup(group).setProperties(properties).setParameters(parameters)
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(10,
                        org.apache.ratis.util.TimeDuration.valueOf(200, TimeUnit.MILLISECONDS))).build()) {
            var reply = client.io().send(Message.valueOf("intruder"));
            if (!reply.isSuccess()) throw new IOException("refused: " + reply.getException());
        }
    }

    /** A key pair and a trust store holding its certificate, made with the JDK's keytool. */
    private static ReplicaSettings.Tls tls(Path dir, String name) throws Exception {
        return tls(dir, name, "SAN=ip:127.0.70.1,ip:127.0.70.2,ip:127.0.70.3");
    }

    private static ReplicaSettings.Tls tls(Path dir, String name, String subjectAlternativeNames) throws Exception {
        Files.createDirectories(dir);
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Path keystore = dir.resolve("keystore.p12"), cert = dir.resolve("node.crt"), truststore = dir.resolve("truststore.p12");
        run(keytool, "-genkeypair", "-alias", "node", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name, "-ext", subjectAlternativeNames,
                "-validity", "2", "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", new String(PASSWORD));
        run(keytool, "-exportcert", "-alias", "node", "-keystore", keystore.toString(), "-storepass", new String(PASSWORD),
                "-file", cert.toString());
        run(keytool, "-importcert", "-noprompt", "-alias", "node", "-file", cert.toString(), "-keystore", truststore.toString(),
                "-storetype", "PKCS12", "-storepass", new String(PASSWORD));
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(keystore)) {
            ks.load(in, PASSWORD);
        }
        KeyStore ts = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(truststore)) {
            ts.load(in, PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ts);
        return new ReplicaSettings.Tls(kmf.getKeyManagers()[0], tmf.getTrustManagers()[0]);
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0)
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
}
