package io.fastccs.server.transport;

import io.netty.handler.ssl.SslContext;

import java.net.InetSocketAddress;

/**
 * What the FastCCS port enforces: TLS for clients and for peers, who a client is (authentication) and what it may do
 * (authorization). The host implements it from its own security settings (inside Cassandra: cassandra.yaml's
 * authenticator, authorizer and encryption options); {@link #NONE} is an open port, for tests without Cassandra.
 *
 * <p>{@link #login} and {@link Principal#denied} may block (password hashing, role and permission look-ups): the
 * server calls them on its own auth threads, never on an event loop.
 */
public interface TransportSecurity {
    /** As Cassandra's TLS encryption policies: plain only, both (detected per connection), TLS only. */
    enum TlsPolicy { UNENCRYPTED, OPTIONAL, ENCRYPTED }

    /** What a client request needs: reading the data, or changing it. */
    enum Access { READ, WRITE }

    /** The TLS server name a peer link asks for, so the port answers it with the internode certificate. */
    String PEER_SERVER_NAME = "fastccs-peer";

    TlsPolicy clientTls();

    TlsPolicy peerTls();

    /** The server side of client TLS; asked for every connection (certificates may be reloaded). Null if none. */
    SslContext clientServerContext();

    /** The server side of peer TLS (the internode keystore, peers' certificates verified). Null if none. */
    SslContext peerServerContext();

    /** The client side of outgoing peer links; null when peer links are plain. */
    SslContext peerClientContext();

    /** Whether a client must log in with a user and password. */
    boolean authenticationRequired();

    /**
     * Checks a client's credentials. Blocking.
     *
     * @param user     null when the client gave none
     * @param password null when the client gave none
     * @throws Refused with the reason to tell the client
     */
    Principal login(InetSocketAddress remote, String user, String password) throws Refused;

    /** A logged-in client. */
    interface Principal {
        String name();

        /** Null if the access is granted, else why not. Blocking. */
        String denied(Access access);

        /**
         * How long, in milliseconds, a connection may reuse an answer of {@link #denied} (Cassandra's
         * permissions_validity); 0 to ask every time, {@link Long#MAX_VALUE} if the answer never changes.
         */
        long validityMillis();
    }

    /** Credentials refused; the message is for the client. */
    final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        public Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** No TLS, no login, everything allowed. */
    TransportSecurity NONE = new TransportSecurity() {
        private final Principal anonymous = new Principal() {
            @Override public String name() { return "anonymous"; }
            @Override public String denied(Access access) { return null; }
            @Override public long validityMillis() { return Long.MAX_VALUE; }
        };

        @Override public TlsPolicy clientTls() { return TlsPolicy.UNENCRYPTED; }
        @Override public TlsPolicy peerTls() { return TlsPolicy.UNENCRYPTED; }
        @Override public SslContext clientServerContext() { return null; }
        @Override public SslContext peerServerContext() { return null; }
        @Override public SslContext peerClientContext() { return null; }
        @Override public boolean authenticationRequired() { return false; }
        @Override public Principal login(InetSocketAddress remote, String user, String password) { return anonymous; }

        @Override
        public String toString() {
            return "no TLS, no authentication";
        }
    };
}
