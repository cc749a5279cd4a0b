package io.fastccs.server.node;

import io.fastccs.core.api.ClientReply;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.messages.RingReply;

/** What the transport hands to the node: the node's whole surface towards the FastCCS port. Any thread. */
public interface InboundHandler {
    /** A client request arrived; {@code reply} sends the answer on its connection. */
    void onClientRequest(ClientReply reply, ClientRequest request);

    /** A peer message arrived on a connection that identified itself as partition {@code from}. */
    void onPeerMessage(int from, PeerMessage message);

    /** The answer to a ring request. */
    RingReply ring(long requestId);
}
