package io.fastccs.server.cassandra;

import io.fastccs.server.transport.TransportSecurity;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The credential encoding handed to Cassandra's authenticator: SASL PLAIN, as the CQL drivers send it. */
class CassandraSecurityTest {
    @Test
    void credentialsAreSaslPlainWithAnEmptyAuthorizationId() throws Exception {
        assertThat(CassandraSecurity.saslPlain("cassandra", "cassandra"))
                .isEqualTo("\0cassandra\0cassandra".getBytes(StandardCharsets.UTF_8));
        assertThat(CassandraSecurity.saslPlain("rôle", "pässwörd"))
                .isEqualTo("\0rôle\0pässwörd".getBytes(StandardCharsets.UTF_8));
        assertThat(CassandraSecurity.saslPlain("u", "")).isEqualTo(new byte[]{0, 'u', 0});
    }

    @Test
    void aNulInTheCredentialsCannotSmuggleAnotherUser() {
        assertThatThrownBy(() -> CassandraSecurity.saslPlain("app\0cassandra", "x"))
                .isInstanceOf(TransportSecurity.Refused.class).hasMessageContaining("NUL");
        assertThatThrownBy(() -> CassandraSecurity.saslPlain("app", "x\0y")).isInstanceOf(TransportSecurity.Refused.class);
    }
}
