package io.fastccs.tools.cli;

import io.fastccs.tools.cli.CliInput.InputException;
import io.fastccs.tools.cluster.ClusterSecurity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** --user, --password, --ssl-truststore and --ssl-truststore-password, checked before connecting. */
class CliSecurityTest {
    @Test
    void noOptionsMeanAnonymousPlainConnections() throws InputException {
        CliInput.Security s = CliInput.security(null, null, null, null);
        assertThat(s.user()).isNull();
        assertThat(s.tls()).isNull();
    }

    @Test
    void aUserNeedsAPasswordAndTheOtherWayRound() throws InputException {
        assertThatThrownBy(() -> CliInput.security("app", null, null, null)).isInstanceOf(InputException.class)
                .hasMessageContaining("--password");
        assertThatThrownBy(() -> CliInput.security(null, "secret", null, null)).isInstanceOf(InputException.class)
                .hasMessageContaining("--user");
        assertThatThrownBy(() -> CliInput.security("", "secret", null, null)).isInstanceOf(InputException.class);
        CliInput.Security s = CliInput.security("app", "secret", null, null);
        assertThat(s.user()).isEqualTo("app");
        assertThat(s.password()).isEqualTo("secret");
    }

    @Test
    void aTruststoreMustLoad(@TempDir Path dir) throws Exception {
        Path garbage = Files.writeString(dir.resolve("not-a-store.p12"), "nonsense");
        assertThatThrownBy(() -> CliInput.security(null, null, garbage, "x")).isInstanceOf(InputException.class)
                .hasMessageContaining("--ssl-truststore").hasMessageContaining(garbage.toString());
        assertThatThrownBy(() -> CliInput.security(null, null, dir.resolve("missing.p12"), null))
                .isInstanceOf(InputException.class);
        assertThatThrownBy(() -> CliInput.security(null, null, null, "x")).isInstanceOf(InputException.class)
                .hasMessageContaining("needs --ssl-truststore");

        ClusterSecurity.generateStores(dir, Path.of(System.getProperty("java.home"), "bin", "java"), java.util.List.of("127.0.0.1"));
        CliInput.Security s = CliInput.security("cassandra", "cassandra", ClusterSecurity.truststore(dir),
                ClusterSecurity.STORE_PASSWORD);
        assertThat(s.tls()).isNotNull();
        assertThatThrownBy(() -> CliInput.security(null, null, ClusterSecurity.truststore(dir), "wrong"))
                .isInstanceOf(InputException.class);
    }

    @Test
    void theCommandsTakeTheOptionsAndRefuseAUserWithoutPasswordAsUsage() {
        Cli.Run r = Cli.run("read", "k", "--user", "app");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--user app needs --password");
    }
}
