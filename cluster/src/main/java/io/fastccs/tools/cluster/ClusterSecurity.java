package io.fastccs.tools.cluster;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Cassandra's security on a local cluster, which FastCCS then follows: {@code PasswordAuthenticator} with
 * {@code CassandraAuthorizer} (superuser cassandra/cassandra), client TLS ({@code client_encryption_options}) and
 * internode TLS ({@code server_encryption_options}, {@code internode_encryption: all}, node certificates verified).
 * One self-signed PKCS12 key pair (made with the JDK's keytool) serves every node; the truststore holds its
 * certificate. Kept in the cluster directory ({@code tls/}, {@code security.properties}).
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

    /** Makes the key pair and the truststore with the JDK's keytool, unless they exist. */
    public static void generateStores(Path clusterDir, Path java) throws IOException {
        Path keystore = keystore(clusterDir), truststore = truststore(clusterDir);
        if (Files.isRegularFile(keystore) && Files.isRegularFile(truststore)) return;
        Files.createDirectories(keystore.getParent());
        Files.deleteIfExists(keystore);
        Files.deleteIfExists(truststore);
        Path keytool = java.resolveSibling("keytool");
        if (!Files.isExecutable(keytool)) keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Path certificate = keystore.resolveSibling("node.crt");
        keytool(keytool, "-genkeypair", "-alias", "node", "-keyalg", "RSA", "-keysize", "2048", "-validity", "3650",
                "-dname", "CN=fastccs-local-cluster", "-keystore", keystore.toString(), "-storetype", "PKCS12",
                "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD);
        keytool(keytool, "-exportcert", "-alias", "node", "-keystore", keystore.toString(), "-storepass", STORE_PASSWORD,
                "-file", certificate.toString());
        keytool(keytool, "-importcert", "-noprompt", "-alias", "node", "-file", certificate.toString(), "-keystore",
                truststore.toString(), "-storetype", "PKCS12", "-storepass", STORE_PASSWORD);
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
