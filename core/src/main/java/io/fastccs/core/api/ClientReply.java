package io.fastccs.core.api;

import io.fastccs.core.messages.ClientResponse;

/**
 * Where the answer to one client request goes (a connection, a simulated client). The same durability rule as
 * {@link PeerSink} applies. A partition may answer long after the request, or never if it restarts meanwhile.
 */
@FunctionalInterface
public interface ClientReply {
    void reply(ClientResponse response);
}
