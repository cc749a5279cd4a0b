package io.fastccs.core.spi;

import io.fastccs.core.api.ClientReply;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.PeerMessage;

/**
 * One partition's state machine, whatever the protocol: a host (a node, the simulator) delivers client requests, peer
 * messages and ticks, one at a time on one thread. What it sends goes through the {@link io.fastccs.core.api.PeerSink}
 * and the {@link ClientReply} it was given; it reads time only from its {@link io.fastccs.core.api.TimeSource}.
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

    /**
     * Writes this partition accepted and has not settled yet; once every client stopped and every message arrived, a
     * correct partition has none. 0 for protocols that do not track them.
     */
    default int unsettledCount() {
        return 0;
    }

    /**
     * Requests whose client claimed to have seen more of this partition than it settled: an honest client never sends
     * one, so a count above 0 means a buggy or hostile client. 0 for protocols that do not check.
     */
    default long clientClocksAhead() {
        return 0;
    }

    /** A few words on the partition's state for a diagnosis (pending work, its snapshot), or nothing. */
    default String describeState() {
        return "";
    }
}
