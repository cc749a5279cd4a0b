package io.fastccs.server.transport;

import io.fastccs.core.primitives.Protocol;
import java.util.stream.Collectors;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.messages.RingRequest;
import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.server.node.InboundHandler;
import io.fastccs.server.node.MonotonicClock;
import io.fastccs.server.node.PartitionRouter;
import io.fastccs.server.node.NodeSettings;
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
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.ssl.SniHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.Mapping;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The FastCCS port: one port for clients and peers. Every connection starts with a {@link Hello}; a peer names its
 * partition and must come from that member's address (and, with internode encryption, use TLS with the internode
 * certificate); a client logs in and each request is checked against its permissions ({@link TransportSecurity}).
 * Event-loop threads only decode, check and hand over to the node's protocol thread or the auth threads; they never
 * wait.
 */
public final class FastCcsServer implements AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(FastCcsServer.class);
    /** Malformed frames tolerated on one connection before it is closed. */
    private static final int MAX_MALFORMED_FRAMES = 16;
    private static final int AUTH_THREADS = 2, AUTH_QUEUE = 4096;
    /** The client of an open port ({@link TransportSecurity#NONE}). */
    private static final TransportSecurity.Principal ANONYMOUS = new TransportSecurity.Principal() {
        @Override public String name() { return "anonymous"; }
        @Override public String denied(TransportSecurity.Access access) { return null; }
        @Override public long validityMillis() { return Long.MAX_VALUE; }
    };

    private final NodeSettings settings;
    private final PartitionRouter router;
    private final EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory("fastccs-accept", true));
    private final EventLoopGroup workers = new NioEventLoopGroup(2, new DefaultThreadFactory("fastccs-io", true));
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong malformedFrames = new AtomicLong();
    private final AtomicLong authFailures = new AtomicLong();
    private final AtomicLong forbidden = new AtomicLong();
    private final Traffic traffic = new Traffic();
    private final TransportSecurity security;
    /** Password checks and permission look-ups block: they run here, never on an event loop. */
    private final ThreadPoolExecutor authThreads;
    private Channel channel;

    /** A port for the partitions {@code router} says this node serves (replicated partitions: the groups it leads). */
    public FastCcsServer(NodeSettings settings, PartitionRouter router, TransportSecurity security) {
        this.settings = settings;
        this.router = router;
        this.security = security;
        this.authThreads = new ThreadPoolExecutor(AUTH_THREADS, AUTH_THREADS, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(AUTH_QUEUE), new DefaultThreadFactory("fastccs-auth", true));
        authThreads.allowCoreThreadTimeOut(true);
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
                        ConnectionHandler handler = new ConnectionHandler();
                        if (security.clientTls() != TransportSecurity.TlsPolicy.UNENCRYPTED
                                || security.peerTls() != TransportSecurity.TlsPolicy.UNENCRYPTED)
                            ch.pipeline().addLast("tls", new TlsDetector(handler));
                        FrameCodec.install(ch.pipeline(), settings.maxFrameBytes());
                        ch.pipeline().addLast("fastccs", handler);
                    }
                });
        channel = b.bind(settings.bindAddress(), settings.port()).sync().channel();
        logger.info("FastCCS port {}: clients {}, peers {}, {}", settings.port(), security.clientTls(), security.peerTls(),
                security.authenticationRequired() ? "login required" : "no login");
    }

    /** Client logins refused (wrong, missing or unusable credentials). */
    public long authenticationFailures() {
        return authFailures.get();
    }

    /** Client requests refused for lack of permission. */
    public long requestsForbidden() {
        return forbidden.get();
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

    /** Frames and bytes through this port per protocol, since it opened. */
    public Traffic traffic() {
        return traffic;
    }

    @Override
    public void close() {
        if (channel != null) channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        authThreads.shutdownNow();
    }

    /** Which TLS a connection negotiated: none, the client certificate, or the internode one (peers). */
    private enum Tls { NONE, CLIENT, PEER }

    /**
     * First handler when the port speaks TLS: looks at the first bytes and installs a TLS handler (choosing the
     * client or the internode certificate by the server name a peer link asks for) or nothing for plain text. The
     * Hello then decides whether what was negotiated is enough for who the connection says it is.
     */
    private final class TlsDetector extends ByteToMessageDecoder {
        private final ConnectionHandler connection;

        TlsDetector(ConnectionHandler connection) {
            this.connection = connection;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() < 5) return; // a TLS record header, or the start of a plain frame
            if (!SslHandler.isEncrypted(in)) {
                connection.tls = Tls.NONE;
                ctx.pipeline().remove(this);
                return;
            }
            Mapping<String, SslContext> contexts = serverName -> {
                SslContext peer = security.peerTls() == TransportSecurity.TlsPolicy.UNENCRYPTED ? null : security.peerServerContext();
                SslContext client = security.clientTls() == TransportSecurity.TlsPolicy.UNENCRYPTED ? null : security.clientServerContext();
                boolean peerName = TransportSecurity.PEER_SERVER_NAME.equals(serverName);
                if (peer != null && (peerName || client == null)) {
                    connection.tls = Tls.PEER;
                    return peer;
                }
                connection.tls = Tls.CLIENT;
                return client;
            };
            ctx.pipeline().replace(this, "tls", new SniHandler(contexts));
        }
    }

    /** One connection's state: before the handshake, a client, or a peer speaking for one partition. */
    private final class ConnectionHandler extends SimpleChannelInboundHandler<Object> {
        private static final int UNIDENTIFIED = -2, CLIENT = -1, AUTHENTICATING = -3, REFUSED = -4, UNIDENTIFIED_PEER = -5;
        private static final int MAX_HELD_WHILE_AUTHENTICATING = 1024;
        private int identity = UNIDENTIFIED;
        /** The partition this connection is for, and the host that served it when the connection was accepted. */
        private int target = -1;
        private boolean explicitTarget;
        /** The protocol the connection speaks, from its Hello. */
        private Protocol protocol = Protocol.FASTCCS;
        private InboundHandler node;
        private int malformed;
        /** Set by {@link TlsDetector}, or NONE when the port has no TLS. */
        private Tls tls = Tls.NONE;
        private TransportSecurity.Principal principal;
        /** Per access: the answer of the principal and until when (nanoTime) it may be reused. */
        private final String[] denial = new String[TransportSecurity.Access.values().length];
        private final long[] answeredUntil = new long[TransportSecurity.Access.values().length];
        private final boolean[] answered = new boolean[TransportSecurity.Access.values().length];
        /** Frames that arrived while the credentials were being checked. */
        private final ArrayDeque<Object> held = new ArrayDeque<>();

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
            if (identity == REFUSED) return; // closing
            if (identity == AUTHENTICATING) {
                if (held.size() >= MAX_HELD_WHILE_AUTHENTICATING) close(ctx, "too many frames before the handshake ended");
                else held.add(msg);
                return;
            }
            if (msg instanceof MalformedFrameException e) {
                malformedFrames.incrementAndGet();
                ctx.writeAndFlush(ErrorReply.of(0, e.errorCode(), e.getMessage()));
                if (++malformed > MAX_MALFORMED_FRAMES || identity == UNIDENTIFIED) close(ctx, "malformed frames");
                return;
            }
            Message m = (Message) msg;
            if (identity == UNIDENTIFIED) {
                handshake(ctx, m);
                return;
            }
            if (m instanceof RingRequest r) {
                ctx.writeAndFlush(router.ring(r.requestId()));
                return;
            }
            if (node == null || router.serving(protocol, target) != node) { // this node does not lead the group (any more)
                notLeader(ctx, requestIdOf(m));
                return;
            }
            if (identity == CLIENT) {
                if (m instanceof ClientRequest r) authorize(ctx, r);
                else refuse(ctx, m, "a client may not send " + m.getClass().getSimpleName());
            } else {
                if (m instanceof PeerMessage p) node.onPeerMessage(identity, p);
                else refuse(ctx, m, "a peer may not send " + m.getClass().getSimpleName());
            }
        }

        /** Nothing was done: the client asks the ring for the leader and goes there. */
        private void notLeader(ChannelHandlerContext ctx, long requestId) {
            held.clear();
            identity = REFUSED;
            ctx.writeAndFlush(new ErrorReply(requestId, ErrorCode.NOT_LEADER, "this node does not lead partition " + target
                    + " (any more); ask the ring for its leader", router.leaderHint(target))).addListener(ChannelFutureListener.CLOSE);
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
            if (!router.protocols().contains(hello.protocol())) {
                Protocol runs = router.protocols().iterator().next();
                ctx.writeAndFlush(ErrorReply.of(0, ErrorCode.INVALID_REQUEST, "this node runs "
                        + router.protocols().stream().map(Protocol::word).collect(Collectors.joining(", "))
                        + "; the connection speaks " + hello.protocol().word()
                        + (hello.fromPeer() ? " (every node needs the same protocol setting)"
                        : " (build the client with withProtocol(Protocol." + runs + "), or add " + hello.protocol().word()
                        + " to the nodes' protocol setting)")))
                        .addListener(ChannelFutureListener.CLOSE);
                return;
            }
            protocol = hello.protocol();
            InetSocketAddress remote = (InetSocketAddress) ctx.channel().remoteAddress();
            explicitTarget = hello.target() >= 0;
            target = explicitTarget ? hello.target() : router.ownPartition();
            if (target >= router.partitions()) {
                ctx.writeAndFlush(ErrorReply.of(0, ErrorCode.INVALID_REQUEST, "no partition " + target + " in a ring of "
                        + router.partitions())).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            node = router.serving(protocol, target);
            if (hello.fromPeer()) {
                identity = UNIDENTIFIED_PEER;
                if (hello.partition() >= router.partitions() || hello.partition() == target
                        || !router.mayActAs(remote.getAddress(), hello.partition())) {
                    unauthorized(ctx, "not a ring member: " + remote.getAddress() + " may not act as partition "
                            + hello.partition());
                    return;
                }
                if (security.peerTls() == TransportSecurity.TlsPolicy.ENCRYPTED && tls != Tls.PEER) {
                    unauthorized(ctx, "internode encryption is on: a peer must connect with TLS and its node certificate");
                    return;
                }
                if (node == null) {
                    notLeader(ctx, 0);
                    return;
                }
                identity = hello.partition();
                ctx.writeAndFlush(new HelloReply(Hello.PROTOCOL_VERSION, target, router.partitions(), protocol));
                traffic.attach(ctx.channel(), protocol, true);
                return;
            }
            if (security.clientTls() == TransportSecurity.TlsPolicy.ENCRYPTED && tls != Tls.CLIENT) {
                unauthorized(ctx, "client encryption is on: connect with TLS");
                return;
            }
            if (security == TransportSecurity.NONE) {
                acceptClient(ctx, ANONYMOUS);
                return;
            }
            identity = AUTHENTICATING;
            String user = hello.user(), password = hello.password();
            submitAuth(ctx, () -> {
                try {
                    TransportSecurity.Principal p = security.login(remote, user, password);
                    ctx.executor().execute(() -> acceptClient(ctx, p));
                } catch (TransportSecurity.Refused e) {
                    authFailures.incrementAndGet();
                    ctx.executor().execute(() -> unauthorized(ctx, e.getMessage()));
                }
            });
        }

        private void acceptClient(ChannelHandlerContext ctx, TransportSecurity.Principal p) {
            principal = p;
            if (node == null && explicitTarget) {
                notLeader(ctx, 0);
                return;
            }
            // A Hello naming no partition is accepted even without a host here: a contact point answers ring requests.
            identity = CLIENT;
            ctx.writeAndFlush(new HelloReply(Hello.PROTOCOL_VERSION, target, router.partitions(), protocol));
            traffic.attach(ctx.channel(), protocol, false);
            while (!held.isEmpty() && ctx.channel().isActive()) channelRead0(ctx, held.poll());
        }

        /** Hands the request to the node if the principal may make it; asks the host off the event loop if unsure. */
        private void authorize(ChannelHandlerContext ctx, ClientRequest r) {
            TransportSecurity.Access access = r.onlyReads() ? TransportSecurity.Access.READ : TransportSecurity.Access.WRITE;
            int a = access.ordinal();
            if (answered[a] && MonotonicClock.nanoTime() - answeredUntil[a] < 0) {
                dispatch(ctx, r, denial[a]);
                return;
            }
            submitAuth(ctx, () -> {
                String denied = principal.denied(access);
                long validity = principal.validityMillis();
                ctx.executor().execute(() -> {
                    denial[a] = denied;
                    answered[a] = validity > 0;
                    answeredUntil[a] = MonotonicClock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.min(validity, 3_600_000));
                    dispatch(ctx, r, denied);
                });
            });
        }

        private void dispatch(ChannelHandlerContext ctx, ClientRequest r, String denied) {
            if (denied == null) {
                node.onClientRequest(response -> ctx.writeAndFlush(response), r);
            } else {
                forbidden.incrementAndGet();
                ctx.writeAndFlush(ErrorReply.of(r.requestId(), ErrorCode.UNAUTHORIZED, denied));
            }
        }

        /** Runs blocking security work on the auth threads; a full queue refuses the connection's work as overload. */
        private void submitAuth(ChannelHandlerContext ctx, Runnable work) {
            try {
                authThreads.execute(() -> {
                    try {
                        work.run();
                    } catch (RuntimeException e) {
                        logger.warn("FastCCS: security check for {} failed", ctx.channel().remoteAddress(), e);
                        ctx.executor().execute(() -> unauthorized(ctx, "the security check failed on the node: " + e));
                    }
                });
            } catch (RejectedExecutionException e) {
                ctx.writeAndFlush(ErrorReply.of(0, ErrorCode.OVERLOADED, "too many security checks waiting; retry later"))
                        .addListener(ChannelFutureListener.CLOSE);
            }
        }

        private void unauthorized(ChannelHandlerContext ctx, String why) {
            // A refused peer is an attack or a misconfigured node: warn. Refused clients are routine (probes, typos).
            if (identity == UNIDENTIFIED_PEER) logger.warn("FastCCS: refused a peer connection from {}: {}", ctx.channel().remoteAddress(), why);
            else logger.info("FastCCS: refused a client connection from {}: {}", ctx.channel().remoteAddress(), why);
            held.clear();
            identity = REFUSED;
            ctx.writeAndFlush(ErrorReply.of(0, ErrorCode.UNAUTHORIZED, why)).addListener(ChannelFutureListener.CLOSE);
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
