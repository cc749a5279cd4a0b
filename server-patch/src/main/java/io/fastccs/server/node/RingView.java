package io.fastccs.server.node;

import io.fastccs.core.api.Topology;
import io.fastccs.core.messages.RingMember;

import java.net.InetAddress;
import java.util.List;

/** What a node knows of the ring: who it is, every partition's FastCCS address and token, and key ownership. */
public interface RingView {
    /** This node's partition index. */
    int self();

    /** Every partition, by index (which is also token order). */
    List<RingMember> members();

    /** Key ownership, consistent with {@link #members()}' tokens. */
    Topology topology();

    default int partitions() {
        return members().size();
    }

    /** Whether a connection from {@code address} may speak for partition {@code partition} (a ring member's address). */
    boolean mayActAs(InetAddress address, int partition);
}
