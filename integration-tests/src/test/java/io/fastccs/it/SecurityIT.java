package io.fastccs.it;

import io.fastccs.testkit.RawClient;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ssl.ProgrammaticSslEngineFactory;
import io.fastccs.client.AuthenticationException;
import io.fastccs.client.CausalSession;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.FastCcsClientBuilder;
import io.fastccs.client.ReadResult;
import io.fastccs.client.UnauthorizedException;
import io.fastccs.client.WriteResult;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.Message;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.replication.GroupSpec;
import io.fastccs.tools.cluster.ClusterSecurity;
import io.fastccs.tools.cluster.LocalCluster;
import io.fastccs.tools.cluster.Ports;
import io.fastccs.tools.cluster.StartOptions;
import com.datastax.oss.driver.api.core.metadata.Node;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.client.api.GroupManagementApi;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.proto.RaftProtos;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.StatusRuntimeException;
import org.apache.ratis.util.TimeDuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.fastccs.it.TestCluster.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Security on the FastCCS port of a real cluster with PasswordAuthenticator, CassandraAuthorizer, client TLS and
 * internode TLS (issue 7, item 5): FastCCS asks for the same credentials and permissions as CQL, requires TLS when
 * Cassandra does, and accepts peer messages only from ring members over TLS. The partitions are replicated
 * (replication factor 3, each a Raft group of the three nodes, as {@code cluster start} deploys three nodes by
 * default), so the consensus port runs with the internode identity too: the groups elect leaders and transactions
 * commit over mutual TLS, while a plaintext client and one with a certificate the ring does not trust are refused
 * there (issue 12). Its own subnet (52) and one cluster for the class: a second cluster at replication factor 1
 * would double the runtime, and the FastCCS port's security is the same code in both modes.
 */
class SecurityIT {
    static final int SUBNET = 52;
    static final int NODES = 3;
    static final Ports PORTS = Ports.forSubnet(SUBNET);
    static final String WRITER = "fccs_writer", WRITER_PASSWORD = "w-secret";
    static final String READER = "fccs_reader", READER_PASSWORD = "r-secret";
    /** The default {@code raft_port}: each node's consensus port, on its own address. */
    static final int RAFT_PORT = 9143;
    /** Not a ring member: the loopback subnet of the cluster, an address no node has. */
    static final String OUTSIDER = "127.0." + SUBNET + ".99";

    private static LocalCluster cluster;
    private static Thread stopHook;
    private static SSLContext trustOnly;
    /** The nodes' own key pair and trust: what a (stolen-certificate) peer would present. */
    private static SSLContext nodeIdentity;

    @BeforeAll
    static void startSecuredCluster() throws Exception {
        ClassPin.pinProjectClasses();
        Path dir = Files.createTempDirectory("fastccs-security-it-");
        cluster = LocalCluster.at(dir, line -> log("[secure cluster] " + line));
        stopHook = new Thread(SecurityIT::removeCluster, "fastccs-security-it-stop");
        Runtime.getRuntime().addShutdownHook(stopHook);
        try {
            LocalCluster.StartReport report = cluster.start(StartOptions.nodes(NODES).onSubnet(SUBNET)
                    .withSecurity(ClusterSecurity.ALL).withNodeSettings(Map.of("replication_factor", Integer.toString(NODES)))
                    .withTimeout(Duration.ofMinutes(8))); // slow on a loaded 2-core machine
            log(String.format("secured cluster serving %.1f s after launch, ring at %.1f s (%s)",
                    report.toServing().toMillis() / 1000.0, report.toRing().toMillis() / 1000.0, dir));
            trustOnly = sslContext(false);
            nodeIdentity = sslContext(true);
            createRoles();
        } catch (Exception | Error e) {
            removeCluster();
            throw e;
        }
    }

    @AfterAll
    static void stopCluster() {
        removeCluster();
        try {
            if (stopHook != null) Runtime.getRuntime().removeShutdownHook(stopHook);
        } catch (IllegalStateException ignored) {
            // shutting down: the hook runs anyway
        }
    }

    private static synchronized void removeCluster() {
        if (cluster == null) return;
        keepLogs();
        try {
            if (cluster.exists()) cluster.remove(); // stops the nodes it started (by pid), then deletes the directory
        } catch (RuntimeException e) {
            System.err.println("could not remove the secured test cluster in " + cluster.dir() + ": " + e);
            try {
                cluster.stop();
            } catch (RuntimeException again) {
                System.err.println("could not stop it either: " + again);
            }
        }
        cluster = null;
    }

    private static void keepLogs() {
        TestCluster.keepLogs(cluster, NODES, "security");
    }

    /** TLS trusting the cluster's certificate; with {@code identity}, presenting the nodes' key pair as well. */
    private static SSLContext sslContext(boolean identity) throws Exception {
        char[] password = ClusterSecurity.STORE_PASSWORD.toCharArray();
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(load(ClusterSecurity.truststore(cluster.dir()), password));
        KeyManagerFactory kmf = null;
        if (identity) {
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(ClusterSecurity.keystore(cluster.dir()), password), password);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }

    private static KeyStore load(Path file, char[] password) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, password);
        }
        return ks;
    }

    private static CqlSession superuserCql() {
        return CqlSession.builder()
                .addContactPoint(new InetSocketAddress(PORTS.address(1), PORTS.cql()))
                .withLocalDatacenter("datacenter1")
                .withAuthCredentials(ClusterSecurity.SUPERUSER, ClusterSecurity.SUPERUSER_PASSWORD)
                .withSslEngineFactory(new ProgrammaticSslEngineFactory(trustOnly, null, false))
                .build();
    }

    /** As the superuser over CQL (once Cassandra created it): a writer (SELECT, MODIFY) and a reader (SELECT). */
    private static void createRoles() throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(90);
        RuntimeException last = null;
        while (Instant.now().isBefore(deadline)) {
            try (CqlSession cql = superuserCql()) {
                cql.execute("CREATE ROLE IF NOT EXISTS " + WRITER + " WITH PASSWORD = '" + WRITER_PASSWORD + "' AND LOGIN = true");
                cql.execute("CREATE ROLE IF NOT EXISTS " + READER + " WITH PASSWORD = '" + READER_PASSWORD + "' AND LOGIN = true");
                // On the keyspace the port checks permissions on (its table, the keyspace or all keyspaces), as the
                // README tells operators; it exists at every replication factor.
                cql.execute("GRANT SELECT ON KEYSPACE fastccs TO " + WRITER);
                cql.execute("GRANT MODIFY ON KEYSPACE fastccs TO " + WRITER);
                cql.execute("GRANT SELECT ON TABLE fastccs.versions TO " + READER);
                log("roles " + WRITER + " (SELECT, MODIFY on keyspace fastccs) and " + READER + " (SELECT on fastccs.versions) created");
                return;
            } catch (RuntimeException e) {
                last = e; // the default superuser is created shortly after the nodes join
                Thread.sleep(1000);
            }
        }
        throw new IllegalStateException("could not log in over CQL as the superuser to create roles", last);
    }

    private static FastCcsClientBuilder client() {
        FastCcsClientBuilder b = FastCcsClient.builder().withConnectTimeout(Duration.ofSeconds(10))
                .withRequestTimeout(Duration.ofSeconds(5));
        for (int node = 1; node <= NODES; node++) b.addContactPoint(fastccs(node));
        return b;
    }

    private static InetSocketAddress fastccs(int node) {
        return new InetSocketAddress(PORTS.address(node), PORTS.fastccs());
    }

    private static Map<String, String> keysOnEveryPartition(String prefix) {
        Map<String, String> writes = new LinkedHashMap<>();
        for (int i = 0; i < 30; i++) writes.put(prefix + i, "v" + i);
        return writes;
    }

    // ------------------------------------------------------------------------------------------------ logins

    @Test
    void aClientWithoutCredentialsIsRefused() {
        assertThatThrownBy(() -> client().withSslContext(trustOnly).build())
                .as("a TLS client without credentials")
                .isInstanceOf(AuthenticationException.class).hasMessageContaining("authentication required");
    }

    @Test
    void aWrongPasswordIsRefused() {
        assertThatThrownBy(() -> client().withSslContext(trustOnly).withCredentials(WRITER, "not-the-password").build())
                .as("a TLS client with a wrong password")
                .isInstanceOf(AuthenticationException.class).hasMessageContaining("incorrect");
        assertThatThrownBy(() -> client().withSslContext(trustOnly).withCredentials("nobody", "x").build())
                .as("a TLS client with an unknown user")
                .isInstanceOf(AuthenticationException.class);
    }

    @Test
    void aPlainClientIsRefusedWhenCassandraRequiresClientTls() throws Exception {
        assertThatThrownBy(() -> client().withCredentials(WRITER, WRITER_PASSWORD).build())
                .as("a plain-text client with the right credentials")
                .isInstanceOf(AuthenticationException.class).hasMessageContaining("TLS");
        try (Socket plain = new Socket()) {
            plain.connect(fastccs(1), 5000);
            plain.setSoTimeout(10_000);
            Message reply = exchange(plain, Hello.client(WRITER, WRITER_PASSWORD));
            assertUnauthorized(reply, "TLS");
            assertClosed(plain);
        }
    }

    // ---------------------------------------------------------------------------------------- data and grants

    /**
     * A fresh session's read, again until it shows {@code expected} or 10 s passed: a session without causal past sees
     * a committed write once stabilization brought it to every partition, which is not at once.
     */
    private static ReadResult readOnceVisible(java.util.function.Supplier<ReadResult> read, Map<String, String> expected) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (true) {
            ReadResult r = read.get();
            boolean visible = expected.entrySet().stream().allMatch(e -> e.getValue().equals(r.getString(e.getKey())));
            if (visible || System.nanoTime() > deadline) return r;
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return r;
            }
        }
    }

    @Test
    void theRightCredentialsOverTlsReadAndWriteAcrossEveryPartition() {
        try (FastCcsClient client = client().withSslContext(trustOnly).withCredentials(WRITER, WRITER_PASSWORD).build()) {
            CausalSession s = client.session();
            Map<String, String> writes = keysOnEveryPartition("secure:");
            WriteResult w = s.write(writes);
            // Three participants: the coordinator's prepare/commit messages crossed peer links, which run over TLS.
            assertThat(w.partitionsTouched()).as("partitions of one write").isEqualTo(NODES);
            // A fresh session has no causal past: it sees the write once stabilization has told every partition it
            // settled (the durable part of each settled prefix), within milliseconds, not at once.
            ReadResult r = readOnceVisible(() -> client.session().read(List.copyOf(writes.keySet())), writes);
            assertThat(r.partitionsTouched()).isEqualTo(NODES);
            writes.forEach((k, v) -> assertThat(r.getString(k)).as("read of %s by a fresh session", k).isEqualTo(v));
            // Continuing the causal context on a new session must see them at once, whichever node answers.
            ReadResult again = client.session(s.exportToken()).read(List.copyOf(writes.keySet()));
            writes.forEach((k, v) -> assertThat(again.getString(k)).as(k).isEqualTo(v));
        }
        try (FastCcsClient superuser = client().withSslContext(trustOnly)
                .withCredentials(ClusterSecurity.SUPERUSER, ClusterSecurity.SUPERUSER_PASSWORD).build()) {
            assertThat(readOnceVisible(() -> superuser.session().read("secure:0"), Map.of("secure:0", "v0"))
                    .getString("secure:0")).isEqualTo("v0");
        }
    }

    @Test
    void aRoleWithOnlySelectReadsButItsWriteIsRefused() {
        try (FastCcsClient writer = client().withSslContext(trustOnly).withCredentials(WRITER, WRITER_PASSWORD).build();
             FastCcsClient reader = client().withSslContext(trustOnly).withCredentials(READER, READER_PASSWORD).build()) {
            Map<String, String> keys = keysOnEveryPartition("grant:");
            writer.session().write(keys);
            CausalSession s = reader.session();
            ReadResult r = s.read(List.copyOf(keys.keySet()));
            keys.forEach((k, v) -> assertThat(r.getString(k)).as("reader's read of %s", k).isEqualTo(v));
            Map<String, String> overwrite = new LinkedHashMap<>();
            keys.keySet().forEach(k -> overwrite.put(k, "by-reader"));
            assertThatThrownBy(() -> s.write(overwrite)).as("a write by a role with SELECT only")
                    .isInstanceOf(UnauthorizedException.class).hasMessageContaining("MODIFY");
            assertThat(s.hasUnconfirmedWrite()).isFalse();
            ReadResult after = writer.session().read(List.copyOf(keys.keySet()));
            keys.forEach((k, v) -> assertThat(after.getString(k)).as("%s after the refused write", k).isEqualTo(v));
        }
    }

    // ------------------------------------------------------------------------------------------------- peers

    @Test
    void aNonMemberCannotInjectPeerMessagesEvenWithTheNodeCertificate() throws Exception {
        int impersonated = 1; // partition 1: whichever node it is, the outsider is none of them
        long huge = Long.MAX_VALUE / 4;
        try (SSLSocket socket = peerSocket(fastccs(1), InetAddress.getByName(OUTSIDER))) {
            // Hello and forged stabilizations in one write: the node must drop the rest after refusing the Hello.
            List<Message> burst = new ArrayList<>(List.of(Hello.peer(impersonated)));
            for (int p = 0; p < NODES; p++) burst.add(new Stabilize(p, huge));
            RawClient raw = RawClient.over(socket);
            raw.sendBytes(RawClient.frames(burst.toArray(Message[]::new)));
            assertUnauthorized(raw.receive(), "not a ring member");
            assertClosed(socket);
        }
        // Nothing was applied: no partition's snapshot clock, at whichever node leads it, jumped to the forged value.
        Map<Integer, VectorClock> snapshots = snapshotsAtLeaders();
        assertThat(snapshots.keySet()).as("partitions whose leader answered").containsExactlyInAnyOrder(0, 1, 2);
        snapshots.forEach((partition, svc) -> {
            for (int p = 0; p < NODES; p++)
                assertThat(svc.get(p)).as("partition %d's svc[%d] after the forged Stabilize (svc %s)", partition, p, svc).isLessThan(huge);
        });
    }

    @Test
    void aMemberAddressWithoutTlsCannotActAsAPeerWhenInternodeEncryptionIsOn() throws Exception {
        // From node 1's own address to node 2, claiming node 1's partition, but in plain text.
        int partitionOfNode1 = helloAsClient(1).partition();
        try (Socket plain = new Socket()) {
            plain.bind(new InetSocketAddress(PORTS.address(1), 0));
            plain.connect(fastccs(2), 5000);
            plain.setSoTimeout(10_000);
            Message reply = exchange(plain, Hello.peer(partitionOfNode1));
            assertUnauthorized(reply, "internode encryption");
            assertClosed(plain);
        }
    }

    // --------------------------------------------------------------------------------------- consensus port

    @Test
    void theGroupsElectLeadersOverMutualTlsWithTheRingsIdentity() throws Exception {
        Map<String, String> hostIds = hostIdsByAddress();
        List<RaftGroupId> groups = new ArrayList<>();
        for (int p = 0; p < NODES; p++) groups.add(RaftGroupId.valueOf(GroupSpec.groupUuid(p)));
        Instant deadline = Instant.now().plusSeconds(30);
        while (true) {
            // Asked over the consensus port itself, as a member would: the TLS handshake checks the node's IP (SAN).
            Map<RaftGroupId, Integer> leaders = new LinkedHashMap<>();
            for (int node = 1; node <= NODES; node++) {
                String address = PORTS.address(node);
                try (RaftClient client = raftClient(address, hostIds.get(address), ringIdentity())) {
                    GroupManagementApi api = client.getGroupManagementApi(RaftPeerId.valueOf(hostIds.get(address)));
                    assertThat(api.list().getGroupIds()).as("groups node %d is a member of", node).containsAll(groups);
                    for (RaftGroupId group : groups)
                        if (api.info(group).getRoleInfoProto().getRole() == RaftProtos.RaftPeerRole.LEADER) leaders.put(group, node);
                }
            }
            if (leaders.keySet().containsAll(groups)) {
                log("consensus port over mutual TLS: every group has a leader (" + leaders.values() + ")");
                return;
            }
            assertThat(Instant.now()).as("every group elected a leader; leaders so far %s", leaders).isBefore(deadline);
            Thread.sleep(500);
        }
    }

    @Test
    void theConsensusPortRefusesAPlaintextClientAndAnUntrustedCertificate() throws Exception {
        Map<String, String> hostIds = hostIdsByAddress();
        String address = PORTS.address(1), id = hostIds.get(address);
        assertRefused(() -> listGroups(address, id, new Parameters()), "a plaintext Ratis client");
        // Trusts the ring's certificate (so only its own identity can fail), but presents a self-signed one.
        assertRefused(() -> listGroups(address, id, identity(selfSignedStranger(), ringTrust())),
                "a Ratis client whose certificate the ring does not trust");
        // The control: the same call with the ring's identity gets through.
        assertThat(listGroups(address, id, ringIdentity())).isNotEmpty();

        // And below gRPC: a TLS handshake presenting the stranger's certificate ends before any byte is answered.
        SSLContext stranger = SSLContext.getInstance("TLS");
        stranger.init(selfSignedStranger().getKeyManagers(), trustFactory().getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) stranger.getSocketFactory().createSocket()) {
            socket.connect(new InetSocketAddress(address, RAFT_PORT), 5000);
            socket.setSoTimeout(10_000);
            assertThatThrownBy(() -> {
                socket.startHandshake(); // with TLS 1.3 the client's certificate is judged after the client's Finished
                socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                if (socket.getInputStream().read() < 0) throw new IOException("closed without an answer");
            }).as("a TLS handshake with an untrusted certificate").isInstanceOf(IOException.class);
        }
    }

    /** The call never reached Ratis: gRPC reports the connection closed (UNAVAILABLE), or Ratis an I/O failure. */
    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String who) {
        assertThatThrownBy(call).as(who).satisfiesAnyOf(
                t -> assertThat(t).isInstanceOf(IOException.class),
                t -> assertThat(t).isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE)));
    }

    /** The groups node {@code address} is a member of, asked over its consensus port with {@code parameters}. */
    private static List<RaftGroupId> listGroups(String address, String hostId, Parameters parameters) throws IOException {
        try (RaftClient client = raftClient(address, hostId, parameters)) {
            return client.getGroupManagementApi(RaftPeerId.valueOf(hostId)).list().getGroupIds();
        }
    }

    /** A Ratis client of the node alone, giving up after one try. */
    private static RaftClient raftClient(String address, String hostId, Parameters parameters) {
        RaftProperties properties = new RaftProperties();
        RaftClientConfigKeys.Rpc.setRequestTimeout(properties, TimeDuration.valueOf(5, TimeUnit.SECONDS));
        RaftPeer peer = RaftPeer.newBuilder().setId(hostId).setAddress(address + ":" + RAFT_PORT).build();
        return RaftClient.newBuilder().setRaftGroup(RaftGroup.valueOf(RaftGroupId.randomId(), peer))
                .setProperties(properties).setParameters(parameters).setRetryPolicy(RetryPolicies.noRetry()).build();
    }

    /** Cassandra's host id of each node (the members' ids in the groups), by address. */
    private static Map<String, String> hostIdsByAddress() {
        Map<String, String> ids = new LinkedHashMap<>();
        try (CqlSession cql = superuserCql()) {
            for (Node n : cql.getMetadata().getNodes().values())
                ids.put(((InetSocketAddress) n.getEndPoint().resolve()).getAddress().getHostAddress(), String.valueOf(n.getHostId()));
        }
        assertThat(ids).as("host ids from the driver's metadata").hasSize(NODES);
        return ids;
    }

    private static Parameters ringIdentity() throws Exception {
        return identity(keyFactory(ClusterSecurity.keystore(cluster.dir()), ClusterSecurity.STORE_PASSWORD.toCharArray()), ringTrust());
    }

    private static TrustManager ringTrust() throws Exception {
        return trustFactory().getTrustManagers()[0];
    }

    /** Client and admin calls with {@code keys}' identity, trusting {@code trust}. */
    private static Parameters identity(KeyManagerFactory keys, TrustManager trust) {
        Parameters parameters = new Parameters();
        GrpcTlsConfig tls = new GrpcTlsConfig(keys.getKeyManagers()[0], trust, true);
        GrpcConfigKeys.Client.setTlsConf(parameters, tls);
        GrpcConfigKeys.Admin.setTlsConf(parameters, tls);
        GrpcConfigKeys.TLS.setConf(parameters, tls);
        return parameters;
    }

    private static TrustManagerFactory trustFactory() throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(load(ClusterSecurity.truststore(cluster.dir()), ClusterSecurity.STORE_PASSWORD.toCharArray()));
        return tmf;
    }

    private static KeyManagerFactory keyFactory(Path keystore, char[] password) throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(load(keystore, password), password);
        return kmf;
    }

    /** A self-signed key pair naming node 1's address, made with keytool like the ring's, but trusted by nobody. */
    private static synchronized KeyManagerFactory selfSignedStranger() throws Exception {
        Path keystore = cluster.dir().resolve("stranger.p12");
        if (!Files.isRegularFile(keystore)) {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                    "-genkeypair", "-alias", "node", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-dname", "CN=fastccs-local-cluster", "-ext", "SAN=ip:" + PORTS.address(1), "-keystore", keystore.toString(),
                    "-storetype", "PKCS12", "-storepass", ClusterSecurity.STORE_PASSWORD, "-keypass", ClusterSecurity.STORE_PASSWORD)
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IllegalStateException("keytool failed: " + out);
        }
        return keyFactory(keystore, ClusterSecurity.STORE_PASSWORD.toCharArray());
    }

    // ---------------------------------------------------------------------------------------------- helpers

    /** A TLS socket from {@code source} that asks for the peer server name and presents the nodes' certificate. */
    private static SSLSocket peerSocket(InetSocketAddress node, InetAddress source) throws IOException {
        Socket tcp = new Socket();
        tcp.bind(new InetSocketAddress(source, 0));
        tcp.connect(node, 5000);
        tcp.setSoTimeout(10_000);
        SSLSocket tls = (SSLSocket) nodeIdentity.getSocketFactory().createSocket(tcp, node.getHostString(), node.getPort(), true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName("fastccs-peer")));
        tls.setSSLParameters(parameters);
        tls.startHandshake();
        return tls;
    }

    /** A TLS client login as the superuser on {@code node}: its HelloReply. */
    private static HelloReply helloAsClient(int node) throws IOException {
        try (SSLSocket socket = clientSocket(node)) {
            Message reply = exchange(socket, Hello.client(ClusterSecurity.SUPERUSER, ClusterSecurity.SUPERUSER_PASSWORD));
            assertThat(reply).as("superuser login on node %d", node).isInstanceOf(HelloReply.class);
            return (HelloReply) reply;
        }
    }

    private static SSLSocket clientSocket(int node) throws IOException {
        SSLSocket socket = (SSLSocket) trustOnly.getSocketFactory().createSocket();
        socket.connect(fastccs(node), 5000);
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        return socket;
    }

    /** Each partition's snapshot clock, from a first-round read by the superuser at the node leading it. */
    private static Map<Integer, VectorClock> snapshotsAtLeaders() throws IOException {
        Map<Integer, VectorClock> snapshots = new LinkedHashMap<>();
        for (int node = 1; node <= NODES; node++)
            for (int partition = 0; partition < NODES; partition++)
                if (!snapshots.containsKey(partition)) {
                    VectorClock svc = snapshotOf(node, partition);
                    if (svc != null) snapshots.put(partition, svc);
                }
        return snapshots;
    }

    /** Partition {@code partition}'s snapshot clock at {@code node}, or null if that node does not lead it. */
    private static VectorClock snapshotOf(int node, int partition) throws IOException {
        try (SSLSocket socket = clientSocket(node)) {
            Message hello = exchange(socket, Hello.client(ClusterSecurity.SUPERUSER, ClusterSecurity.SUPERUSER_PASSWORD).to(partition));
            if (hello instanceof ErrorReply e && e.code() == ErrorCode.NOT_LEADER) return null;
            assertThat(hello).as("superuser login on node %d for partition %d", node, partition).isInstanceOf(HelloReply.class);
            int owned = -1;
            // A key the partition owns: try a few until it does not refuse it as NOT_OWNER.
            for (int i = 0; i < 64; i++) {
                Message m = exchange(socket, new FirstRoundRead(100 + i, List.of(Key.of("svc-probe-" + i)), VectorClock.zero(NODES)));
                if (m instanceof ReadReply r) return r.snapshot();
                if (!(m instanceof ErrorReply e && e.code() == ErrorCode.NOT_OWNER))
                    throw new AssertionError("node " + node + " answered a first-round read for partition " + partition + " with " + m);
                owned = e.owner();
            }
            throw new AssertionError("no probe key owned by partition " + partition + " (last owner named: " + owned + ")");
        }
    }

    /** One request and its reply over {@code socket}, which stays open. */
    private static Message exchange(Socket socket, Message m) throws IOException {
        return RawClient.over(socket).exchange(m);
    }

    private static void assertUnauthorized(Message reply, String reason) {
        assertThat(reply).as("the node's answer").isInstanceOfSatisfying(ErrorReply.class, e -> {
            assertThat(e.code()).as("error code of %s", e).isEqualTo(ErrorCode.UNAUTHORIZED);
            assertThat(e.message()).as("reason in %s", e).contains(reason);
        });
    }

    /** The node closes the connection: end of stream (or a reset) before any further frame, within the timeout. */
    private static void assertClosed(Socket socket) throws IOException {
        try {
            Message extra = RawClient.over(socket).receive();
            throw new AssertionError("the node kept the refused connection open and sent " + extra);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the node did not close the refused connection within the socket timeout", e);
        } catch (IOException e) {
            // closed: end of stream, a reset, or TLS closed without close_notify
        }
    }
}
