package io.fastccs.tools.nemesis;

import io.fastccs.tools.cluster.Ports;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Cuts a node off from the other nodes on the Raft port with iptables, both ways, while every other port (FastCCS,
 * CQL, storage) stays open: the leader-isolation fault.
 *
 * <p>Addresses alone cannot say which node a Raft connection comes from: gRPC does not bind its client side, so on
 * loopback every node connects from 127.0.0.1 (the kernel's source for 127.0.0.0/8), and a deployment's nodes might
 * share an address too. What is addressable is dropped by address: everything to and from the cut node's own Raft
 * server. The cut node's client connections to the others' Raft servers are found by process: the connections open at
 * the cut from its sockets (read from /proc), dropped by their exact ports, and new ones by the process's cgroup (it
 * is moved into a cgroup v2 of its own for the cut; sockets it opens then carry that cgroup). Rules go first in their
 * chains and match every packet of a flow, so connections already open are cut too; each carries a comment naming the
 * cluster's subnet, and each is removed exactly as added (never a flush: other rules may be there) when healed, on
 * {@link #close()}, by a shutdown hook if the JVM stops (Ctrl-C) while a cut is in place, and at the next start
 * ({@link #removeLeftovers()}) if the run was killed.
 */
public final class RaftPortFirewall implements AutoCloseable {
    private final Ports ports;
    private final int raftPort;
    private final Consumer<String> log;
    private final String comment;
    /** Rules in place, as (chain, rule spec). */
    private final List<Map.Entry<String, List<String>>> installed = new ArrayList<>();
    /** The cut node's pid and the cgroup it came from, to put it back; 0 while none is moved. */
    private long movedPid;
    private String originalCgroup;
    private Thread hook;

    public RaftPortFirewall(Ports ports, int raftPort, Consumer<String> log) {
        this.ports = ports;
        this.raftPort = raftPort;
        this.log = log;
        this.comment = "fastccs-nemesis-raft-cut-127.0." + ports.subnet();
    }

    /** Empty if iptables can list and change the INPUT chain here; else why not, in a few words. */
    public static Optional<String> unusableReason() {
        try {
            Result r = iptables(List.of("-S", "INPUT"));
            if (r.exit != 0) return Optional.of("iptables -S INPUT failed (exit " + r.exit + "): " + r.output.trim()
                    + (r.output.contains("ermission") ? " (needs root)" : ""));
            Optional<Path> root = cgroupRoot();
            if (root.isEmpty()) return Optional.of("no cgroup v2 hierarchy mounted (the cut finds the node's new connections by cgroup)");
            Path probe = root.get().resolve("fastccs-nemesis-probe-" + ProcessHandle.current().pid());
            try {
                Files.createDirectory(probe);
                Files.delete(probe);
            } catch (IOException e) {
                return Optional.of("cannot make a cgroup under " + root.get() + " (" + e + ")");
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("iptables cannot be run (" + e.getMessage() + "; Debian package iptables)");
        }
    }

    /** Removes rules of this subnet that an earlier run left behind (it was killed before it could heal). */
    public synchronized void removeLeftovers() {
        for (String chain : List.of("INPUT", "OUTPUT")) {
            try {
                Result listing = iptables(List.of("-S", chain));
                for (String line : listing.output.split("\n")) {
                    // iptables-nft lists the comment in quotes, iptables-legacy without; ours has no spaces.
                    String unquoted = line.replace("\"", "");
                    String prefix = "-A " + chain + " ";
                    if (!unquoted.startsWith(prefix) || !unquoted.contains("--comment " + comment + " ")) continue;
                    List<String> rule = List.of(unquoted.substring(prefix.length()).trim().split("\\s+"));
                    Result r = iptables(concat(List.of("-D", chain), rule));
                    log.accept("firewall: removed a rule an earlier run left (" + line + ")" + (r.exit == 0 ? "" : ": " + r.output.trim()));
                }
            } catch (IOException e) {
                log.accept("firewall: could not list " + chain + " rules: " + e.getMessage());
            }
        }
        Optional<Path> root = cgroupRoot();
        Path own = root.map(r -> r.resolve(cgroupName())).orElse(null);
        if (own != null && Files.isDirectory(own)) {
            try {
                for (String pid : Files.readAllLines(own.resolve("cgroup.procs")))
                    if (!pid.isBlank()) Files.writeString(root.get().resolve("cgroup.procs"), pid.trim());
                Files.delete(own);
                log.accept("firewall: removed the cgroup an earlier run left (" + own + ")");
            } catch (IOException e) {
                log.accept("firewall: could not remove the cgroup an earlier run left (" + own + "): " + e);
            }
        }
    }

    /**
     * Drops Raft traffic between {@code node} (process {@code pid}) and each of {@code others}, both ways, until
     * {@link #heal()}.
     */
    public synchronized void cutOff(int node, long pid, List<Integer> others) {
        if (hook == null) {
            hook = new Thread(this::heal, "nemesis-raft-firewall-heal");
            Runtime.getRuntime().addShutdownHook(hook);
        }
        String port = Integer.toString(raftPort);
        String self = ports.address(node) + "/32";
        List<Map.Entry<String, List<String>>> rules = new ArrayList<>();
        // The cut node's Raft server: nothing in, nothing out.
        rules.add(drop("INPUT", List.of("-d", self, "-p", "tcp", "-m", "tcp", "--dport", port)));
        rules.add(drop("INPUT", List.of("-s", self, "-p", "tcp", "-m", "tcp", "--sport", port)));
        // Its client side: sockets opened from now on carry the cgroup, those opened before are listed after the move.
        String cgroup = moveToOwnCgroup(node, pid);
        for (int other : others)
            rules.add(drop("OUTPUT", List.of("-m", "cgroup", "--path", cgroup, "-d", ports.address(other) + "/32", "-p", "tcp",
                    "-m", "tcp", "--dport", port)));
        List<String> targets = others.stream().map(ports::address).toList();
        for (OpenConnection c : OpenConnection.of(pid)) {
            if (c.remotePort() != raftPort || !targets.contains(c.remoteAddress())) continue;
            rules.add(drop("INPUT", List.of("-s", c.localAddress() + "/32", "-d", c.remoteAddress() + "/32", "-p", "tcp", "-m", "tcp",
                    "--sport", Integer.toString(c.localPort()), "--dport", port)));
            rules.add(drop("INPUT", List.of("-s", c.remoteAddress() + "/32", "-d", c.localAddress() + "/32", "-p", "tcp", "-m", "tcp",
                    "--sport", port, "--dport", Integer.toString(c.localPort()))));
        }
        addAtOnce(rules);
    }

    /** Removes every rule this firewall added and puts the cut process back into its cgroup. */
    public synchronized void heal() {
        for (int i = installed.size() - 1; i >= 0; i--) {
            var rule = installed.get(i);
            try {
                Result r = iptables(concat(List.of("-D", rule.getKey()), rule.getValue()));
                if (r.exit != 0) log.accept("firewall: could not remove " + String.join(" ", rule.getValue()) + ": " + r.output.trim());
            } catch (IOException e) {
                log.accept("firewall: could not remove " + String.join(" ", rule.getValue()) + ": " + e.getMessage());
            }
        }
        installed.clear();
        if (movedPid != 0) {
            Path root = cgroupRoot().orElseThrow();
            Path own = root.resolve(cgroupName());
            try {
                if (ProcessHandle.of(movedPid).isPresent())
                    Files.writeString(root.resolve(originalCgroup.substring(1)).resolve("cgroup.procs"), Long.toString(movedPid));
                Files.deleteIfExists(own);
            } catch (IOException e) {
                log.accept("firewall: could not put pid " + movedPid + " back into cgroup " + originalCgroup + ": " + e);
            }
            movedPid = 0;
        }
    }

    @Override
    public synchronized void close() {
        heal();
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // the JVM is shutting down: the hook heals
            }
            hook = null;
        }
    }

    /** A rule dropping what {@code match} matches, with our comment, for {@code chain}. */
    private Map.Entry<String, List<String>> drop(String chain, List<String> match) {
        return Map.entry(chain, concat(match, List.of("-m", "comment", "--comment", comment, "-j", "DROP")));
    }

    /**
     * Inserts the rules first in their chains in one iptables-restore transaction (keeping every other rule): one call
     * per rule took most of a second, during which a half-cut leader still committed.
     */
    private void addAtOnce(List<Map.Entry<String, List<String>>> rules) {
        StringBuilder script = new StringBuilder("*filter\n");
        for (var rule : rules) script.append("-I ").append(rule.getKey()).append(" 1 ").append(String.join(" ", rule.getValue())).append('\n');
        script.append("COMMIT\n");
        try {
            Result r = run(List.of("iptables-restore", "-w", "10", "--noflush"), script.toString());
            if (r.exit != 0) throw new IllegalStateException("iptables-restore refused the rules (" + r.output.trim() + "):\n" + script);
            installed.addAll(rules);
        } catch (IOException e) {
            throw new IllegalStateException("iptables-restore failed: " + e.getMessage(), e);
        }
    }

    private String cgroupName() {
        return comment; // one per cluster subnet: one cut at a time
    }

    /** Moves {@code pid} into a cgroup v2 of its own (named for the subnet); returns its path for iptables. */
    private String moveToOwnCgroup(int node, long pid) {
        Path root = cgroupRoot().orElseThrow(() -> new IllegalStateException("no cgroup v2 hierarchy mounted"));
        try {
            String current = Files.readAllLines(Path.of("/proc/" + pid + "/cgroup")).stream().filter(l -> l.startsWith("0::"))
                    .map(l -> l.substring(3)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("pid " + pid + " of node " + node + " has no cgroup v2 entry"));
            Path own = root.resolve(cgroupName());
            if (!Files.isDirectory(own)) Files.createDirectory(own);
            Files.writeString(own.resolve("cgroup.procs"), Long.toString(pid));
            movedPid = pid;
            originalCgroup = current;
            return cgroupName();
        } catch (IOException e) {
            throw new IllegalStateException("could not move node " + node + " (pid " + pid + ") into a cgroup of its own: " + e, e);
        }
    }

    /** Where the cgroup v2 hierarchy is mounted (/sys/fs/cgroup, or /sys/fs/cgroup/unified beside v1). */
    static Optional<Path> cgroupRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
                String[] f = line.split(" ");
                if (f.length > 2 && f[2].equals("cgroup2")) return Optional.of(Path.of(f[1]));
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private record Result(int exit, String output) {
    }

    /** Runs iptables, waiting for the xtables lock (-w) since other tools may change rules at the same time. */
    private static Result iptables(List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of("iptables", "-w", "10"));
        command.addAll(args);
        return run(command, null);
    }

    private static Result run(List<String> command, String input) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (InputStream in = p.getInputStream()) {
            if (input != null) p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish in 30 s");
            }
            return new Result(p.exitValue(), out.toString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command.get(0), e);
        }
    }
}
