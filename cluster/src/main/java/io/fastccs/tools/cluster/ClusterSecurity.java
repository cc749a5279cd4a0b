package io.fastccs.tools.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Cassandra's security on a local cluster, which FastCCS then follows: {@code PasswordAuthenticator} with
 * {@code CassandraAuthorizer} (superuser cassandra/cassandra), client TLS ({@code client_encryption_options}) and
 * internode TLS ({@code server_encryption_options}, {@code internode_encryption: all}, node certificates verified).
 * One self-signed PKCS12 key pair (made with the JDK's keytool) serves every node, its certificate naming every node's
 * IP address; the truststore holds that certificate. Kept in the cluster directory ({@code tls/}, {@code security.properties}).
 */
public record ClusterSecurity(boolean authentication, boolean clientTls, boolean internodeTls) {
    public static final ClusterSecurity NONE = new ClusterSecurity(false, false, false);
    /** Everything on: logins and permissions, client TLS, internode TLS. */
    public static final ClusterSecurity ALL = new ClusterSecurity(true, true, true);
    /** Cassandra's default superuser, created on first start. */
    public static final String SUPERUSER = "cassandra", SUPERUSER_PASSWORD = "cassandra";
    /** The password of the keystore and the truststore. */
    public static final String STORE_PASSWORD = "fastccs";
    static final String FILE_NAME = "security.properties";
    /** The subject alternative name type of an IP address (RFC 5280). */
    private static final int SAN_IP_ADDRESS = 7;

    public boolean enabled() {
        return authentication || clientTls || internodeTls;
    }

    public boolean tls() {
        return clientTls || internodeTls;
    }

    /** The nodes' key pair (PKCS12, password {@value #STORE_PASSWORD}). */
    public static Path keystore(Path clusterDir) {
        return clusterDir.toAbsolutePath().normalize().resolve("tls").resolve("keystore.p12");
    }

    /** The certificate clients and nodes trust (PKCS12, password {@value #STORE_PASSWORD}). */
    public static Path truststore(Path clusterDir) {
        return clusterDir.toAbsolutePath().normalize().resolve("tls").resolve("truststore.p12");
    }

    /** The cassandra.yaml lines for these settings (none when off). */
    List<String> yamlLines(Path clusterDir) {
        List<String> lines = new ArrayList<>();
        if (!enabled()) return lines;
        String keystore = quoted(keystore(clusterDir)), truststore = quoted(truststore(clusterDir));
        lines.add("# Security (bin/fastccs cluster start --auth/--tls): FastCCS's port follows these settings.");
        if (authentication) {
            lines.add("authenticator: PasswordAuthenticator");
            lines.add("authorizer: CassandraAuthorizer");
            lines.add("role_manager: CassandraRoleManager");
        }
        if (clientTls) {
            lines.add("client_encryption_options:");
            lines.add("  enabled: true");
            lines.add("  optional: false");
            lines.add("  keystore: " + keystore);
            lines.add("  keystore_password: " + STORE_PASSWORD);
            lines.add("  store_type: PKCS12");
        }
        if (internodeTls) {
            lines.add("server_encryption_options:");
            lines.add("  internode_encryption: all");
            lines.add("  optional: false");
            lines.add("  keystore: " + keystore);
            lines.add("  keystore_password: " + STORE_PASSWORD);
            lines.add("  outbound_keystore: " + keystore);
            lines.add("  outbound_keystore_password: " + STORE_PASSWORD);
            lines.add("  truststore: " + truststore);
            lines.add("  truststore_password: " + STORE_PASSWORD);
            lines.add("  store_type: PKCS12");
            lines.add("  require_client_auth: true");
        }
        return lines;
    }

    /**
     * JVM options for the nodes: the default superuser at once rather than after 10 s, and system_auth on every
     * node (up to 3), so a login does not depend on one node.
     */
    List<String> jvmOptions(int nodes) {
        if (!authentication) return List.of();
        return List.of("-Dcassandra.superuser_setup_delay_ms=500", "-Dcassandra.system_auth.default_rf=" + Math.min(nodes, 3));
    }

    void save(Path clusterDir) throws IOException {
        Properties p = new Properties();
        p.setProperty("authentication", Boolean.toString(authentication));
        p.setProperty("client.tls", Boolean.toString(clientTls));
        p.setProperty("internode.tls", Boolean.toString(internodeTls));
        try (Writer w = Files.newBufferedWriter(clusterDir.resolve(FILE_NAME), StandardCharsets.UTF_8)) {
            p.store(w, "security of the local FastCCS cluster (bin/fastccs cluster start --auth --client-tls --internode-tls)");
        }
    }

    /** What {@link #save} wrote, or {@link #NONE} for a cluster started without security. */
    public static ClusterSecurity load(Path clusterDir) throws IOException {
        Path file = clusterDir.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) return NONE;
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return new ClusterSecurity(Boolean.parseBoolean(p.getProperty("authentication")),
                Boolean.parseBoolean(p.getProperty("client.tls")), Boolean.parseBoolean(p.getProperty("internode.tls")));
    }

    /**
     * Makes the key pair and the truststore with the JDK's keytool, unless they exist and the certificate names every
     * one of {@code addresses}. The certificate names each node's IP address as a subject alternative name: the
     * consensus port's TLS (gRPC) checks the server's address against it, which Cassandra's internode TLS does not.
     * Stores made before that (without the names) are made again; the nodes must then be stopped, as they are here.
     */
    public static void generateStores(Path clusterDir, Path java, List<String> addresses) throws IOException {
        if (addresses.isEmpty()) throw new IllegalArgumentException("the certificate needs the nodes' addresses");
        Path keystore = keystore(clusterDir), truststore = truststore(clusterDir);
        if (Files.isRegularFile(keystore) && Files.isRegularFile(truststore)
                && certificateAddresses(keystore).containsAll(addresses)) return;
        Files.createDirectories(keystore.getParent());
        Files.deleteIfExists(keystore);
        Files.deleteIfExists(truststore);
        Path keytool = java.resolveSibling("keytool");
        if (!Files.isExecutable(keytool)) keytool = Path.of(ToolProperty.JAVA_HOME.get(), "bin", "keytool");
        Path certificate = keystore.resolveSibling("node.crt");
        String names = "SAN=" + String.join(",", addresses.stream().map(a -> "ip:" + a).toList());
        keytool(keytool, "-genkeypair", "-alias", "node", "-keyalg", "RSA", "-keysize", "2048", "-validity", "3650",
                "-dname", "CN=fastccs-local-cluster", "-ext", names, "-keystore", keystore.toString(), "-storetype", "PKCS12",
                "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD);
        keytool(keytool, "-exportcert", "-alias", "node", "-keystore", keystore.toString(), "-storepass", STORE_PASSWORD,
                "-file", certificate.toString());
        keytool(keytool, "-importcert", "-noprompt", "-alias", "node", "-file", certificate.toString(), "-keystore",
                truststore.toString(), "-storetype", "PKCS12", "-storepass", STORE_PASSWORD);
    }

    /** The IP addresses the keystore's certificate names (subject alternative names); empty if it cannot be read. */
    static Set<String> certificateAddresses(Path keystore) {
        Set<String> ips = new HashSet<>();
        try (InputStream in = Files.newInputStream(keystore)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, STORE_PASSWORD.toCharArray());
            if (!(ks.getCertificate("node") instanceof X509Certificate certificate)) return ips;
            Collection<List<?>> names = certificate.getSubjectAlternativeNames();
            if (names != null)
                for (List<?> name : names)
                    if (Integer.valueOf(SAN_IP_ADDRESS).equals(name.get(0))) ips.add(String.valueOf(name.get(1)));
        } catch (IOException | GeneralSecurityException e) {
            // unreadable: made again
        }
        return ips;
    }

    private static void keytool(Path keytool, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(keytool.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("keytool did not finish in 60 s: " + command);
            }
            if (p.exitValue() != 0)
                throw new IOException("keytool failed (exit " + p.exitValue() + "): " + String.join(" ", command) + "\n" + output);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while running keytool", e);
        }
    }

    private static String quoted(Path path) {
        return "'" + path.toString().replace("'", "''") + "'";
    }

    @Override
    public String toString() {
        if (!enabled()) return "no security";
        List<String> on = new ArrayList<>();
        if (authentication) on.add("PasswordAuthenticator+CassandraAuthorizer");
        if (clientTls) on.add("client TLS");
        if (internodeTls) on.add("internode TLS");
        return String.join(", ", on);
    }
}
