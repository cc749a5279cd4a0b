package io.fastccs.client;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.PartitionConfig;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.Message;
import io.fastccs.core.ring.TokenRing;
import io.fastccs.core.wire.WireCodec;
import io.fastccs.server.node.InProcessCluster;
import io.fastccs.server.transport.TransportSecurity;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client against in-process nodes whose port requires TLS (clients and peers) and a login, with a reader that
 * may only read: the client side of the security of issue 7 without a Cassandra cluster (SecurityIT does it on one).
 */
class SecuredInProcessClusterTest {
    private static final int PARTITIONS = 3;
    private static final char[] STORE_PASSWORD = "changeit".toCharArray();
    @TempDir
    static Path dir;
    private static InProcessCluster cluster;
    private static SSLContext clientTls;

    /** Users: password and what they may do. */
    private record User(String password, Set<TransportSecurity.Access> grants) {
    }

    private static final Map<String, User> USERS = Map.of(
            "admin", new User("secret", Set.of(TransportSecurity.Access.READ, TransportSecurity.Access.WRITE)),
            "reader", new User("r", Set.of(TransportSecurity.Access.READ)));

    @BeforeAll
    static void start() throws Exception {
        Path keystore = dir.resolve("node.p12"), truststore = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "node", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=fastccs-test",
                "-validity", "30", "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", "changeit",
                "-keypass", "changeit");
        keytool("-exportcert", "-alias", "node", "-keystore", keystore.toString(), "-storepass", "changeit", "-file",
                dir.resolve("node.crt").toString());
        keytool("-importcert", "-noprompt", "-alias", "node", "-file", dir.resolve("node.crt").toString(), "-keystore",
                truststore.toString(), "-storetype", "PKCS12", "-storepass", "changeit");
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(load(keystore), STORE_PASSWORD);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(load(truststore));
        SslContext clientServer = SslContextBuilder.forServer(kmf).build();
        SslContext peerServer = SslContextBuilder.forServer(kmf).trustManager(tmf).clientAuth(ClientAuth.REQUIRE).build();
        SslContext peerClient = SslContextBuilder.forClient().keyManager(kmf).trustManager(tmf).build();
        clientTls = SSLContext.getInstance("TLS");
        clientTls.init(null, tmf.getTrustManagers(), null);

        TransportSecurity security = new TransportSecurity() {
            @Override public TlsPolicy clientTls() { return TlsPolicy.ENCRYPTED; }
            @Override public TlsPolicy peerTls() { return TlsPolicy.ENCRYPTED; }
            @Override public SslContext clientServerContext() { return clientServer; }
            @Override public SslContext peerServerContext() { return peerServer; }
            @Override public SslContext peerClientContext() { return peerClient; }
            @Override public boolean authenticationRequired() { return true; }

            @Override
            public Principal login(InetSocketAddress remote, String user, String password) throws Refused {
                User u = user == null ? null : USERS.get(user);
                if (user == null || password == null) throw new Refused("authentication required");
                if (u == null || !u.password.equals(password)) throw new Refused("bad user or password");
                return new Principal() {
                    @Override public String name() { return user; }
                    @Override public String denied(Access access) {
                        return u.grants.contains(access) ? null : user + " has no " + access + " permission";
                    }
                    @Override public long validityMillis() { return 1000; }
                };
            }
        };
        cluster = InProcessCluster.start(PARTITIONS, PartitionConfig.defaults(), security);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) cluster.close();
    }

    private static KeyStore load(Path file) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, STORE_PASSWORD);
        }
        return ks;
    }

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IllegalStateException("keytool failed: " + out);
    }

    private static FastCcsClientBuilder builder() {
        return FastCcsClient.builder().addContactPoints(cluster.contactPoints())
                .withConnectTimeout(Duration.ofSeconds(5)).withRequestTimeout(Duration.ofSeconds(5));
    }

    @Test
    void withoutCredentialsTheClientIsRefused() {
        assertThatThrownBy(() -> builder().withSslContext(clientTls).build())
                .isInstanceOf(AuthenticationException.class).hasMessageContaining("authentication required");
    }

    @Test
    void aWrongPasswordIsRefused() {
        assertThatThrownBy(() -> builder().withSslContext(clientTls).withCredentials("admin", "wrong").build())
                .isInstanceOf(AuthenticationException.class).hasMessageContaining("bad user or password");
    }

    @Test
    void aPlainConnectionIsRefusedWhenTlsIsRequired() {
        assertThatThrownBy(() -> builder().withCredentials("admin", "secret").build())
                .isInstanceOf(AuthenticationException.class).hasMessageContaining("TLS");
    }

    @Test
    void theRightCredentialsOverTlsReadAndWriteAcrossPartitionsWithPeersOverTls() {
        TokenRing ring = TokenRing.of(cluster.node(0).ring().members());
        Map<String, String> writes = new LinkedHashMap<>();
        for (int i = 0; writes.size() < 6; i++) writes.put("sec-" + i, "v" + i);
        assertThat(writes.keySet().stream().map(k -> ring.ownerOf(Key.of(k))).distinct().count()).isGreaterThan(1);
        try (FastCcsClient client = builder().withSslContext(clientTls).withCredentials("admin", "secret").build()) {
            CausalSession s = client.session();
            assertThat(s.write(writes).partitionsTouched()).isGreaterThan(1);
            ReadResult r = s.read(new ArrayList<>(writes.keySet()));
            writes.forEach((k, v) -> assertThat(r.getString(k)).as(k).isEqualTo(v));
        }
    }

    @Test
    void aReaderReadsButItsWriteIsRefused() {
        try (FastCcsClient admin = builder().withSslContext(clientTls).withCredentials("admin", "secret").build();
             FastCcsClient reader = builder().withSslContext(clientTls).withCredentials("reader", "r").build()) {
            admin.session().write(Map.of("shared", "by-admin"));
            CausalSession s = reader.session();
            assertThat(s.read("shared").getString("shared")).isEqualTo("by-admin");
            assertThatThrownBy(() -> s.write(Map.of("shared", "by-reader")))
                    .isInstanceOf(UnauthorizedException.class).hasMessageContaining("reader has no WRITE permission");
            assertThat(s.hasUnconfirmedWrite()).isFalse();
            assertThat(admin.session().read("shared").getString("shared")).isEqualTo("by-admin");
        }
    }

    @Test
    void aPeerWithoutTlsIsRefused() throws Exception {
        InetSocketAddress node = cluster.contactPoints().get(0);
        try (Socket socket = new Socket()) {
            socket.connect(node, 5000);
            socket.setSoTimeout(5000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            byte[] hello = WireCodec.encode(Hello.peer(1));
            out.writeInt(hello.length);
            out.write(hello);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            Message reply = WireCodec.decode(frame);
            assertThat(reply).isInstanceOfSatisfying(ErrorReply.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.UNAUTHORIZED);
                assertThat(e.message()).contains("internode encryption");
            });
            assertThat(in.read()).isEqualTo(-1); // closed
        }
    }
}
