package io.fastccs.server.groups;

import io.fastccs.core.api.Topology;
import io.fastccs.core.messages.RingMember;
import io.fastccs.server.node.RingView;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The ring as one group's host sees it: itself as partition {@code self}, and every partition at the address of the
 * node that leads its group now (the preferred one while no leader is known), with all its replicas listed.
 */
final class GroupRing implements RingView {
    private final RingView nodes;
    private final GroupLayout layout;
    private final int self;
    /** partition -> the node (by token rank) leading its group now, or the preferred node if unknown. */
    private final IntUnaryOperator leaderOf;

    GroupRing(RingView nodes, GroupLayout layout, int self, IntUnaryOperator leaderOf) {
        this.nodes = nodes;
        this.layout = layout;
        this.self = self;
        this.leaderOf = leaderOf;
    }

    @Override
    public int self() {
        return self;
    }

    @Override
    public List<RingMember> members() {
        List<RingMember> byNode = nodes.members();
        List<RingMember> out = new ArrayList<>(byNode.size());
        for (int p = 0; p < byNode.size(); p++) {
            RingMember leader = byNode.get(leaderOf.applyAsInt(p));
            List<String> replicas = new ArrayList<>(layout.replicationFactor());
            for (int node : layout.members(p)) replicas.add(byNode.get(node).host() + ":" + byNode.get(node).port());
            out.add(new RingMember(p, leader.host(), leader.port(), byNode.get(p).token(), leader.alive(), replicas));
        }
        return out;
    }

    @Override
    public Topology topology() {
        return nodes.topology();
    }

    @Override
    public int partitions() {
        return nodes.partitions();
    }

    /** Any member of the partition's group may lead it, so any of them may speak for it. */
    @Override
    public boolean mayActAs(InetAddress address, int partition) {
        if (partition < 0 || partition >= nodes.partitions()) return false;
        for (int node : layout.members(partition)) if (nodes.mayActAs(address, node)) return true;
        return false;
    }
}
