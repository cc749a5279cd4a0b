package io.fastccs.tools.nemesis;

import io.fastccs.tools.cluster.Ports;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The leader cut-off's firewall with real iptables rules and a real cgroup on loopback (127.0.97.k, a subnet no
 * cluster uses). This test JVM plays the cut node (its client sockets unbound, so they come from 127.0.0.1 as gRPC's
 * do) and a child JVM another node. A connection open before the cut stops carrying data, new ones from the cut node
 * to the others' Raft port and from anyone to the cut node's fail, the other node still reaches the third's Raft port
 * and the cut node other ports; healing removes exactly the rules added and restores the cgroup, after which the
 * held-back bytes arrive. Skipped where iptables or cgroup v2 cannot be used (not root, package missing).
 */
class RaftPortFirewallTest {
    private static final Ports PORTS = Ports.forSubnet(97);
    private final List<String> log = new ArrayList<>();

    @Test
    void cutsOpenAndNewFlowsOfTheCutNodeOnlyAndHealsExactly() throws Exception {
        var why = RaftPortFirewall.unusableReason();
        assumeTrue(why.isEmpty(), () -> "not usable here: " + why.orElse(""));
        long self = ProcessHandle.current().pid();
        String cgroupBefore = Files.readString(Path.of("/proc/self/cgroup"));
        try (ServerSocket raft2 = listen(2, 0); ServerSocket raft1 = listen(1, raft2.getLocalPort());
             ServerSocket other2 = listen(2, 0); OtherNode otherNode = new OtherNode();
             Socket open = connect(raft2); Socket accepted = raft2.accept()) {
            int port = raft2.getLocalPort();
            accepted.setSoTimeout(1_000);
            open.getOutputStream().write('a');
            assertThat(accepted.getInputStream().read()).isEqualTo('a');

            try (RaftPortFirewall firewall = new RaftPortFirewall(PORTS, port, log::add)) {
                firewall.cutOff(1, self, List.of(2));
                assertThat(rules()).hasSizeGreaterThanOrEqualTo(5); // cut node's server both ways, cgroup, open flow both ways
                open.getOutputStream().write('b');
                InputStream in = accepted.getInputStream();
                assertThatThrownBy(in::read).as("a connection opened before the cut carries nothing")
                        .isInstanceOf(SocketTimeoutException.class);
                assertThatThrownBy(() -> connect(raft2).close()).as("a new connection of the cut node to another's Raft port")
                        .isInstanceOf(IOException.class);
                assertThat(otherNode.canConnect(PORTS.address(1), port)).as("another node to the cut node's Raft port").isFalse();
                assertThat(otherNode.canConnect(PORTS.address(2), port)).as("another node still reaches a third's Raft port").isTrue();
                try (Socket otherPort = connect(other2)) {
                    assertThat(otherPort.isConnected()).as("the cut node still reaches other ports").isTrue();
                }
                firewall.heal();
                assertThat(rules()).as("healed: no rule of ours left").isEmpty();
                assertThat(Files.readString(Path.of("/proc/self/cgroup"))).as("back in its cgroup").isEqualTo(cgroupBefore);
                accepted.setSoTimeout(15_000);
                assertThat(in.read()).as("the held-back byte arrives once healed (TCP retransmits)").isEqualTo('b');
                assertThat(otherNode.canConnect(PORTS.address(1), port)).as("healed: the cut node's Raft port again").isTrue();
            }
        }
        assertThat(log).as("nothing went wrong on the way").isEmpty();
    }

    @Test
    void aRunThatDiedBeforeHealingLeavesRulesTheNextRunRemoves() throws Exception {
        var why = RaftPortFirewall.unusableReason();
        assumeTrue(why.isEmpty(), () -> "not usable here: " + why.orElse(""));
        try (OtherNode victim = new OtherNode()) {
            RaftPortFirewall died = new RaftPortFirewall(PORTS, 9, log::add);
            died.cutOff(2, victim.pid(), List.of(1, 3));
            assertThat(rules()).hasSize(4);
            new RaftPortFirewall(PORTS, 9, log::add).removeLeftovers();
            assertThat(rules()).isEmpty();
            assertThat(log).hasSize(5).anyMatch(l -> l.contains("removed the cgroup an earlier run left"))
                    .filteredOn(l -> l.contains("removed a rule an earlier run left")).hasSize(4);
            assertThat(Files.readString(Path.of("/proc/" + victim.pid() + "/cgroup"))).doesNotContain("fastccs-nemesis");
        }
    }

    private static ServerSocket listen(int node, int port) throws IOException {
        ServerSocket s = new ServerSocket();
        s.bind(new InetSocketAddress(PORTS.address(node), port));
        return s;
    }

    /** Unbound, as gRPC connects: on loopback the kernel picks 127.0.0.1 as the source. */
    private static Socket connect(ServerSocket to) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(to.getLocalSocketAddress(), 1_000);
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** Our rules for this subnet now, in INPUT and OUTPUT. */
    private static List<String> rules() throws Exception {
        List<String> out = new ArrayList<>();
        for (String chain : List.of("INPUT", "OUTPUT")) {
            Process p = new ProcessBuilder("iptables", "-w", "10", "-S", chain).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            text.lines().filter(l -> l.replace("\"", "").contains("--comment fastccs-nemesis-raft-cut-127.0.97 ")).forEach(out::add);
        }
        return out;
    }

    /** Another node's process: a child JVM that connects where it is told, outside the cut node's cgroup. */
    private static final class OtherNode implements AutoCloseable {
        private final Process process;
        private final PrintWriter commands;
        private final BufferedReader answers;

        OtherNode() throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Connector.class.getName()).start();
            commands = new PrintWriter(process.getOutputStream(), true);
            answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        long pid() {
            return process.pid();
        }

        boolean canConnect(String host, int port) throws IOException {
            commands.println(host + " " + port);
            String answer = answers.readLine();
            if (answer == null) throw new IOException("the other node's process ended");
            return answer.equals("ok");
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    /** The child JVM's main: one "HOST PORT" per line, answers "ok" or "failed". */
    public static final class Connector {
        public static void main(String[] args) throws IOException {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                String[] f = line.trim().split(" ");
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(f[0], Integer.parseInt(f[1])), 1_000);
                    System.out.println("ok");
                } catch (IOException e) {
                    System.out.println("failed");
                }
                System.out.flush();
            }
        }
    }
}
