package io.fastccs.replication.ratis;

import io.fastccs.replication.NamedThreads;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerRpcWithProxy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps this server's channels to the other members out of gRPC's reconnect backoff. A channel to a member that was
 * down backs off exponentially (up to two minutes), and Ratis cuts that short only for a leader's log appenders, not
 * for votes: measured on three nodes, after one node came back and another was killed, the two live members of a
 * group could not elect for 30 s, the one with the newer log failing every vote request with UNAVAILABLE while its
 * channel waited out the backoff. Resetting the backoff is a no-op on a connected channel and one connection attempt
 * on a failed one.
 */
final class PeerReconnects implements AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(PeerReconnects.class);

    private final RaftServer server;
    private final ScheduledExecutorService timer;
    /** GrpcServerProtocolClient.resetConnectBackoff: public, on a class Ratis keeps package-private. */
    private final Method resetConnectBackoff;

    PeerReconnects(RaftServer server, long periodMillis) {
        this.server = server;
        this.resetConnectBackoff = find();
        this.timer = NamedThreads.scheduled("fastccs-raft-reconnects");
        if (resetConnectBackoff != null)
            timer.scheduleWithFixedDelay(this::resetAll, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    private static Method find() {
        try {
            Method m = Class.forName("org.apache.ratis.grpc.server.GrpcServerProtocolClient").getMethod("resetConnectBackoff");
            m.setAccessible(true);
            return m;
        } catch (ReflectiveOperationException | RuntimeException e) {
            logger.warn("FastCCS: Ratis's gRPC client has no resetConnectBackoff ({}); after a member comes back, "
                    + "elections may wait for gRPC's reconnect backoff", e.toString());
            return null;
        }
    }

    private void resetAll() {
        if (!(server.getServerRpc() instanceof RaftServerRpcWithProxy<?, ?> rpc)) return;
        try {
            for (RaftGroupId gid : server.getGroupIds()) {
                for (RaftPeer peer : server.getDivision(gid).getGroup().getPeers()) {
                    RaftPeerId id = peer.getId();
                    if (id.equals(server.getId())) continue;
                    Object proxy;
                    try {
                        proxy = rpc.getProxies().getProxy(id);
                    } catch (Exception e) {
                        continue; // not known to the rpc yet: nothing to reset
                    }
                    if (resetConnectBackoff.getDeclaringClass().isInstance(proxy)) resetConnectBackoff.invoke(proxy);
                }
            }
        } catch (Exception e) {
            logger.debug("FastCCS: could not reset the Raft channels' reconnect backoff", e);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
