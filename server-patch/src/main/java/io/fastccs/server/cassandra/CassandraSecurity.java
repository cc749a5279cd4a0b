package io.fastccs.server.cassandra;

import io.fastccs.server.storage.StorageSchema;
import io.fastccs.server.transport.TransportSecurity;
import io.netty.handler.ssl.SslContext;
import org.apache.cassandra.auth.AuthenticatedUser;
import org.apache.cassandra.auth.DataResource;
import org.apache.cassandra.auth.IAuthenticator;
import org.apache.cassandra.auth.Permission;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.config.EncryptionOptions;
import org.apache.cassandra.exceptions.AuthenticationException;
import org.apache.cassandra.exceptions.RequestExecutionException;
import org.apache.cassandra.exceptions.UnauthorizedException;
import org.apache.cassandra.security.ISslContextFactory;
import org.apache.cassandra.security.SSLFactory;
import org.apache.cassandra.service.ClientState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The FastCCS port's security, taken from the node's own cassandra.yaml, so FastCCS is no side door:
 * <ul>
 * <li>clients log in through Cassandra's {@link IAuthenticator} (PasswordAuthenticator: SASL PLAIN, its credentials
 * cache), then {@link ClientState#login} and {@link ClientState#validateLogin} as a CQL login does (LOGIN, datacenter
 * and CIDR access);</li>
 * <li>each read needs SELECT and each write MODIFY on the versions table, checked by
 * {@link ClientState#ensurePermission} (the table, its keyspace or all keyspaces, through Cassandra's permissions
 * cache);</li>
 * <li>client TLS follows {@code client_encryption_options}, peer TLS {@code server_encryption_options}, with the
 * contexts of Cassandra's {@link SSLFactory} (same keystores, protocols, ciphers, client-certificate rules).</li>
 * </ul>
 */
final class CassandraSecurity implements TransportSecurity {
    private static final Logger logger = LoggerFactory.getLogger(CassandraSecurity.class);
    private static final String CONTEXT = "fastccs";

    private final String keyspace;
    private final DataResource table;

    CassandraSecurity(String keyspace) {
        this.keyspace = keyspace;
        this.table = DataResource.table(keyspace, StorageSchema.VERSIONS);
    }

    @Override
    public TlsPolicy clientTls() {
        return policy(DatabaseDescriptor.getNativeProtocolEncryptionOptions());
    }

    @Override
    public TlsPolicy peerTls() {
        return policy(DatabaseDescriptor.getInternodeMessagingEncyptionOptions());
    }

    private static TlsPolicy policy(EncryptionOptions options) {
        return switch (options.tlsEncryptionPolicy()) {
            case UNENCRYPTED -> TlsPolicy.UNENCRYPTED;
            case OPTIONAL -> TlsPolicy.OPTIONAL;
            case ENCRYPTED -> TlsPolicy.ENCRYPTED;
        };
    }

    @Override
    public SslContext clientServerContext() {
        EncryptionOptions options = DatabaseDescriptor.getNativeProtocolEncryptionOptions();
        // As the CQL port: client certificates verified only if require_client_auth.
        return context(options, options.require_client_auth, ISslContextFactory.SocketType.SERVER);
    }

    @Override
    public SslContext peerServerContext() {
        // As Cassandra's inbound internode connections: the peer's certificate is always verified.
        return context(DatabaseDescriptor.getInternodeMessagingEncyptionOptions(), true, ISslContextFactory.SocketType.SERVER);
    }

    @Override
    public SslContext peerClientContext() {
        EncryptionOptions.ServerEncryptionOptions options = DatabaseDescriptor.getInternodeMessagingEncyptionOptions();
        if (!options.getEnabled()) return null; // internode_encryption: none (possibly optional on the inbound side)
        return context(options, true, ISslContextFactory.SocketType.CLIENT);
    }

    private static SslContext context(EncryptionOptions options, boolean verifyPeer, ISslContextFactory.SocketType type) {
        try {
            return SSLFactory.getOrCreateSslContext(options, verifyPeer, type, CONTEXT);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the FastCCS TLS context from " + options, e);
        }
    }

    @Override
    public boolean authenticationRequired() {
        return DatabaseDescriptor.getAuthenticator().requireAuthentication();
    }

    @Override
    public Principal login(InetSocketAddress remote, String user, String password) throws Refused {
        IAuthenticator authenticator = DatabaseDescriptor.getAuthenticator();
        ClientState state = ClientState.forExternalCalls(remote);
        try {
            if (!authenticator.requireAuthentication()) {
                state.login(AuthenticatedUser.ANONYMOUS_USER);
                return new CassandraPrincipal(state);
            }
            if (user == null || password == null)
                throw new Refused("authentication required: this node uses " + authenticator.getClass().getSimpleName()
                        + "; connect with a user and password");
            IAuthenticator.SaslNegotiator negotiator = authenticator.newSaslNegotiator(remote.getAddress());
            negotiator.evaluateResponse(saslPlain(user, password));
            if (!negotiator.isComplete())
                throw new Refused("the node's authenticator " + authenticator.getClass().getSimpleName()
                        + " needs more than a user and password; the FastCCS port supports password authentication only");
            state.login(negotiator.getAuthenticatedUser());
            state.validateLogin();
            return new CassandraPrincipal(state);
        } catch (AuthenticationException | UnauthorizedException e) {
            throw new Refused(e.getMessage());
        } catch (RequestExecutionException e) {
            // system_auth unavailable or timing out: as CQL, a failed login, with Cassandra's reason.
            logger.warn("FastCCS: could not check the credentials of {} from {}: {}", user, remote, e.toString());
            throw new Refused("the credentials could not be checked: " + e.getMessage());
        }
    }

    /**
     * SASL PLAIN's initial response, as the CQL drivers send it: {@code authzid NUL authcid NUL password} with an
     * empty authzid, UTF-8.
     */
    static byte[] saslPlain(String user, String password) throws Refused {
        if (user.indexOf('\0') >= 0 || password.indexOf('\0') >= 0)
            throw new Refused("a user name or password may not contain a NUL character");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.writeBytes(user.getBytes(StandardCharsets.UTF_8));
        out.write(0);
        out.writeBytes(password.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** A logged-in client: its Cassandra client state, asked for every permission check. */
    private final class CassandraPrincipal implements Principal {
        private final ClientState state;

        CassandraPrincipal(ClientState state) {
            this.state = state;
        }

        @Override
        public String name() {
            return state.getUser().getName();
        }

        @Override
        public String denied(Access access) {
            Permission permission = access == Access.READ ? Permission.SELECT : Permission.MODIFY;
            try {
                state.ensurePermission(permission, table);
                return null;
            } catch (UnauthorizedException e) {
                return e.getMessage();
            } catch (RequestExecutionException e) {
                return "the permissions of " + name() + " on " + keyspace + " could not be read: " + e.getMessage();
            }
        }

        @Override
        public long validityMillis() {
            if (!DatabaseDescriptor.getAuthorizer().requireAuthorization()) return Long.MAX_VALUE;
            // No longer than Cassandra's own cache keeps an answer: a REVOKE takes effect as late as on the CQL port.
            return Math.max(0, DatabaseDescriptor.getPermissionsValidity());
        }
    }

    @Override
    public String toString() {
        return "clients " + clientTls() + ", peers " + peerTls() + ", authenticator "
                + DatabaseDescriptor.getAuthenticator().getClass().getSimpleName() + ", authorizer "
                + DatabaseDescriptor.getAuthorizer().getClass().getSimpleName();
    }
}
