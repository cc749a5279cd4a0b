package io.fastccs.server.cassandra;

import io.fastccs.replication.ReplicaSettings;
import org.apache.cassandra.config.EncryptionOptions.ServerEncryptionOptions;
import org.apache.cassandra.config.EncryptionOptions.ServerEncryptionOptions.InternodeEncryption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.X509KeyManager;
import javax.net.ssl.X509TrustManager;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The consensus port's TLS follows {@code server_encryption_options} through Cassandra's own SSL context factory:
 * keytool-made PKCS12 stores read as Cassandra reads them, plaintext when internode encryption is off.
 */
class CassandraConsensusTlsTest {
    private static final String PASSWORD = "fastccs-test";

    @TempDir
    Path dir;

    @Test
    void internodeEncryptionGivesTheInternodeKeyAndTrust() throws Exception {
        Path keystore = dir.resolve("keystore.p12"), truststore = dir.resolve("truststore.p12");
        makeStores(keystore, truststore);
        for (InternodeEncryption on : List.of(InternodeEncryption.all, InternodeEncryption.dc, InternodeEncryption.rack)) {
            ReplicaSettings.Tls tls = CassandraConsensusTls.of(options(on, keystore, truststore));
            assertThat(tls).as("internode_encryption: %s", on).isNotNull();
            X509KeyManager keys = (X509KeyManager) tls.keyManager();
            X509Certificate mine = keys.getCertificateChain(keys.getServerAliases("RSA", null)[0])[0];
            assertThat(mine.getSubjectX500Principal().getName()).isEqualTo("CN=node");
            X509TrustManager trust = (X509TrustManager) tls.trustManager();
            assertThat(trust.getAcceptedIssuers()).containsExactly(mine);
            tls.requireCertificateNaming("127.0.63.1"); // the keystore's SAN
        }
    }

    @Test
    void withoutInternodeEncryptionThePortIsPlain() throws Exception {
        assertThat(CassandraConsensusTls.of(options(InternodeEncryption.none, dir.resolve("absent.p12"), dir.resolve("absent.p12"))))
                .isNull();
    }

    @Test
    void anUnreadableKeystoreSaysWhich() {
        Path missing = dir.resolve("missing.p12");
        assertThatThrownBy(() -> CassandraConsensusTls.of(options(InternodeEncryption.all, missing, missing)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("consensus port");
    }

    private static ServerEncryptionOptions options(InternodeEncryption encryption, Path keystore, Path truststore) {
        return (ServerEncryptionOptions) new ServerEncryptionOptions()
                .withInternodeEncryption(encryption)
                .withKeyStore(keystore.toString()).withKeyStorePassword(PASSWORD)
                .withTrustStore(truststore.toString()).withTrustStorePassword(PASSWORD)
                .withStoreType("PKCS12").withRequireClientAuth(true); // each with* applies the configuration
    }

    private static void makeStores(Path keystore, Path truststore) throws Exception {
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Path certificate = keystore.resolveSibling("node.crt");
        run(keytool, "-genkeypair", "-alias", "node", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=node",
                "-ext", "SAN=ip:127.0.63.1", "-validity", "2", "-keystore", keystore.toString(), "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-keypass", PASSWORD);
        run(keytool, "-exportcert", "-alias", "node", "-keystore", keystore.toString(), "-storepass", PASSWORD,
                "-file", certificate.toString());
        run(keytool, "-importcert", "-noprompt", "-alias", "node", "-file", certificate.toString(), "-keystore",
                truststore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0)
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
}
