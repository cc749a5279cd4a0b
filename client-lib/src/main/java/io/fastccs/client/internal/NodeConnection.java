package io.fastccs.client.internal;

import io.fastccs.client.AuthenticationException;
import io.fastccs.client.FastCcsException;
import io.fastccs.client.PartitionUnavailableException;
import io.fastccs.client.ProtocolException;
import io.fastccs.client.ProtocolMismatchException;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.RingReply;
import io.fastccs.core.primitives.Protocol;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One open connection to one node: requests are pipelined and matched to replies by request id, which the caller
 * keeps unique on the connection. Never blocks; replies and failures complete futures on the connection's event
 * loop, timeouts on the timer thread.
 *
 * <p>A connection is usable once its handshake ({@link Hello}, then {@link HelloReply}) is done: the node's reply must
 * name the protocol version, the consistency protocol and (for a partition's connection) the partition the client
 * expects, and a node refusing the Hello ({@link ErrorReply}) fails it with the reason. Anything that
 * makes the stream untrustworthy (a malformed frame, a message a client should never get) closes it; closing
 * fails every pending request with the reason.
 */
final class NodeConnection {
    private static final Logger LOG = LoggerFactory.getLogger(NodeConnection.class);

    private final SocketAddress address;
    /** {@code host:port}, for messages. */
    private final String label;
    private final int expectedPartition;
    /** The consistency protocol the client speaks: the node's reply must name it. */
    private final Protocol protocol;
    private final Timer timer;
    private final ConcurrentHashMap<Long, Pending> pending = new ConcurrentHashMap<>();
    private final CompletableFuture<HelloReply> handshake = new CompletableFuture<>();
    private final CompletableFuture<FastCcsException> closed = new CompletableFuture<>();
    private volatile Channel channel;
    private volatile FastCcsException closeReason;

    /**
     * @param expectedPartition the partition the node must say it is, or -1 for any (a contact point)
     * @param protocol          the consistency protocol the client speaks, which the node must run
     */
    NodeConnection(SocketAddress address, int expectedPartition, Protocol protocol, Timer timer) {
        this.address = address;
        this.label = describe(address);
        this.expectedPartition = expectedPartition;
        this.protocol = protocol;
        this.timer = timer;
    }

    private record Pending(CompletableFuture<Message> reply, Timeout timeout) {
    }

    SocketAddress address() {
        return address;
    }

    /** The node's {@code host:port}. */
    String label() {
        return label;
    }

    /** {@code host:port} of an address, resolved or not. */
    static String describe(SocketAddress address) {
        return address instanceof InetSocketAddress a ? a.getHostString() + ":" + a.getPort() : String.valueOf(address);
    }

    /** The node's handshake reply; only valid once {@link #handshake()} completed. */
    HelloReply hello() {
        return handshake.join();
    }

    CompletableFuture<HelloReply> handshake() {
        return handshake;
    }

    /** Completed with the reason once the connection is closed, by either side. */
    CompletableFuture<FastCcsException> closeFuture() {
        return closed;
    }

    boolean isOpen() {
        return closeReason == null && handshake.isDone() && !handshake.isCompletedExceptionally();
    }

    /** The handler to put last in the channel's pipeline. */
    SimpleChannelInboundHandler<Message> handler() {
        return new Handler();
    }

    /** Called as soon as the channel exists, before it is connected, so {@link #close} can abort the connect. */
    void attach(Channel ch) {
        this.channel = ch;
        if (closeReason != null) ch.close();
    }

    /** Called once the TCP connection is up: sends the hello. */
    void connected(Hello hello) {
        Channel ch = channel;
        if (closeReason != null) return;
        ch.writeAndFlush(Unpooled.wrappedBuffer(Frames.encode(hello))).addListener(f -> {
            if (!f.isSuccess()) close(unavailable("cannot send the handshake", f.cause()));
        });
    }

    /**
     * Sends one frame and returns the reply to it, or fails with {@link RequestTimedOutException} after
     * {@code timeoutNanos}, or with the reason the connection closed.
     */
    CompletableFuture<Message> send(long requestId, byte[] frame, long timeoutNanos) {
        CompletableFuture<Message> reply = new CompletableFuture<>();
        FastCcsException reason = closeReason;
        if (reason != null) {
            reply.completeExceptionally(reason);
            return reply;
        }
        Timeout timeout = timer.newTimeout(t -> expire(requestId), timeoutNanos, TimeUnit.NANOSECONDS);
        if (pending.putIfAbsent(requestId, new Pending(reply, timeout)) != null) {
            timeout.cancel();
            throw new IllegalStateException("request id " + requestId + " already pending on " + label);
        }
        // The connection may have closed between the check above and the put: it then missed this request.
        if (closeReason != null) fail(requestId, closeReason);
        channel.writeAndFlush(Unpooled.wrappedBuffer(frame)).addListener(f -> {
            if (!f.isSuccess()) fail(requestId, unavailable("cannot send a request", f.cause()));
        });
        return reply;
    }

    /** Stops waiting for the reply to {@code requestId}; a late reply is then ignored. */
    void cancel(long requestId) {
        Pending p = pending.remove(requestId);
        if (p != null) p.timeout.cancel();
    }

    /** Closes the connection; pending requests fail with {@code reason}. Idempotent: the first reason wins. */
    void close(FastCcsException reason) {
        synchronized (this) {
            if (closeReason != null) return;
            closeReason = reason;
        }
        handshake.completeExceptionally(reason);
        for (Long id : pending.keySet()) fail(id, reason);
        Channel ch = channel;
        if (ch != null) ch.close();
        closed.complete(reason);
    }

    private void expire(long requestId) {
        Pending p = pending.remove(requestId);
        if (p != null)
            p.reply.completeExceptionally(new RequestTimedOutException("no reply from " + label + " to request " + requestId));
    }

    private void fail(long requestId, Throwable cause) {
        Pending p = pending.remove(requestId);
        if (p != null) {
            p.timeout.cancel();
            p.reply.completeExceptionally(cause);
        }
    }

    private PartitionUnavailableException unavailable(String what, Throwable cause) {
        return new PartitionUnavailableException(expectedPartition, what + " to " + label + ": " + cause, cause);
    }

    private void onHandshakeReply(Message m) {
        if (m instanceof HelloReply h) {
            if (h.version() != Hello.PROTOCOL_VERSION) {
                close(new ProtocolException(label + " speaks protocol version " + h.version() + ", the client "
                        + Hello.PROTOCOL_VERSION));
            } else if (h.protocol() != protocol) {
                close(new ProtocolMismatchException(label, h.protocol(), protocol));
            } else if (expectedPartition >= 0 && h.partition() != expectedPartition) {
                close(new ProtocolException(label + " is partition " + h.partition() + ", expected " + expectedPartition));
            } else {
                handshake.complete(h);
            }
        } else if (m instanceof ErrorReply e && e.code() == ErrorCode.UNAUTHORIZED) {
            close(new AuthenticationException(label + " refused the connection: " + e.message()));
        } else if (m instanceof ErrorReply e && e.code() == ErrorCode.NOT_LEADER) {
            // A failover moved the partition's leader: the ring names the new one once refreshed.
            close(new PartitionUnavailableException(expectedPartition, label + " does not lead partition "
                    + expectedPartition + (e.owner() >= 0 ? " (partition " + e.owner() + "'s node leads it)" : "")));
        } else if (m instanceof ErrorReply e) {
            close(new ProtocolException(label + " refused the handshake: " + e.code() + " " + e.message()));
        } else {
            close(new ProtocolException(label + " answered the handshake with " + m));
        }
    }

    private void onMessage(Message m) {
        long id;
        if (m instanceof ClientResponse r) id = r.requestId();
        else if (m instanceof RingReply r) id = r.requestId();
        else {
            close(new ProtocolException(label + " sent a message a client never expects: " + m));
            return;
        }
        Pending p = pending.remove(id);
        if (p == null) {
            if (m instanceof ErrorReply e && e.code() == ErrorCode.UNAUTHORIZED && e.requestId() == 0) {
                // Request id 0 (never one of ours): the node refuses the connection itself.
                close(new AuthenticationException(label + " revoked the connection: " + e.message()));
            } else if (m instanceof ErrorReply e && e.code() == ErrorCode.NOT_LEADER && e.requestId() == 0) {
                // The node stepped down for the whole connection: reconnecting finds the new leader.
                close(new PartitionUnavailableException(expectedPartition, label + " no longer leads partition "
                        + expectedPartition));
            } else if (m instanceof ErrorReply e && e.code() == ErrorCode.UNAUTHORIZED) {
                // A permission refusal of a request that no longer waits (a write that failed on another partition).
                LOG.debug("{} refused request {} no longer pending: {}", label, id, e.message());
            } else if (m instanceof ErrorReply e) {
                LOG.warn("{} reported an error for no pending request: {}", label, e);
            } else {
                LOG.debug("late reply from {} to request {}, ignored", label, id);
            }
            return;
        }
        p.timeout.cancel();
        p.reply.complete(m);
    }

    private final class Handler extends SimpleChannelInboundHandler<Message> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Message m) {
            if (!handshake.isDone()) onHandshakeReply(m);
            else onMessage(m);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            close(new PartitionUnavailableException(expectedPartition, "connection to " + label + " closed"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof DecoderException || cause instanceof TooLongFrameException) {
                LOG.warn("closing the connection to {}: {}", label, cause.toString());
                close(new ProtocolException("malformed frame from " + label + ": " + cause.getMessage(), cause));
            } else {
                LOG.debug("closing the connection to {}", label, cause);
                close(unavailable("connection failed", cause));
            }
        }
    }

    @Override
    public String toString() {
        return "NodeConnection[" + label + (expectedPartition >= 0 ? ", partition " + expectedPartition : "")
                + (closeReason != null ? ", closed" : "") + "]";
    }
}
