package io.fastccs.tools.nemesis;

import io.fastccs.tools.cluster.Ports;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Cuts a node off from the other nodes on the Raft port with iptables, both ways, while every other port (FastCCS,
 * CQL, storage) stays open: the leader-isolation fault. Rules go first in the INPUT chain (loopback traffic passes
 * INPUT too), match every packet of the flow, so connections already open are cut as well, and carry a comment naming
 * the cluster's subnet; they are removed one by one, exactly as added (never a flush: other rules may be there), when
 * healed, on {@link #close()}, and by a shutdown hook if the JVM stops (Ctrl-C) while a cut is in place.
 */
public final class RaftPortFirewall implements AutoCloseable {
    private final Ports ports;
    private final int raftPort;
    private final Consumer<String> log;
    private final String comment;
    private final List<List<String>> installed = new ArrayList<>();
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
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("iptables cannot be run (" + e.getMessage() + "; Debian package iptables)");
        }
    }

    /** Removes rules of this subnet that an earlier run left behind (it was killed before it could heal). */
    public synchronized void removeLeftovers() {
        try {
            Result listing = iptables(List.of("-S", "INPUT"));
            for (String line : listing.output.split("\n")) {
                // iptables-nft lists the comment in quotes, iptables-legacy without; ours has no spaces.
                String unquoted = line.replace("\"", "");
                if (!unquoted.startsWith("-A INPUT ") || !unquoted.contains("--comment " + comment + " ")) continue;
                List<String> rule = new ArrayList<>(List.of(unquoted.substring("-A INPUT ".length()).trim().split("\\s+")));
                Result r = iptables(concat(List.of("-D", "INPUT"), rule));
                log.accept("firewall: removed a rule an earlier run left (" + line + ")" + (r.exit == 0 ? "" : ": " + r.output.trim()));
            }
        } catch (IOException e) {
            log.accept("firewall: could not list INPUT rules: " + e.getMessage());
        }
    }

    /** Drops Raft traffic between {@code node} and each of {@code others}, both ways, until {@link #heal()}. */
    public synchronized void cutOff(int node, List<Integer> others) {
        if (hook == null) {
            hook = new Thread(this::heal, "nemesis-raft-firewall-heal");
            Runtime.getRuntime().addShutdownHook(hook);
        }
        for (int other : others) {
            add(rule(ports.address(node), ports.address(other)));
            add(rule(ports.address(other), ports.address(node)));
        }
    }

    /** Removes every rule this firewall added. */
    public synchronized void heal() {
        for (int i = installed.size() - 1; i >= 0; i--) {
            List<String> rule = installed.get(i);
            try {
                Result r = iptables(concat(List.of("-D", "INPUT"), rule));
                if (r.exit != 0) log.accept("firewall: could not remove " + String.join(" ", rule) + ": " + r.output.trim());
            } catch (IOException e) {
                log.accept("firewall: could not remove " + String.join(" ", rule) + ": " + e.getMessage());
            }
        }
        installed.clear();
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

    private List<String> rule(String from, String to) {
        return List.of("-s", from + "/32", "-d", to + "/32", "-p", "tcp", "-m", "tcp", "--dport", Integer.toString(raftPort),
                "-m", "comment", "--comment", comment, "-j", "DROP");
    }

    private void add(List<String> rule) {
        try {
            Result r = iptables(concat(List.of("-I", "INPUT", "1"), rule));
            if (r.exit != 0) throw new IllegalStateException("iptables refused " + String.join(" ", rule) + ": " + r.output.trim());
            installed.add(rule);
        } catch (IOException e) {
            throw new IllegalStateException("iptables failed: " + e.getMessage(), e);
        }
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
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (InputStream in = p.getInputStream()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("iptables " + String.join(" ", args) + " did not finish in 30 s");
            }
            return new Result(p.exitValue(), out.toString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running iptables", e);
        }
    }
}
