package io.fastccs.server.transport;

import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.messages.RingMember;
import io.fastccs.server.node.MonotonicClock;
import io.fastccs.server.node.RingView;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One outgoing connection to every other partition, opened on first use, identified with {@code Hello.peer(self)},
 * reused for every message, and re-opened after the peer restarts. While a link is down, messages wait in a small
 * queue; past it they are dropped, which the protocol tolerates (timeouts, check-commit and stabilization repeat).
 */
public final class PeerLinks implements io.fastccs.core.api.PeerSink, AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(PeerLinks.class);
    private static final int MAX_QUEUED = 50_000;
    private static final long RECONNECT_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final RingView ring;
    private final Link[] links;
    private final EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("fastccs-peers", true));
    private final Bootstrap bootstrap;
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean closed;
    private final Protocol protocol;

    /**
     * @param localAddress the node's own address: peers accept a partition's messages only from that member's
     *                     address, so links must not leave from whatever source address the OS would pick
     */
    /**
     * @param security links use TLS when it gives a {@link TransportSecurity#peerClientContext()} (internode
     *                 encryption), asking for the server name {@link TransportSecurity#PEER_SERVER_NAME} so the peer
     *                 answers with its internode certificate and checks ours
     * @param protocol the consistency protocol the node runs, named in every link's Hello
     */
    public PeerLinks(RingView ring, java.net.InetAddress localAddress, int maxFrameBytes, TransportSecurity security,
                     Protocol protocol) {
        this.ring = ring;
        this.protocol = protocol;
        this.links = new Link[ring.partitions()];
        for (int p = 0; p < links.length; p++) links[p] = new Link(p);
        this.bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .localAddress(new java.net.InetSocketAddress(localAddress, 0))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 2_000)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        SslContext tls = security.peerClientContext();
                        if (tls != null) {
                            SslHandler handler = tls.newHandler(ch.alloc());
                            SSLParameters parameters = handler.engine().getSSLParameters();
                            parameters.setServerNames(List.of(new SNIHostName(TransportSecurity.PEER_SERVER_NAME)));
                            handler.engine().setSSLParameters(parameters);
                            ch.pipeline().addLast("tls", handler);
                        }
                        FrameCodec.install(ch.pipeline(), maxFrameBytes);
                        ch.pipeline().addLast(new SimpleChannelInboundHandler<Object>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
                                // Peers answer on their own links; here only the HelloReply or an error arrives.
                                if (msg instanceof io.fastccs.core.messages.ErrorReply e
                                        && e.code() == io.fastccs.core.messages.ErrorCode.NOT_LEADER)
                                    logger.debug("FastCCS: peer {} no longer leads that partition", ctx.channel().remoteAddress());
                                else if (!(msg instanceof io.fastccs.core.messages.HelloReply))
                                    logger.warn("FastCCS: peer {} answered {}", ctx.channel().remoteAddress(), msg);
                            }

                            @Override
                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                logger.debug("FastCCS: peer link {} failed", ctx.channel().remoteAddress(), cause);
                                ctx.close();
                            }
                        });
                    }
                });
    }

    /** Sends a message to partition {@code to}; never blocks. Any thread. */
    public void send(int to, PeerMessage message) {
        if (to < 0 || to >= links.length || to == ring.self()) return;
        links[to].send(message);
    }

    public long dropped() {
        return dropped.get();
    }

    @Override
    public void close() {
        closed = true;
        for (Link l : links) l.close();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }

    private final class Link {
        private final int partition;
        private final ArrayDeque<PeerMessage> queue = new ArrayDeque<>();
        private Channel channel;
        private boolean connecting;
        private long lastAttempt = MonotonicClock.nanoTime() - RECONNECT_BACKOFF_NANOS;

        Link(int partition) {
            this.partition = partition;
        }

        synchronized void send(PeerMessage m) {
            if (channel != null && channel.isActive()) {
                channel.writeAndFlush(m, channel.voidPromise());
                return;
            }
            if (queue.size() >= MAX_QUEUED) {
                dropped.incrementAndGet();
                return;
            }
            queue.add(m);
            connect();
        }

        private void connect() {
            if (connecting || closed || MonotonicClock.nanoTime() - lastAttempt < RECONNECT_BACKOFF_NANOS) {
                if (!connecting && !closed) // try again once the backoff has passed
                    group.schedule(this::retry, RECONNECT_BACKOFF_NANOS, TimeUnit.NANOSECONDS);
                return;
            }
            connecting = true;
            lastAttempt = MonotonicClock.nanoTime();
            RingMember member = ring.members().get(partition);
            ChannelFuture f = bootstrap.connect(member.host(), member.port());
            f.addListener(done -> onConnected(f));
        }

        private synchronized void retry() {
            if (!queue.isEmpty() && (channel == null || !channel.isActive())) connect();
        }

        private synchronized void onConnected(ChannelFuture f) {
            connecting = false;
            if (!f.isSuccess()) {
                logger.debug("FastCCS: cannot reach partition {}: {}", partition, f.cause().toString());
                group.schedule(this::retry, RECONNECT_BACKOFF_NANOS, TimeUnit.NANOSECONDS);
                return;
            }
            channel = f.channel();
            if (closed) {
                channel.close();
                return;
            }
            channel.write(Hello.peer(ring.self()).to(partition).speaking(protocol), channel.voidPromise());
            while (!queue.isEmpty()) channel.write(queue.poll(), channel.voidPromise());
            channel.flush();
            channel.closeFuture().addListener(c -> logger.debug("FastCCS: link to partition {} closed", partition));
        }

        synchronized void close() {
            queue.clear();
            if (channel != null) channel.close();
        }
    }
}
