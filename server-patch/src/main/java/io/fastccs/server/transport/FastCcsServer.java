package io.fastccs.server.transport;

import io.fastccs.protocol.messages.ClientRequest;
import io.fastccs.protocol.messages.ErrorCode;
import io.fastccs.protocol.messages.ErrorReply;
import io.fastccs.protocol.messages.Hello;
import io.fastccs.protocol.messages.HelloReply;
import io.fastccs.protocol.messages.Message;
import io.fastccs.protocol.messages.PeerMessage;
import io.fastccs.protocol.messages.RingRequest;
import io.fastccs.protocol.wire.MalformedFrameException;
import io.fastccs.server.node.FastCcsNode;
import io.fastccs.server.node.NodeSettings;
import io.fastccs.server.node.RingView;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The FastCCS port: one port for clients and peers. Every connection starts with a {@link Hello}; a peer names its
 * partition and must come from that member's address. Event-loop threads only decode, check and hand over to the
 * node's protocol thread; they never wait.
 */
public final class FastCcsServer implements AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(FastCcsServer.class);
    /** Malformed frames tolerated on one connection before it is closed. */
    private static final int MAX_MALFORMED_FRAMES = 16;

    private final NodeSettings settings;
    private final RingView ring;
    private final FastCcsNode node;
    private final EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory("fastccs-accept", true));
    private final EventLoopGroup workers = new NioEventLoopGroup(2, new DefaultThreadFactory("fastccs-io", true));
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong malformedFrames = new AtomicLong();
    private Channel channel;

    public FastCcsServer(NodeSettings settings, RingView ring, FastCcsNode node) {
        this.settings = settings;
        this.ring = ring;
        this.node = node;
    }

    public void start() throws InterruptedException {
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.incrementAndGet();
                        FrameCodec.install(ch.pipeline(), settings.maxFrameBytes());
                        ch.pipeline().addLast("fastccs", new ConnectionHandler());
                    }
                });
        channel = b.bind(settings.bindAddress(), settings.port()).sync().channel();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    public long connectionsAccepted() {
        return connections.get();
    }

    public long malformedFrames() {
        return malformedFrames.get();
    }

    @Override
    public void close() {
        if (channel != null) channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }

    /** One connection's state: before the handshake, a client, or a peer speaking for one partition. */
    private final class ConnectionHandler extends SimpleChannelInboundHandler<Object> {
        private static final int UNIDENTIFIED = -2, CLIENT = -1;
        private int identity = UNIDENTIFIED;
        private int malformed;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof MalformedFrameException e) {
                malformedFrames.incrementAndGet();
                ctx.writeAndFlush(ErrorReply.of(0, e.errorCode(), e.getMessage()));
                if (++malformed > MAX_MALFORMED_FRAMES || identity == UNIDENTIFIED) close(ctx, "malformed frames");
                return;
            }
            Message m = (Message) msg;
            if (identity == UNIDENTIFIED) {
                handshake(ctx, m);
            } else if (identity == CLIENT) {
                if (m instanceof ClientRequest r) node.onClientRequest(response -> ctx.writeAndFlush(response), r);
                else if (m instanceof RingRequest r) ctx.writeAndFlush(node.ring(r.requestId()));
                else refuse(ctx, m, "a client may not send " + m.getClass().getSimpleName());
            } else {
                if (m instanceof PeerMessage p) node.onPeerMessage(identity, p);
                else if (m instanceof RingRequest r) ctx.writeAndFlush(node.ring(r.requestId()));
                else refuse(ctx, m, "a peer may not send " + m.getClass().getSimpleName());
            }
        }

        private void handshake(ChannelHandlerContext ctx, Message m) {
            if (!(m instanceof Hello hello)) {
                ctx.writeAndFlush(ErrorReply.of(requestIdOf(m), ErrorCode.INVALID_REQUEST, "the first frame must be a Hello"))
                        .addListener(ChannelFutureListener.CLOSE);
                return;
            }
            if (hello.version() != Hello.PROTOCOL_VERSION) {
                ctx.writeAndFlush(ErrorReply.of(0, ErrorCode.INVALID_REQUEST, "protocol version " + hello.version()
                        + " not supported; this node speaks " + Hello.PROTOCOL_VERSION)).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            if (hello.fromPeer()) {
                InetSocketAddress remote = (InetSocketAddress) ctx.channel().remoteAddress();
                if (hello.partition() >= ring.partitions() || hello.partition() == ring.self()
                        || !ring.mayActAs(remote.getAddress(), hello.partition())) {
                    logger.warn("FastCCS: refused a peer connection from {} claiming partition {}", remote, hello.partition());
                    ctx.writeAndFlush(ErrorReply.of(0, ErrorCode.UNAUTHORIZED, "not a ring member: " + remote.getAddress()
                            + " may not act as partition " + hello.partition())).addListener(ChannelFutureListener.CLOSE);
                    return;
                }
                identity = hello.partition();
            } else {
                identity = CLIENT;
            }
            ctx.writeAndFlush(new HelloReply(Hello.PROTOCOL_VERSION, ring.self(), ring.partitions()));
        }

        private void refuse(ChannelHandlerContext ctx, Message m, String why) {
            ctx.writeAndFlush(ErrorReply.of(requestIdOf(m), ErrorCode.UNKNOWN_MESSAGE, why));
        }

        private long requestIdOf(Message m) {
            if (m instanceof ClientRequest r) return r.requestId();
            if (m instanceof RingRequest r) return r.requestId();
            return 0;
        }

        private void close(ChannelHandlerContext ctx, String why) {
            logger.debug("FastCCS: closing {}: {}", ctx.channel().remoteAddress(), why);
            ctx.flush();
            ctx.close();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof TooLongFrameException || cause.getCause() instanceof TooLongFrameException) {
                malformedFrames.incrementAndGet();
                ctx.writeAndFlush(ErrorReply.of(0, ErrorCode.MALFORMED_FRAME, "frame longer than "
                        + settings.maxFrameBytes() + " bytes")).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            logger.debug("FastCCS: connection {} failed", ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }
}
