package io.fastccs.tools.nemesis;

import io.fastccs.tools.cluster.Ports;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Cuts a node off from the others on the consensus port, both ways, while every other port (FastCCS, CQL, storage)
 * stays open: the leader-isolation fault. Each node of the cut is told over JMX whom to drop
 * ({@code io.fastccs:type=TestRaftCutOff}, open only on nodes started with the test-only setting
 * {@code test_raft_cut_off}); the node's consensus transport then drops what it receives from them and what it would
 * answer them, connections already open included. Nothing of the machine's is touched (no firewall, no root), and a
 * node restarted during a cut comes back healed (its setting says {@code none}).
 */
public final class RaftCutOffs implements AutoCloseable {
    /** The node setting that opens the control; the nemesis starts its clusters with it at {@code none}. */
    public static final String SETTING = "test_raft_cut_off";

    private final Ports ports;
    private final NodeJmx jmx;
    private final Consumer<String> log;
    /** The nodes told to drop someone, to heal. */
    private final Set<Integer> touched = new LinkedHashSet<>();

    public RaftCutOffs(Ports ports, Consumer<String> log) {
        this.ports = ports;
        this.jmx = new NodeJmx(ports, "io.fastccs:type=TestRaftCutOff", "CutOff", SETTING, "none",
                "test consensus cut-off control", "consensus cut-off");
        this.log = log;
    }

    /** Empty if {@code node} offers the control; else why not. */
    public Optional<String> unusableReason(int node) {
        return jmx.unusableReason(node);
    }

    /** What {@code node} drops now, as it reports it ({@code none}, or addresses). */
    public String cutOffAt(int node) {
        return jmx.get(node);
    }

    /** Drops consensus traffic between {@code node} and each of {@code others}, both ways, until {@link #heal()}. */
    public synchronized void cutOff(int node, List<Integer> others) {
        List<String> addresses = new ArrayList<>();
        for (int other : others) {
            addresses.add(ports.address(other));
            touched.add(other);
            jmx.set(other, ports.address(node));
        }
        touched.add(node);
        jmx.set(node, String.join(",", addresses));
    }

    /** Every node this has cut heals; a node that does not answer (killed meanwhile) is named and skipped. */
    public synchronized void heal() {
        for (int node : touched) {
            try {
                jmx.set(node, "none");
            } catch (IllegalStateException e) {
                log.accept("raft cut-off: could not heal node " + node + " (a restart heals it): " + e.getMessage());
            }
        }
        touched.clear();
    }

    @Override
    public void close() {
        heal();
    }
}
