package io.fastccs.client;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.Protocol;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.messages.RingMember;
import io.fastccs.core.messages.RingReply;
import io.fastccs.core.messages.RingRequest;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.ring.TokenRing;
import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.WireCodec;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fake nodes over real sockets whose answers a test scripts, like the driver's Simulacron: each node does the
 * handshake (optionally checking credentials) and answers ring requests itself, records every client request, and
 * passes it to the {@link Script}, which may answer, answer late, answer garbage or stay silent.
 *
 * <p>Node i leads partition i at first. {@link #lead} and {@link #stepDown} play a replicated partition's failover:
 * a node answers {@code NOT_LEADER} to a Hello for a partition it does not lead (then closes the connection), and to
 * requests on a connection whose partition it no longer leads; the ring names each partition's leader.
 */
final class ScriptedCluster implements AutoCloseable {
    /** What a node does with a client request. */
    @FunctionalInterface
    interface Script {
        void onRequest(Node node, ClientRequest request, Responder out);
    }

    /** How a script answers. */
    interface Responder {
        void reply(Message m);

        /** Sends {@code body} as a frame as it is: for malformed frames. */
        void replyRaw(byte[] body);

        void closeConnection();

        /** The partition the connection is for: the Hello's target, else the node's own. */
        int partition();
    }

    private final EventLoopGroup group = new NioEventLoopGroup(2);
    private final List<Node> nodes = new ArrayList<>();
    private final List<RingMember> members = new CopyOnWriteArrayList<>();
    private final TokenRing ring;
    private volatile Script script;
    private volatile String requiredUser;
    private volatile String requiredPassword;
    private volatile Protocol runs = Protocol.FASTCCS;
    private volatile ErrorReply helloRefusal;

    private ScriptedCluster(int n, Script script) throws InterruptedException {
        this.script = script;
        for (int p = 0; p < n; p++) nodes.add(new Node(p));
        for (Node node : nodes) node.start(0);
        long step = Long.divideUnsigned(-1L, n);
        for (int p = 0; p < n; p++)
            members.add(new RingMember(p, "127.0.0.1", nodes.get(p).port, Long.MIN_VALUE + step * (p + 1), true));
        ring = TokenRing.of(members);
    }

    static ScriptedCluster start(int partitions, Script script) throws InterruptedException {
        return new ScriptedCluster(partitions, script);
    }

    /**
     * Answers every read with "no value" at a zero snapshot, and every write with committed at {@code clock} raised by a
     * sequence number at each participant, at a commit time above the client's dependency time.
     */
    static Script emptyStore(int partitions) {
        AtomicLong sequence = new AtomicLong();
        return (node, request, out) -> {
            VectorClock zero = VectorClock.zero(partitions);
            if (request instanceof FirstRoundRead r) out.reply(emptyRead(r.requestId(), r.keys(), zero));
            else if (request instanceof SecondRoundRead r) out.reply(emptyRead(r.requestId(), r.keys(), zero));
            else if (request instanceof WriteRequest w) {
                VectorClock commit = w.clock();
                long sn = sequence.incrementAndGet();
                for (int p : w.participants()) commit = commit.with(p, Math.max(commit.get(p), sn));
                out.reply(new WriteReply(w.requestId(), w.txnId(), Outcome.COMMITTED, commit, w.dependencyTime() + sn));
            }
        };
    }

    static ReadReply emptyRead(long requestId, List<Key> keys, VectorClock clock) {
        List<ReadValue> values = new ArrayList<>();
        for (Key k : keys) values.add(new ReadValue(k, null, 0));
        return new ReadReply(requestId, values, clock, clock, 0, 0, List.of(), false);
    }

    void script(Script s) {
        this.script = s;
    }

    void requireCredentials(String user, String password) {
        this.requiredUser = user;
        this.requiredPassword = password;
    }

    /** The consistency protocol every node's HelloReply names from now on (FastCCS at first). */
    void runs(Protocol protocol) {
        this.runs = protocol;
    }

    /** Every node answers a Hello with {@code refusal} from now on (and closes the connection), as a node may refuse a client of another protocol. */
    void refuseHellos(ErrorReply refusal) {
        this.helloRefusal = refusal;
    }

    /** Every Hello any node received. */
    List<Hello> allHellos() {
        List<Hello> all = new ArrayList<>();
        for (Node n : nodes) all.addAll(n.hellos);
        return all;
    }

    TokenRing ring() {
        return ring;
    }

    Node node(int p) {
        return nodes.get(p);
    }

    List<InetSocketAddress> contactPoints() {
        List<InetSocketAddress> out = new ArrayList<>();
        for (Node n : nodes) out.add(new InetSocketAddress("127.0.0.1", n.port));
        return out;
    }

    /** Restarts node {@code p} on another port; the ring the nodes serve names the new one. */
    void move(int p) throws InterruptedException {
        Node node = nodes.get(p);
        node.stop();
        node.start(0);
        RingMember old = members.get(p);
        members.set(p, new RingMember(p, old.host(), node.port, old.token(), true));
    }

    /**
     * Makes node {@code leader} the leader of {@code partition}, as a failover does: the previous leader refuses its
     * requests from now on, and the ring names the new one.
     */
    void lead(int partition, int leader) {
        for (Node n : nodes) n.leads.remove(partition);
        nodes.get(leader).leads.add(partition);
        misname(partition, leader);
    }

    /**
     * The ring names node {@code named} for {@code partition}, whoever leads it: alone, what a node answers that
     * learns leaders through gossip and still counts a dead leader's claim.
     */
    void misname(int partition, int named) {
        RingMember old = members.get(partition);
        members.set(partition, new RingMember(partition, old.host(), nodes.get(named).port, old.token(), true, old.replicas()));
    }

    /** No node leads {@code partition} (an election is under way); the ring still names the last leader. */
    void stepDown(int partition) {
        for (Node n : nodes) n.leads.remove(partition);
    }

    /** Every client request any node received. */
    List<ClientRequest> allRequests() {
        List<ClientRequest> all = new ArrayList<>();
        for (Node n : nodes) all.addAll(n.requests);
        return all;
    }

    @Override
    public void close() {
        for (Node n : nodes) n.stop();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** One fake node. */
    final class Node {
        final int partition;
        final List<ClientRequest> requests = new CopyOnWriteArrayList<>();
        final List<Hello> hellos = new CopyOnWriteArrayList<>();
        final Set<Integer> leads = ConcurrentHashMap.newKeySet();
        final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        volatile int port;
        private Channel server;

        Node(int partition) {
            this.partition = partition;
            leads.add(partition);
        }

        void start(int atPort) throws InterruptedException {
            server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            connections.add(ch);
                            ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(16 << 20, 0, 4, 0, 4))
                                    .addLast(new LengthFieldPrepender(4))
                                    .addLast(new Handler());
                        }
                    }).bind(InetAddress.getLoopbackAddress(), atPort).sync().channel();
            port = ((InetSocketAddress) server.localAddress()).getPort();
        }

        /** Closes the port and every connection, as a crash would. */
        void stop() {
            if (server != null) server.close().syncUninterruptibly();
            connections.close().syncUninterruptibly();
            server = null;
        }

        /** Listens again on the same port. */
        void restart() throws InterruptedException {
            stop();
            start(port);
        }

        private final class Handler extends SimpleChannelInboundHandler<ByteBuf> {
            private boolean greeted;
            private int served;

            @Override
            protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) throws MalformedFrameException {
                byte[] bytes = new byte[frame.readableBytes()];
                frame.readBytes(bytes);
                Message m = WireCodec.decode(bytes);
                Responder out = new Responder() {
                    @Override
                    public void reply(Message reply) {
                        ctx.writeAndFlush(Unpooled.wrappedBuffer(WireCodec.encode(reply)));
                    }

                    @Override
                    public void replyRaw(byte[] body) {
                        ctx.writeAndFlush(Unpooled.wrappedBuffer(body));
                    }

                    @Override
                    public void closeConnection() {
                        ctx.close();
                    }

                    @Override
                    public int partition() {
                        return served;
                    }
                };
                if (!greeted) {
                    Hello hello = (Hello) m;
                    hellos.add(hello);
                    if (requiredUser != null && (!requiredUser.equals(hello.user()) || !requiredPassword.equals(hello.password()))) {
                        out.reply(ErrorReply.of(0, ErrorCode.UNAUTHORIZED, "bad credentials"));
                        return;
                    }
                    ErrorReply refusal = helloRefusal;
                    if (refusal != null) {
                        out.reply(refusal);
                        ctx.close();
                        return;
                    }
                    served = hello.target() >= 0 ? hello.target() : partition;
                    if (hello.target() >= 0 && !leads.contains(hello.target())) {
                        out.reply(ErrorReply.of(0, ErrorCode.NOT_LEADER, "not the leader of partition " + hello.target()));
                        ctx.close();
                        return;
                    }
                    greeted = true;
                    out.reply(new HelloReply(Hello.PROTOCOL_VERSION, served, nodes.size(), runs));
                } else if (m instanceof RingRequest r) {
                    out.reply(new RingReply(r.requestId(), List.copyOf(members)));
                } else {
                    ClientRequest request = (ClientRequest) m;
                    requests.add(request);
                    if (leads.contains(served)) script.onRequest(Node.this, request, out);
                    else out.reply(ErrorReply.of(request.requestId(), ErrorCode.NOT_LEADER, "no longer the leader of partition " + served));
                }
            }
        }
    }
}
