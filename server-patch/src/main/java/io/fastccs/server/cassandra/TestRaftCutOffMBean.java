package io.fastccs.server.cassandra;

/**
 * Test only: the nodes a running node's consensus traffic is cut off from, the writable attribute {@code CutOff} of
 * {@code io.fastccs:type=TestRaftCutOff}, registered only when the node was started with the setting
 * {@code test_raft_cut_off} (the nemesis's leader cut-off sets it on every node of the cut).
 */
public interface TestRaftCutOffMBean {
    /** The addresses cut off now, comma-separated, or {@code none}. */
    String getCutOff();

    /**
     * Drops this node's consensus traffic with the nodes at these listen addresses (comma-separated), both ways, from
     * now on, connections already open included; {@code none} heals. A cut between two nodes is set on both.
     */
    void setCutOff(String addresses);
}
