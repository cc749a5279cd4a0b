package io.fastccs.replication.ratis;

import io.fastccs.replication.LinkFaults;
import org.apache.ratis.grpc.server.GrpcServices;
import org.apache.ratis.proto.RaftProtos.AppendEntriesRequestProto;
import org.apache.ratis.proto.RaftProtos.InstallSnapshotRequestProto;
import org.apache.ratis.proto.RaftProtos.RaftRpcRequestProto;
import org.apache.ratis.proto.RaftProtos.ReadIndexRequestProto;
import org.apache.ratis.proto.RaftProtos.RequestVoteRequestProto;
import org.apache.ratis.proto.RaftProtos.StartLeaderElectionRequestProto;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.io.grpc.ForwardingServerCall;
import org.apache.ratis.thirdparty.io.grpc.ForwardingServerCallListener;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyServerBuilder;

import java.io.IOException;
import java.util.EnumSet;
import java.util.function.Supplier;

/**
 * Test only: drops the consensus traffic of this server with the members {@link LinkFaults} names, both ways, on the
 * server side of every call: a request from a cut-off member is never delivered (nor the end of its call, so the
 * sender waits out its own timeout, as behind a firewall that drops packets), and nothing is sent back to one, not even
 * the close of a call. A call's sender is the requestor a Raft request names ({@link RaftRpcRequestProto}); its address
 * is the one the group's configuration gives that member. Installed only when the faults are controllable.
 */
final class LinkFaultFilter implements ServerInterceptor, GrpcServices.Customizer {
    private final LinkFaults faults;
    private final Supplier<RaftServer> server;

    LinkFaultFilter(LinkFaults faults, Supplier<RaftServer> server) {
        this.faults = faults;
        this.server = server;
    }

    @Override
    public NettyServerBuilder customize(NettyServerBuilder builder, EnumSet<GrpcServices.Type> types) {
        return builder.intercept(this);
    }

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        FilteredCall<Q, A> filtered = new FilteredCall<>(call);
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(filtered, headers)) {
            @Override
            public void onMessage(Q message) {
                // Every request of a call comes from one member: look it up once (a stream carries many appends).
                if (filtered.peerHost == null) filtered.peerHost = senderHost(message);
                if (filtered.cutOff()) {
                    filtered.dropped = true;
                    // The handler asks for the next message once it has taken one; for a dropped one we must ask, or
                    // the stream would stall for good, also once healed.
                    filtered.request(1);
                    return;
                }
                super.onMessage(message);
            }

            @Override
            public void onHalfClose() {
                // A unary call whose request was dropped must not end as "half-closed without a request": it never arrived.
                if (filtered.dropped && filtered.cutOff()) return;
                super.onHalfClose();
            }
        };
    }

    /** The header of a request between members: appends and heartbeats, votes, snapshots, elections, read indexes. */
    private static RaftRpcRequestProto serverRequest(Object message) {
        if (message instanceof AppendEntriesRequestProto m) return m.getServerRequest();
        if (message instanceof RequestVoteRequestProto m) return m.getServerRequest();
        if (message instanceof InstallSnapshotRequestProto m) return m.getServerRequest();
        if (message instanceof StartLeaderElectionRequestProto m) return m.getServerRequest();
        if (message instanceof ReadIndexRequestProto m) return m.getServerRequest();
        return null;
    }

    /** The call, answering nothing while its sender is cut off. */
    private final class FilteredCall<Q, A> extends ForwardingServerCall.SimpleForwardingServerCall<Q, A> {
        /** The sender's host, once a request named it. */
        volatile String peerHost;
        /** Whether a request of this call was dropped. */
        volatile boolean dropped;

        FilteredCall(ServerCall<Q, A> delegate) {
            super(delegate);
        }

        boolean cutOff() {
            String host = peerHost;
            return host != null && faults.isCutOff(host);
        }

        @Override
        public void sendMessage(A message) {
            if (!cutOff()) super.sendMessage(message);
        }

        @Override
        public void close(Status status, Metadata trailers) {
            if (!cutOff()) super.close(status, trailers);
        }
    }

    /** The host of the member that sent a Raft server request, or null for anything else (clients, admin calls). */
    private String senderHost(Object message) {
        RaftRpcRequestProto request = serverRequest(message);
        if (request == null) return null;
        RaftServer s = server.get();
        if (s == null) return null;
        try {
            RaftPeer peer = s.getDivision(RaftGroupId.valueOf(request.getRaftGroupId().getId()))
                    .getRaftConf().getPeer(RaftPeerId.valueOf(request.getRequestorId()));
            if (peer == null) return null;
            String address = peer.getAddress();
            int colon = address.lastIndexOf(':');
            return colon < 0 ? address : address.substring(0, colon);
        } catch (IOException e) {
            return null; // a group this server does not host: nothing to cut
        }
    }
}
