package io.fastccs.server.cassandra;

import io.fastccs.replication.ReplicaSettings;
import org.apache.cassandra.config.EncryptionOptions.ServerEncryptionOptions;
import org.apache.cassandra.config.EncryptionOptions.ServerEncryptionOptions.InternodeEncryption;
import org.apache.cassandra.security.AbstractSslContextFactory;
import org.apache.cassandra.security.ISslContextFactory;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509KeyManager;
import javax.net.ssl.X509TrustManager;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The consensus (Raft) port's TLS from Cassandra's internode encryption (docs/design/replication-pitfalls.md, "Pitfall
 * 7: the Raft port"): with {@code internode_encryption} other than {@code none}, mutual TLS with the node's internode
 * key and the internode truststore, so only holders of the ring's certificates reach the port; plaintext otherwise, as
 * Cassandra's own storage port is then.
 *
 * <p>The key and trust managers come from the node's own SSL context factory ({@code ssl_context_factory}, by
 * default Cassandra's {@code DefaultSslContextFactory}), the one Cassandra's internode connections use, so keystore
 * types, PEM stores, passwords and algorithms are read exactly as Cassandra reads them. The factory builds them only
 * through protected methods of {@link AbstractSslContextFactory}; Ratis needs them as JSSE managers (its gRPC and
 * Netty are relocated, so Cassandra's Netty contexts are of no use to it), hence the reflective call.
 */
final class CassandraConsensusTls {
    private CassandraConsensusTls() {
    }

    /**
     * The consensus port's TLS for {@code options} (cassandra.yaml's {@code server_encryption_options}), or null for
     * plaintext.
     *
     * @throws IllegalStateException if internode encryption is on but the configured factory cannot give key and trust
     *                               managers (a custom {@code ssl_context_factory} not built on Cassandra's), or the
     *                               stores cannot be read
     */
    static ReplicaSettings.Tls of(ServerEncryptionOptions options) {
        // dc and rack encrypt only some of Cassandra's links; the consensus port, like FastCCS's peer links, always.
        if (options.internode_encryption == null || options.internode_encryption == InternodeEncryption.none) return null;
        ISslContextFactory factory = options.sslContextFactoryInstance;
        if (!(factory instanceof AbstractSslContextFactory))
            throw new IllegalStateException("internode encryption is on, and the consensus port needs the node's internode "
                    + "key and trust managers, but the ssl_context_factory " + (factory == null ? "(none)" : factory.getClass().getName())
                    + " is not built on Cassandra's AbstractSslContextFactory, which is where FastCCS asks for them");
        // The inbound keystore: its certificate is what the other nodes already verify when they connect to this one.
        KeyManagerFactory keys = (KeyManagerFactory) build(factory, "buildKeyManagerFactory");
        TrustManagerFactory trust = (TrustManagerFactory) build(factory, "buildTrustManagerFactory");
        return new ReplicaSettings.Tls(x509(keys.getKeyManagers(), X509KeyManager.class, "key", options.keystore),
                x509(trust.getTrustManagers(), X509TrustManager.class, "trust", options.truststore));
    }

    private static Object build(ISslContextFactory factory, String method) {
        try {
            Method m = AbstractSslContextFactory.class.getDeclaredMethod(method);
            m.setAccessible(true);
            return m.invoke(factory);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("the consensus port's TLS: " + factory.getClass().getSimpleName() + "." + method
                    + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("the consensus port's TLS: cannot call " + method + " of Cassandra's "
                    + factory.getClass().getName() + " (Cassandra 5.0 has it)", e);
        }
    }

    private static <T> T x509(Object[] managers, Class<T> type, String what, String store) {
        for (Object m : managers) if (type.isInstance(m)) return type.cast(m);
        throw new IllegalStateException("the consensus port's TLS: no X.509 " + what + " manager from the internode "
                + what + " store " + store);
    }
}
