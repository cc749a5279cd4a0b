package io.fastccs.client.internal;

import io.fastccs.core.messages.Hello;
import io.fastccs.core.primitives.Protocol;

import javax.net.ssl.SSLContext;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * Everything {@link io.fastccs.client.FastCcsClientBuilder} collected, validated there.
 *
 * @param sslContext null for plain connections
 * @param protocol   the consistency protocol the client speaks; every node must run it
 * @param maxStaleness the longest lease of the client cache; zero: no cache
 */
public record ClientConfig(List<InetSocketAddress> contactPoints, String user, String password, Duration requestTimeout,
                           Duration connectTimeout, Duration ringRefreshInterval, Duration reconnectBaseDelay,
                           Duration reconnectMaxDelay, int maxValueSize, int maxKeySize, int maxKeysPerTransaction,
                           int ioThreads, SSLContext sslContext, Protocol protocol,
                           Duration maxStaleness) {
    /** Copies the contact points. */
    public ClientConfig {
        contactPoints = List.copyOf(contactPoints);
        java.util.Objects.requireNonNull(protocol, "protocol");
        java.util.Objects.requireNonNull(maxStaleness, "maxStaleness");
    }

    /**
     * The first frame of a connection.
     *
     * @param partition the partition the connection is for, so a node leading several knows which; -1 for a contact
     *                  point, which may be any node
     */
    Hello hello(int partition) {
        Hello hello = Hello.client(user, password).speaking(protocol);
        return partition < 0 ? hello : hello.to(partition);
    }

    @Override
    public String toString() {
        return "ClientConfig[contactPoints=" + contactPoints + ", user=" + user + (password == null ? "" : ", password=***")
                + ", requestTimeout=" + requestTimeout + ", connectTimeout=" + connectTimeout + ", ringRefreshInterval="
                + ringRefreshInterval + ", reconnectDelay=" + reconnectBaseDelay + ".." + reconnectMaxDelay
                + ", maxValueSize=" + maxValueSize + ", maxKeySize=" + maxKeySize + ", maxKeysPerTransaction="
                + maxKeysPerTransaction + ", ioThreads=" + ioThreads + ", tls=" + (sslContext != null) + ", protocol=" + protocol.word()
                + ", maxStaleness=" + maxStaleness + "]";
    }
}
