package io.fastccs.client.internal;

import io.fastccs.client.FastCcsException;
import io.fastccs.client.PartitionUnavailableException;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.Timeout;
import io.netty.util.Timer;

import javax.net.ssl.SSLEngine;
import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Opens {@link NodeConnection}s: TCP connect, the framing pipeline (4-byte big-endian length, then the
 * {@link io.fastccs.core.wire.WireCodec} bytes) and the handshake, all within the connect timeout.
 */
final class ConnectionFactory {
    private final ClientConfig config;
    private final Bootstrap bootstrap;
    private final Timer timer;

    ConnectionFactory(ClientConfig config, EventLoopGroup group, Timer timer) {
        this.config = config;
        this.timer = timer;
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()));
    }

    /**
     * A connection to {@code address} whose handshake succeeded.
     *
     * @param expectedPartition the partition the connection is for (its Hello names it), or -1 for any node
     * @return a future failed with {@link io.fastccs.client.AuthenticationException} if the node refused the
     *         credentials, {@link PartitionUnavailableException} if it could not be reached in time or does not lead
     *         the partition ({@code NOT_LEADER}), {@link io.fastccs.client.ProtocolMismatchException} if it runs
     *         another consistency protocol, or {@link io.fastccs.client.ProtocolException} if it answered something
     *         else
     */
    CompletableFuture<NodeConnection> open(SocketAddress address, int expectedPartition) {
        NodeConnection connection = new NodeConnection(address, expectedPartition, config.protocol(), timer);
        ChannelFuture connect = bootstrap.clone().handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                if (config.sslContext() != null) {
                    // Client mode, no host name: like the Java driver's withSslContext, trust is the context's.
                    SSLEngine engine = config.sslContext().createSSLEngine();
                    engine.setUseClientMode(true);
                    ch.pipeline().addLast("tls", new SslHandler(engine));
                }
                ch.pipeline()
                        .addLast("frames", new LengthFieldBasedFrameDecoder(Frames.MAX_FRAME_BYTES, 0,
                                Frames.LENGTH_PREFIX_BYTES, 0, Frames.LENGTH_PREFIX_BYTES))
                        .addLast("length", new LengthFieldPrepender(Frames.LENGTH_PREFIX_BYTES))
                        .addLast("messages", new MessageDecoder())
                        .addLast("connection", connection.handler());
            }
        }).connect(address);
        Timeout deadline = timer.newTimeout(t -> connection.close(new PartitionUnavailableException(expectedPartition,
                "no handshake with " + address + " within " + config.connectTimeout())),
                config.connectTimeout().toNanos(), TimeUnit.NANOSECONDS);
        connection.attach(connect.channel());
        connect.addListener(f -> {
            if (f.isSuccess() && config.sslContext() != null) {
                // The Hello carries the password: send it only once TLS is up.
                connect.channel().pipeline().get(SslHandler.class).handshakeFuture().addListener(tls -> {
                    if (tls.isSuccess()) connection.connected(config.hello(expectedPartition));
                    else connection.close(new PartitionUnavailableException(expectedPartition,
                            "TLS handshake with " + address + " failed: " + tls.cause(), tls.cause()));
                });
            } else if (f.isSuccess()) {
                connection.connected(config.hello(expectedPartition));
            } else {
                connection.close(new PartitionUnavailableException(expectedPartition,
                        "cannot connect to " + address + ": " + f.cause(), f.cause()));
            }
        });
        return connection.handshake().handle((hello, failure) -> {
            deadline.cancel();
            if (failure != null) {
                FastCcsException reason = Failures.asFastCcs(failure);
                connection.close(reason);
                throw new CompletionException(reason);
            }
            return connection;
        });
    }
}
