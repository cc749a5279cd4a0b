package io.fastccs.tools.nemesis;

import io.fastccs.tools.cluster.Ports;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The leader cut-off's firewall with real iptables rules on loopback (127.0.97.k, a subnet no cluster uses): a
 * connection open before the cut stops carrying data, new ones to the cut port fail, other nodes and other ports are
 * untouched, and healing removes exactly the rules added, after which the held-back bytes arrive. Skipped where
 * iptables cannot be used (not root, or the Debian package iptables missing).
 */
class RaftPortFirewallTest {
    private static final Ports PORTS = Ports.forSubnet(97);
    private final List<String> log = new ArrayList<>();

    @Test
    void cutsOpenAndNewFlowsOnThatPortOnlyAndHealsExactly() throws Exception {
        var why = RaftPortFirewall.unusableReason();
        assumeTrue(why.isEmpty(), () -> "iptables not usable here: " + why.orElse(""));
        try (ServerSocket raft = listen(2); ServerSocket other = listen(2);
             Socket open = connect(1, raft); Socket accepted = raft.accept()) {
            accepted.setSoTimeout(1_000);
            open.getOutputStream().write('a');
            assertThat(accepted.getInputStream().read()).isEqualTo('a');

            try (RaftPortFirewall firewall = new RaftPortFirewall(PORTS, raft.getLocalPort(), log::add)) {
                firewall.cutOff(1, List.of(2));
                assertThat(rules()).hasSize(2);
                open.getOutputStream().write('b');
                InputStream in = accepted.getInputStream();
                assertThatThrownBy(in::read).as("a connection opened before the cut carries nothing")
                        .isInstanceOf(SocketTimeoutException.class);
                assertThatThrownBy(() -> connect(1, raft).close()).as("a new connection to the cut port")
                        .isInstanceOf(IOException.class);
                try (Socket fromThird = connect(3, raft); Socket otherPort = connect(1, other)) {
                    assertThat(fromThird.isConnected()).as("a node not cut off still reaches the port").isTrue();
                    assertThat(otherPort.isConnected()).as("the cut-off node still reaches other ports").isTrue();
                }
                firewall.heal();
                assertThat(rules()).as("healed: no rule of ours left").isEmpty();
                accepted.setSoTimeout(15_000);
                assertThat(in.read()).as("the held-back byte arrives once healed (TCP retransmits)").isEqualTo('b');
            }
        }
        assertThat(log).as("nothing went wrong on the way").isEmpty();
    }

    @Test
    void aRunThatDiedBeforeHealingLeavesRulesTheNextRunRemoves() throws Exception {
        var why = RaftPortFirewall.unusableReason();
        assumeTrue(why.isEmpty(), () -> "iptables not usable here: " + why.orElse(""));
        RaftPortFirewall died = new RaftPortFirewall(PORTS, 9, log::add);
        died.cutOff(2, List.of(1, 3));
        try {
            assertThat(rules()).hasSize(4);
            new RaftPortFirewall(PORTS, 9, log::add).removeLeftovers();
            assertThat(rules()).isEmpty();
            assertThat(log).hasSize(4).allMatch(l -> l.contains("removed a rule an earlier run left"));
        } finally {
            died.close(); // its own rules are gone already: says so, harmlessly
        }
    }

    private static ServerSocket listen(int node) throws IOException {
        ServerSocket s = new ServerSocket();
        s.bind(new InetSocketAddress(PORTS.address(node), 0));
        return s;
    }

    private static Socket connect(int fromNode, ServerSocket to) throws IOException {
        Socket s = new Socket();
        try {
            s.bind(new InetSocketAddress(InetAddress.getByName(PORTS.address(fromNode)), 0));
            s.connect(new InetSocketAddress(PORTS.address(2), to.getLocalPort()), 1_000);
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** Our rules for this subnet now in the INPUT chain. */
    private static List<String> rules() throws Exception {
        Process p = new ProcessBuilder("iptables", "-w", "10", "-S", "INPUT").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out.lines().filter(l -> l.replace("\"", "").contains("--comment fastccs-nemesis-raft-cut-127.0.97 ")).toList();
    }
}
