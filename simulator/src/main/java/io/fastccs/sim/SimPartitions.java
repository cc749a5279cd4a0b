package io.fastccs.sim;

import io.fastccs.protocol.ClockCompaction;
import io.fastccs.protocol.partition.Partition;
import io.fastccs.protocol.api.ClientReply;
import io.fastccs.protocol.api.PeerSink;
import io.fastccs.protocol.api.TimeSource;
import io.fastccs.protocol.api.Topology;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.protocol.messages.ClientRequest;
import io.fastccs.protocol.messages.ClientResponse;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.PeerMessage;
import io.fastccs.protocol.protocols.FastCcsProtocol;
import io.fastccs.protocol.spi.PartitionServer;
import io.fastccs.protocol.primitives.Protocol;
import io.fastccs.protocol.spi.ProtocolFactory;

import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The partitions as processes: each runs a real {@link Partition} on a store that survives it, ticks, crashes
 * (volatile state and in-flight connections gone) and restarts from its store. Partition p is network node p. The
 * other protocols' partitions ({@link ProtocolFactory}) run the same way, without stores, crashes or replica groups:
 * they keep their state in memory.
 */
final class SimPartitions {
    private final SimConfig cfg;
    private final Topology topology;
    private final EventQueue events;
    private final SimNetwork network;
    private final SplittableRandom random;
    /** Each partition's clock: true time, or ahead of it by the partition's offset when the run has clock skew. */
    private final TimeSource[] clocks;
    private final SimStats stats;
    private final InMemoryPartitionStore[] stores;
    private final ProtocolFactory protocol;
    private final PartitionServer[] partitions;
    private final int[] epochs;
    /** Per partition, the settled prefix its host last took note of (see noteSettled). */
    private final long[] settledSeen;
    private final boolean[] down;
    /** Each partition's replica group, or null: one process per partition with a store of its own. */
    private ReplicaGroup[] groups;
    /** Per partition, a deposed leader still running, cut off from its group and not knowing it; or null. */
    private Zombie[] zombies;
    private SplittableRandom groupRandom;
    /** Round ones the host holds back, or null (then nothing is drawn and runs are as before). */
    private HeldBackReads heldBack;
    private BooleanSupplier faultsActive;

    private record Zombie(Partition partition, ReplicaGroup.Term term) {
    }

    /** While faults run, a client that reaches a deposed leader instead of the new one (its leader cache is stale). */
    private static final double STALE_ROUTING = 0.3;

    SimPartitions(SimConfig cfg, ProtocolFactory protocol, Topology topology, EventQueue events, SimNetwork network,
                  SplittableRandom random, SimStats stats) {
        this.protocol = protocol;
        this.cfg = cfg;
        this.topology = topology;
        this.events = events;
        this.network = network;
        this.random = random;
        this.stats = stats;
        int n = cfg.partitions();
        this.stores = new InMemoryPartitionStore[n];
        this.partitions = new PartitionServer[n];
        this.epochs = new int[n];
        this.settledSeen = new long[n];
        this.down = new boolean[n];
        this.clocks = new TimeSource[n];
        for (int p = 0; p < n; p++) {
            long offset = cfg.maxClockSkewMicros() == 0 ? 0 : random.nextLong(cfg.maxClockSkewMicros() + 1);
            clocks[p] = offset == 0 ? events::now : () -> events.now() + offset;
        }
    }

    /**
     * Makes every partition a replica group (call before {@link #startAll()}). With partition crashes in the fault mix,
     * leaders are also cut off from their followers at the same rate, and the followers elect another.
     */
    void replicate(ReplicaGroup.Settings settings, BooleanSupplier faultsActive) {
        requireFastCcs("replica groups", ", which keeps its partitions' state in memory (no store to replicate)");
        groups = new ReplicaGroup[partitions.length];
        zombies = new Zombie[partitions.length];
        groupRandom = settings.random();
        this.faultsActive = faultsActive;
        for (int p = 0; p < groups.length; p++) groups[p] = new ReplicaGroup(events, settings, cfg.meanDelayMicros());
    }

    void startAll() {
        for (int p = 0; p < partitions.length; p++) {
            stores[p] = groups == null ? new InMemoryPartitionStore() : groups[p].committed();
            start(p);
        }
        if (groups != null && cfg.faults().partitionCrashesPerSecond() > 0) scheduleNextDeposition();
    }

    /** Partition p's replica group, or null when partitions are not replicated. */
    ReplicaGroup group(int p) {
        return groups == null ? null : groups[p];
    }

    /** A protocol step of partition p: with replica groups, what it writes and sends goes behind the group's log. */
    private void step(int p, Runnable call) {
        if (groups == null) {
            call.run();
            return;
        }
        ReplicaGroup.Term term = groups[p].current();
        term.step(call);
        noteSettled(p, term);
    }

    /**
     * As the node's host does after every step: when the settled prefix advanced, the partition may show it to reads
     * once the writes made so far have committed (docs/design/replication-reads.md, "What a read answer rests on"). The
     * news reaches the partition a while after the commit, as in the node, where it queues behind other work on the
     * protocol thread while the replies resting on the same writes may already have left.
     */
    private void noteSettled(int p, ReplicaGroup.Term term) {
        Partition partition = fastccs(p);
        if (partition == null || groups[p].current() != term) return;
        long settled = partition.settledPrefix();
        if (settled == settledSeen[p]) return;
        settledSeen[p] = settled;
        long newsDelay = groupRandom.nextLong((long) (4 * cfg.meanDelayMicros()) + 1);
        term.afterCommit(() -> events.schedule(newsDelay, () -> {
            if (fastccs(p) == partition) partition.onSettledDurable(settled);
        }));
    }

    /**
     * A read's answer that shows nothing of its partition beyond the durable part of the settled prefix leaves at
     * once, as in the node; any other answer leaves behind the writes made before it.
     */
    private boolean leavesAtOnce(int p, ClientResponse response) {
        if (groups == null || partitions[p] == null) return false;
        long shown = ClockCompaction.shows(response, p);
        return shown >= 0 && shown <= fastccs(p).readableSettled();
    }

    /** Something partition p's current leader sends: with replica groups, it leaves once its step has committed. */
    private void send(int p, Runnable transmit) {
        if (groups == null) transmit.run();
        else groups[p].current().send(transmit);
    }

    int count() {
        return partitions.length;
    }

    boolean isDown(int p) {
        return down[p];
    }

    /** The running partition p (null while it is down). */
    PartitionServer partition(int p) {
        return partitions[p];
    }

    InMemoryPartitionStore store(int p) {
        return stores[p];
    }

    private void start(int p) {
        int epoch = ++epochs[p];
        down[p] = false;
        if (groups == null) {
            PeerSink sink = (to, message) -> sendFromPartition(p, to, message);
            partitions[p] = protocol.protocol() == Protocol.FASTCCS
                    ? new FastCcsProtocol.Server(Partition.start(p, cfg.partition(), topology, stores[p], sink, clocks[p]))
                    : protocol.startPartition(p, cfg.partition(), topology, sink, clocks[p]);
        } else {
            ReplicaGroup.Term term = groups[p].current(); // a deposed leader keeps sending through its own term
            PeerSink sink = (to, message) -> term.send(() -> sendFromPartition(p, to, message));
            settledSeen[p] = -1;
            term.step(() -> {
                Partition started = Partition.start(p, cfg.partition(), topology, term.store(), sink, clocks[p]);
                started.trackDurableSettled();
                partitions[p] = new FastCcsProtocol.Server(started);
            });
        }
        long tick = Math.min(cfg.partition().stabilizationIntervalMicros(), 5_000);
        events.schedule(random.nextLong(tick) + 1, () -> tick(p, epoch, tick));
    }

    private void tick(int p, int epoch, long interval) {
        if (down[p] || epochs[p] != epoch) return;
        step(p, partitions[p]::tick);
        events.schedule(interval, () -> tick(p, epoch, interval));
    }

    /**
     * The process dies for {@code downtime}: volatile state and in-flight connections are gone, the store stays. With
     * replica groups it is the leader that dies: another replica leads after an election timeout, however long the dead
     * one stays down.
     */
    void crash(int p, long downtime) {
        down[p] = true;
        epochs[p]++;
        partitions[p] = null;
        if (groups != null) {
            groups[p].failover();
            downtime = electionTimeout();
        }
        stats.partitionCrashes++;
        int epoch = epochs[p];
        events.schedule(downtime, () -> {
            if (down[p] && epochs[p] == epoch) restart(p);
        });
    }

    void restart(int p) {
        start(p);
        stats.partitionRestarts++;
    }

    private void scheduleNextDeposition() {
        double rate = cfg.faults().partitionCrashesPerSecond();
        long gap = (long) (-Math.log(1 - groupRandom.nextDouble()) / rate * 1_000_000);
        events.schedule(gap, () -> {
            if (!faultsActive.getAsBoolean()) return;
            int p = groupRandom.nextInt(partitions.length);
            if (!down[p] && zombies[p] == null && !groups[p].current().isCutOff()) depose(p);
            scheduleNextDeposition();
        });
    }

    /**
     * Cuts partition p's leader off from its followers: it runs on, commits nothing, and serves until its lease runs
     * out; the followers elect a new leader once the lease must have run out; the old one learns of it later.
     */
    private void depose(int p) {
        long election = electionTimeout();
        long lease = electionTimeoutMin() * 9 / 10;
        long heal = election + 1 + groupRandom.nextLong(Math.max(2, cfg.faults().maxDowntimeMicros()));
        ReplicaGroup.Term term = groups[p].current();
        Partition deposed = fastccs(p);
        int epoch = epochs[p];
        term.cutOff(lease);
        stats.depositions++;
        events.schedule(election, () -> {
            if (down[p] || epochs[p] != epoch) return; // it crashed meanwhile: that was the failover
            zombies[p] = new Zombie(deposed, term);
            groups[p].failover();
            start(p);
            events.schedule(heal - election, () -> {
                if (zombies[p] != null && zombies[p].term() == term) zombies[p] = null; // it learns the new term
            });
        });
    }

    /**
     * A follower that hears no leader for a random time in [min, max] starts an election. Scaled to the run's fault
     * mix: a tenth to a fifth of the longest downtime, so a failover is much shorter than a dead node's absence.
     */
    private long electionTimeout() {
        long min = electionTimeoutMin();
        return min + groupRandom.nextLong(min + 1);
    }

    private long electionTimeoutMin() {
        return Math.max(1, cfg.faults().maxDowntimeMicros() / 10);
    }

    /** The end of the faults: every deposed leader learns the new term, every cut-off leader is replaced now. */
    void healAll() {
        if (groups == null) return;
        for (int p = 0; p < partitions.length; p++) {
            zombies[p] = null;
            if (!down[p] && groups[p].current().isCutOff()) {
                groups[p].failover();
                start(p);
            }
        }
    }

    private void sendFromPartition(int from, int to, PeerMessage message) {
        int toEpoch = epochs[to];
        network.transmit(from, to, message, () -> {
            if (!down[to] && epochs[to] == toEpoch) step(to, () -> partitions[to].onPeerMessage(from, message));
        });
    }

    /** A client request from network node {@code fromNode}; the reply comes back over the network, if any. */
    void sendToPartition(int fromNode, int partition, ClientRequest request, Consumer<ClientResponse> onReply) {
        sendToPartition(fromNode, partition, request, onReply, response -> { });
    }

    /**
     * As {@link #sendToPartition(int, int, ClientRequest, Consumer)}; {@code onAnswer} sees the partition's answer
     * when the partition gives it, before the network (which may lose it), as an observer outside the system would.
     */
    void sendToPartition(int fromNode, int partition, ClientRequest request, Consumer<ClientResponse> onReply,
                         Consumer<ClientResponse> onAnswer) {
        if (zombies != null && zombies[partition] != null && faultsActive.getAsBoolean()
                && groupRandom.nextDouble() < STALE_ROUTING) {
            sendToDeposedLeader(fromNode, partition, zombies[partition], request, onReply, onAnswer);
            return;
        }
        int epoch = epochs[partition];
        network.transmit(fromNode, partition, request, () -> {
            if (down[partition] || epochs[partition] != epoch) return;
            ClientReply reply = response -> {
                onAnswer.accept(response);
                Runnable transmit = () -> {
                    if (epochs[partition] == epoch) network.transmit(partition, fromNode, response, () -> onReply.accept(response));
                };
                if (leavesAtOnce(partition, response)) transmit.run();
                else send(partition, transmit);
            };
            if (heldBack != null && (request instanceof FirstRoundRead || request instanceof CompactFirstRoundRead)
                    && heldBack.holdsBack()) {
                // As a node does while it loads the keys from disk: answered later, at the snapshot it arrived at.
                Partition.ReadSnapshot arrival = fastccs(partition).readSnapshotNow();
                events.schedule(heldBack.delay(), () -> {
                    if (!down[partition] && epochs[partition] == epoch)
                        step(partition, () -> fastccs(partition).onRead(reply, request, arrival));
                });
                return;
            }
            step(partition, () -> partitions[partition].onClientRequest(reply, request));
        });
    }

    /** A request that reaches a deposed leader: its host serves it only while its lease lasts (broken variant: always). */
    private void sendToDeposedLeader(int fromNode, int partition, Zombie zombie, ClientRequest request,
                                     Consumer<ClientResponse> onReply, Consumer<ClientResponse> onAnswer) {
        network.transmit(fromNode, partition, request, () -> {
            if (zombies[partition] != zombie) return; // it has learnt it no longer leads
            ClientReply reply = response -> {
                onAnswer.accept(response);
                zombie.term().send(() -> network.transmit(partition, fromNode, response, () -> onReply.accept(response)));
            };
            zombie.term().step(() -> zombie.partition().onClientRequest(reply, request));
        });
    }

    /** Round ones a host holds back (a node loading keys from disk): how often and how long. */
    record HeldBackReads(double probability, long maxDelayMicros, SplittableRandom random) {
        boolean holdsBack() {
            return random.nextDouble() < probability;
        }

        long delay() {
            return 1 + random.nextLong(maxDelayMicros);
        }
    }

    /** Holds back some round ones (off by default: then nothing is drawn and runs are as before). */
    void holdBackReads(HeldBackReads heldBack) {
        requireFastCcs("held-back round ones", "");
        this.heldBack = heldBack;
    }

    /** The FastCCS partition p (null while it is down), for the hooks only FastCCS has. */
    private Partition fastccs(int p) {
        return partitions[p] == null ? null : ((FastCcsProtocol.Server) partitions[p]).partition();
    }

    private void requireFastCcs(String what, String why) {
        if (protocol.protocol() != Protocol.FASTCCS)
            throw new IllegalArgumentException(what + " are simulated for FastCCS only, not " + protocol.protocol().word() + why);
    }
}
