package io.fastccs.tools.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterSecurityTest {
    @Test
    void withoutSecurityTheYamlAndCommandLineAreUnchanged() {
        Path nodeDir = Path.of("/c/node1");
        assertThat(NodeConfigFiles.cassandraYaml(1, 3, Ports.DEFAULT, nodeDir, ClusterSecurity.NONE))
                .isEqualTo(NodeConfigFiles.cassandraYaml(1, 3, Ports.DEFAULT, nodeDir));
        assertThat(ClusterSecurity.NONE.jvmOptions(3)).isEmpty();
        assertThat(ClusterSecurity.NONE.enabled()).isFalse();
    }

    @Test
    @SuppressWarnings("unchecked")
    void everythingOnConfiguresCassandrasAuthenticatorAuthorizerAndBothEncryptions() {
        Map<String, Object> yaml = new Yaml().load(NodeConfigFiles.cassandraYaml(2, 3, Ports.DEFAULT, Path.of("/c/node2"),
                ClusterSecurity.ALL));
        assertThat(yaml.get("authenticator")).isEqualTo("PasswordAuthenticator");
        assertThat(yaml.get("authorizer")).isEqualTo("CassandraAuthorizer");
        assertThat(yaml.get("role_manager")).isEqualTo("CassandraRoleManager");
        Map<String, Object> client = (Map<String, Object>) yaml.get("client_encryption_options");
        assertThat(client).containsEntry("enabled", true).containsEntry("optional", false)
                .containsEntry("keystore", "/c/tls/keystore.p12").containsEntry("store_type", "PKCS12");
        Map<String, Object> server = (Map<String, Object>) yaml.get("server_encryption_options");
        assertThat(server).containsEntry("internode_encryption", "all").containsEntry("optional", false)
                .containsEntry("keystore", "/c/tls/keystore.p12").containsEntry("truststore", "/c/tls/truststore.p12")
                .containsEntry("require_client_auth", true);
        assertThat(yaml.get("listen_address")).isEqualTo("127.0.0.2"); // the rest is still there
        assertThat(ClusterSecurity.ALL.jvmOptions(5))
                .containsExactly("-Dcassandra.superuser_setup_delay_ms=500", "-Dcassandra.system_auth.default_rf=3");
    }

    @Test
    void authenticationAloneLeavesEncryptionOff() {
        Map<String, Object> yaml = new Yaml().load(NodeConfigFiles.cassandraYaml(1, 1, Ports.DEFAULT, Path.of("/c/node1"),
                new ClusterSecurity(true, false, false)));
        assertThat(yaml).containsEntry("authenticator", "PasswordAuthenticator")
                .doesNotContainKeys("client_encryption_options", "server_encryption_options");
        assertThat(new ClusterSecurity(true, false, false).jvmOptions(1)).contains("-Dcassandra.system_auth.default_rf=1");
    }

    @Test
    void settingsSurviveASaveAndALoad(@TempDir Path dir) throws Exception {
        assertThat(ClusterSecurity.load(dir)).isEqualTo(ClusterSecurity.NONE);
        ClusterSecurity security = new ClusterSecurity(true, false, true);
        security.save(dir);
        assertThat(ClusterSecurity.load(dir)).isEqualTo(security);
    }

    @Test
    void keytoolMakesAPkcs12KeyPairAndATruststoreWithItsCertificate(@TempDir Path dir) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> nodes = List.of("127.0.52.1", "127.0.52.2", "127.0.52.3");
        ClusterSecurity.generateStores(dir, java, nodes);
        KeyStore keystore = load(ClusterSecurity.keystore(dir));
        KeyStore truststore = load(ClusterSecurity.truststore(dir));
        assertThat(keystore.isKeyEntry("node")).isTrue();
        assertThat(truststore.isCertificateEntry("node")).isTrue();
        assertThat(truststore.getCertificate("node")).isEqualTo(keystore.getCertificate("node"));
        // Every node's IP as a subject alternative name: gRPC (the consensus port) checks the server's address.
        assertThat(ClusterSecurity.certificateAddresses(ClusterSecurity.keystore(dir))).containsExactlyInAnyOrderElementsOf(nodes);
        java.security.cert.Certificate made = keystore.getCertificate("node");
        ClusterSecurity.generateStores(dir, java, nodes.subList(0, 2)); // kept: it names them
        assertThat(load(ClusterSecurity.keystore(dir)).getCertificate("node")).isEqualTo(made);
    }

    @Test
    void storesThatDoNotNameEveryNodeAreMadeAgain(@TempDir Path dir) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ClusterSecurity.generateStores(dir, java, List.of("127.0.52.1"));
        java.security.cert.Certificate before = load(ClusterSecurity.keystore(dir)).getCertificate("node");
        ClusterSecurity.generateStores(dir, java, List.of("127.0.52.1", "127.0.52.2"));
        KeyStore keystore = load(ClusterSecurity.keystore(dir));
        assertThat(keystore.getCertificate("node")).isNotEqualTo(before);
        assertThat(load(ClusterSecurity.truststore(dir)).getCertificate("node")).isEqualTo(keystore.getCertificate("node"));
        assertThat(ClusterSecurity.certificateAddresses(ClusterSecurity.keystore(dir))).containsExactlyInAnyOrder("127.0.52.1", "127.0.52.2");
    }

    private static KeyStore load(Path file) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, ClusterSecurity.STORE_PASSWORD.toCharArray());
        }
        return ks;
    }
}
