package io.fastccs.client.internal;

import io.fastccs.protocol.messages.Hello;

import javax.net.ssl.SSLContext;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * Everything {@link io.fastccs.client.FastCcsClientBuilder} collected, validated there.
 *
 * @param sslContext null for plain connections
 */
public record ClientConfig(List<InetSocketAddress> contactPoints, String user, String password, Duration requestTimeout,
                           Duration connectTimeout, Duration ringRefreshInterval, Duration reconnectBaseDelay,
                           Duration reconnectMaxDelay, int maxValueSize, int maxKeySize, int maxKeysPerTransaction,
                           int ioThreads, SSLContext sslContext) {
    /** Copies the contact points. */
    public ClientConfig {
        contactPoints = List.copyOf(contactPoints);
    }

    /**
     * The first frame of a connection.
     *
     * @param partition the partition the connection is for, so a node leading several knows which; -1 for a contact
     *                  point, which may be any node
     */
    Hello hello(int partition) {
        Hello hello = Hello.client(user, password);
        return partition < 0 ? hello : hello.to(partition);
    }

    @Override
    public String toString() {
        return "ClientConfig[contactPoints=" + contactPoints + ", user=" + user + (password == null ? "" : ", password=***")
                + ", requestTimeout=" + requestTimeout + ", connectTimeout=" + connectTimeout + ", ringRefreshInterval="
                + ringRefreshInterval + ", reconnectDelay=" + reconnectBaseDelay + ".." + reconnectMaxDelay
                + ", maxValueSize=" + maxValueSize + ", maxKeySize=" + maxKeySize + ", maxKeysPerTransaction="
                + maxKeysPerTransaction + ", ioThreads=" + ioThreads + ", tls=" + (sslContext != null) + "]";
    }
}
