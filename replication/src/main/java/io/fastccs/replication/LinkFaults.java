package io.fastccs.replication;

import java.util.Collection;
import java.util.Set;

/**
 * Test only: the other members this member's consensus traffic is cut off from, both ways, while every other port stays
 * open (the leader-isolation fault, without a firewall). Each member drops what it receives from a cut-off member and
 * what it would answer to one, so a cut between two members is made by naming each on the other. A dropped request is
 * not refused: the sender hears nothing, as behind a firewall that drops packets, and its own timeouts decide.
 *
 * <p>{@link #none()} in production: the consensus transport then installs no filter at all and checks nothing.
 */
public final class LinkFaults {
    private static final LinkFaults NONE = new LinkFaults(false);

    private final boolean controllable;
    private volatile Set<String> cutOff = Set.of();

    private LinkFaults(boolean controllable) {
        this.controllable = controllable;
    }

    /** No faults, and no way to make any: what a production node runs with. */
    public static LinkFaults none() {
        return NONE;
    }

    /** Faults that may be switched on and off while the member runs, none to begin with. */
    public static LinkFaults controllable() {
        return new LinkFaults(true);
    }

    public boolean isControllable() {
        return controllable;
    }

    /** Cuts this member off from the members at {@code hosts} (their consensus addresses' hosts); empty heals. */
    public void cutOff(Collection<String> hosts) {
        if (!controllable) throw new IllegalStateException("this member was started without controllable link faults");
        cutOff = Set.copyOf(hosts);
    }

    /** The hosts cut off now. */
    public Set<String> cutOff() {
        return cutOff;
    }

    /** Whether traffic with the member at {@code host} is dropped now. */
    public boolean isCutOff(String host) {
        return cutOff.contains(host);
    }
}
