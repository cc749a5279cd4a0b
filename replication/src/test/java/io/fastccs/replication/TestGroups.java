package io.fastccs.replication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Real Ratis servers over gRPC on loopback subnet 70 (node k on 127.0.70.k), each with its own storage directory, and
 * a recording applier per (node, group).
 */
final class TestGroups implements AutoCloseable {
    static final ReplicaSettings FAST = ReplicaSettings.DEFAULT.withElectionTimeout(Duration.ofMillis(500), Duration.ofMillis(1000));

    final List<GroupMember> nodes = new ArrayList<>();
    final List<GroupSpec> groups = new ArrayList<>();
    final Path root;
    final ReplicaSettings settings;
    final ReplicaServer[] servers;
    /** [node][range] */
    final RecordingApplier[][] appliers;
    /** Each node's own link faults, kept across its restarts, when the settings make them controllable. */
    final LinkFaults[] linkFaults;

    /**
     * {@code nodeCount} nodes; {@code groupCount} groups each over all nodes, group g preferring node g (by priority).
     */
    TestGroups(Path root, int nodeCount, int groupCount, ReplicaSettings settings) throws IOException {
        this.root = root;
        this.settings = settings;
        for (int k = 1; k <= nodeCount; k++) {
            String host = "127.0.70." + k;
            nodes.add(new GroupMember("n" + k, host, freePort(host), 0));
        }
        for (int g = 0; g < groupCount; g++) {
            List<GroupMember> members = new ArrayList<>();
            for (int k = 0; k < nodeCount; k++) {
                GroupMember n = nodes.get(k);
                members.add(new GroupMember(n.nodeId(), n.host(), n.port(), k == g % nodeCount ? 2 : 1));
            }
            groups.add(new GroupSpec(g, members));
        }
        servers = new ReplicaServer[nodeCount];
        appliers = new RecordingApplier[nodeCount][groupCount];
        linkFaults = new LinkFaults[nodeCount];
        for (int k = 0; k < nodeCount; k++)
            linkFaults[k] = settings.linkFaults().isControllable() ? LinkFaults.controllable() : LinkFaults.none();
        for (int k = 0; k < nodeCount; k++) start(k);
    }

    void start(int k) throws IOException {
        Map<GroupSpec, ReplicaApplier> mine = new HashMap<>();
        for (GroupSpec g : groups) {
            appliers[k][g.range()] = new RecordingApplier();
            mine.put(g, appliers[k][g.range()]);
        }
        servers[k] = ReplicaServer.start(nodes.get(k), root.resolve("node" + (k + 1)), settings.withLinkFaults(linkFaults[k]), mine);
    }

    /**
     * Node {@code k} lost its disk: its storage is deleted and it comes back under {@code newId} (same address), each
     * group asked to replace the old member by the new one.
     */
    void replaceWiped(int k, String newId) throws IOException {
        stop(k);
        Path storage = root.resolve("node" + (k + 1));
        deleteTree(storage);
        GroupMember old = nodes.get(k);
        GroupMember fresh = new GroupMember(newId, old.host(), old.port(), old.priority());
        nodes.set(k, fresh);
        List<GroupSpec> updated = new ArrayList<>();
        for (GroupSpec g : groups) {
            List<GroupMember> members = new ArrayList<>();
            for (GroupMember m : g.members())
                members.add(m.nodeId().equals(old.nodeId()) ? new GroupMember(newId, m.host(), m.port(), m.priority()) : m);
            updated.add(new GroupSpec(g.range(), members));
        }
        groups.clear();
        groups.addAll(updated);
        Map<GroupSpec, ReplicaApplier> mine = new HashMap<>();
        for (GroupSpec g : groups) {
            appliers[k][g.range()] = new RecordingApplier();
            mine.put(g, appliers[k][g.range()]);
        }
        servers[k] = ReplicaServer.startReplacing(fresh, old.nodeId(), storage, settings, mine);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    void stop(int k) throws IOException {
        if (servers[k] != null) servers[k].close();
        servers[k] = null;
    }

    ReplicatedLog log(int k, int range) {
        return servers[k].log(range);
    }

    /** The snapshot files node {@code k} keeps for group {@code range} (each with an MD5 file beside it). */
    List<Path> snapshotFiles(int k, int range) {
        Path dir = root.resolve("node" + (k + 1)).resolve("groups").resolve(groups.get(range).groupUuid().toString()).resolve("sm");
        try (var files = Files.list(dir)) {
            List<Path> snapshots = files.filter(f -> f.getFileName().toString().matches("snapshot\\.\\d+_\\d+")).toList();
            for (Path f : snapshots)
                if (!Files.exists(f.resolveSibling(f.getFileName() + ".md5"))) throw new AssertionError("no MD5 file for " + f);
            return snapshots;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Cuts node {@code k}'s consensus traffic off from every other node, both ways; {@link #heal()} undoes it. */
    void cutOff(int k) {
        List<String> others = new ArrayList<>();
        for (int j = 0; j < nodes.size(); j++) {
            if (j == k) continue;
            others.add(nodes.get(j).host());
            linkFaults[j].cutOff(List.of(nodes.get(k).host()));
        }
        linkFaults[k].cutOff(others);
    }

    void heal() {
        for (LinkFaults f : linkFaults) f.cutOff(List.of());
    }

    /** The index of the node leading {@code range} (ready), waiting up to {@code timeout}. */
    int awaitLeader(int range, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (int k = 0; k < servers.length; k++)
                if (servers[k] != null && servers[k].log(range).isLeaderReady()) return k;
            Thread.sleep(50);
        }
        throw new AssertionError("no leader for group " + range + " within " + timeout);
    }

    static void await(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("not within " + timeout + ": " + what);
            Thread.sleep(50);
        }
    }

    private static int freePort(String host) throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
            return s.getLocalPort();
        }
    }

    @Override
    public void close() throws IOException {
        for (int k = 0; k < servers.length; k++) stop(k);
    }
}
