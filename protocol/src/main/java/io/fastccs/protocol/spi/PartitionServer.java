package io.fastccs.protocol.spi;

import io.fastccs.protocol.api.ClientReply;
import io.fastccs.protocol.messages.ClientRequest;
import io.fastccs.protocol.messages.PeerMessage;

/**
 * One partition's state machine, whatever the protocol: a host (a node, the simulator) delivers client requests, peer
 * messages and ticks, one at a time on one thread. What it sends goes through the {@link io.fastccs.protocol.api.PeerSink}
 * and the {@link ClientReply} it was given; it reads time only from its {@link io.fastccs.protocol.api.TimeSource}.
 */
public interface PartitionServer {
    /** This partition's index. */
    int self();

    /**
     * A request of a client of this protocol. Requests of another protocol never arrive: hosts check the protocol when
     * a connection starts, and a partition may throw on one.
     */
    void onClientRequest(ClientReply reply, ClientRequest request);

    void onPeerMessage(int from, PeerMessage message);

    /** Periodic work (stabilization, timeouts, applying, GC); hosts call it every few milliseconds. */
    void tick();
}
