package io.fastccs.sim;

import io.fastccs.core.spi.Capability;
import io.fastccs.protocol.partition.Partition;
import io.fastccs.core.api.ClientReply;
import io.fastccs.core.api.PeerSink;
import io.fastccs.core.api.TimeSource;
import io.fastccs.core.api.Topology;
import io.fastccs.protocol.host.HostEnvironment;
import io.fastccs.protocol.host.PartitionHost;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.protocol.messages.CompactFirstRoundRead;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.core.spi.PartitionServer;
import io.fastccs.core.spi.ProtocolFactory;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The partitions as processes: each runs a real {@link Partition} in the node's {@link PartitionHost}, on a store that
 * survives it, ticks, crashes (volatile state and in-flight connections gone) and restarts from its store. Partition p
 * is network node p. The other protocols' partitions ({@link ProtocolFactory}) run bare, without stores, crashes or
 * replica groups: they keep their state in memory.
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
    /** FastCCS: each running partition's process, its host and store; null while it is down. */
    private final Process[] processes;
    private final int[] epochs;
    private final boolean[] down;
    /** Each partition's replica group, or null: one process per partition with a store of its own. */
    private ReplicaGroup[] groups;
    /** Per partition, a deposed leader still running, cut off from its group and not knowing it; or null. */
    private Process[] zombies;
    private SplittableRandom groupRandom;
    /** Round ones the host holds back, or null (then nothing is drawn and runs are as before). */
    private HeldBackReads heldBack;
    private BooleanSupplier faultsActive;

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
        this.processes = new Process[n];
        this.epochs = new int[n];
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
        requireCrashRecovery("replica groups", ", which keeps its partitions' state in memory (no store to replicate)");
        groups = new ReplicaGroup[partitions.length];
        zombies = new Process[partitions.length];
        groupRandom = settings.random();
        this.faultsActive = faultsActive;
        for (int p = 0; p < groups.length; p++) groups[p] = new ReplicaGroup(p, events, settings, cfg.meanDelayMicros());
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
        if (protocol.has(Capability.CRASH_RECOVERY)) {
            Process process = new Process(p, epoch); // a deposed leader keeps sending through its own term
            processes[p] = process;
            process.host.start(protocol, p, cfg.partition(), topology, (to, message) -> {
                if (!process.discarding) sendFromPartition(p, to, message);
            }, clocks[p]);
            partitions[p] = process.host.server();
        } else {
            PeerSink sink = (to, message) -> sendFromPartition(p, to, message);
            partitions[p] = protocol.startPartition(p, cfg.partition(), topology, sink, clocks[p]);
        }
        long tick = Math.min(cfg.partition().stabilizationIntervalMicros(), 5_000);
        events.schedule(random.nextLong(tick) + 1, () -> tick(p, epoch, tick));
    }

    private void tick(int p, int epoch, long interval) {
        if (down[p] || epochs[p] != epoch) return;
        if (processes[p] != null) processes[p].host.tick();
        else partitions[p].tick();
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
        processes[p] = null;
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
        Process deposed = processes[p];
        int epoch = epochs[p];
        term.cutOff(lease);
        stats.depositions++;
        events.schedule(election, () -> {
            if (down[p] || epochs[p] != epoch) return; // it crashed meanwhile: that was the failover
            zombies[p] = deposed;
            deposed.discard(groups[p].failover());
            start(p);
            events.schedule(heal - election, () -> {
                if (zombies[p] != null && zombies[p].term == term) zombies[p] = null; // it learns the new term
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
            if (down[to] || epochs[to] != toEpoch) return;
            if (processes[to] != null) processes[to].host.onPeerMessage(from, message);
            else partitions[to].onPeerMessage(from, message);
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
            Process process = processes[partition];
            ClientReply transmit = response -> {
                if (epochs[partition] == epoch && (process == null || !process.discarding))
                    network.transmit(partition, fromNode, response, () -> onReply.accept(response));
            };
            if (process == null) {
                partitions[partition].onClientRequest(response -> {
                    onAnswer.accept(response);
                    transmit.reply(response);
                }, request);
                return;
            }
            // As a node whose cache misses the keys: the host loads them, and answers a round one at its arrival snapshot.
            boolean roundOne = request instanceof FirstRoundRead || request instanceof CompactFirstRoundRead;
            long missDelay = heldBack != null && roundOne && heldBack.holdsBack() ? heldBack.delay() : -1;
            process.store.arriving(missDelay, () -> process.host.onClientRequest(transmit, request, onAnswer));
        });
    }

    /**
     * A request that reaches a deposed leader: its host serves it only while its lease lasts (broken variant: always),
     * and its answer leaves behind the step's writes as any message does, whatever part of the prefix it shows.
     */
    private void sendToDeposedLeader(int fromNode, int partition, Process zombie, ClientRequest request,
                                     Consumer<ClientResponse> onReply, Consumer<ClientResponse> onAnswer) {
        network.transmit(fromNode, partition, request, () -> {
            if (zombies[partition] != zombie) return; // it has learnt it no longer leads
            PartitionHost host = zombie.host;
            host.step(() -> host.partition().onClientRequest(response -> {
                onAnswer.accept(response);
                host.send(() -> network.transmit(partition, fromNode, response, () -> onReply.accept(response)));
            }, request));
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
        requireCrashRecovery("held-back round ones", "");
        this.heldBack = heldBack;
    }

    private void requireCrashRecovery(String what, String why) {
        if (!protocol.has(Capability.CRASH_RECOVERY))
            throw new IllegalArgumentException(what + " are simulated for FastCCS only, not " + protocol.protocol().word() + why
                    + " (they need a partition that recovers from a store)");
    }

    /**
     * One run of a FastCCS partition's process: its host, on a store of its own (over its replica group's log, with a
     * lease, when replicated). Its steps run at once, on simulated time.
     */
    private final class Process implements HostEnvironment {
        private final int p;
        /** The term it leads, or null without replica groups. */
        private final ReplicaGroup.Term term;
        private final SimStore store;
        /** The same store when it writes through the term's log; null without replica groups. */
        private final GroupStore groupStore;
        private final PartitionHost host;
        /** While what waited on its lost entries is let go: none of it leaves. */
        private boolean discarding;

        Process(int p, int epoch) {
            this.p = p;
            BooleanSupplier alive = () -> !down[p] && epochs[p] == epoch;
            this.term = groups == null ? null : groups[p].current();
            this.groupStore = term == null ? null : term.openStore(alive);
            this.store = groupStore == null ? new SimStore(stores[p], events, alive) : groupStore;
            // Reads show only the durable part of the settled prefix where writes wait for a commit.
            this.host = new PartitionHost(this, store, term == null ? null : term::readBarrier, term != null);
        }

        /**
         * Its term ended while it lives on, deposed: what its lost entries held back is gone, and its host's held messages
         * no longer wait for them.
         */
        void discard(List<CompletableFuture<Void>> lost) {
            discarding = true;
            try {
                lost.forEach(mark -> mark.complete(null));
            } finally {
                discarding = false;
            }
        }

        /** A leader whose lease ran out: its host drops everything (the lease is checked before the step, not after). */
        @Override
        public void execute(Runnable task) {
            if (term == null || term.mayServe()) task.run();
        }

        @Override
        public void stopped(Throwable cause) {
            throw new IllegalStateException("partition " + p + "'s host stopped: a simulated store or lease failed", cause);
        }

        /** A partition that throws is a bug the run must stop at. */
        @Override
        public void internalError(ClientRequest request, RuntimeException e) {
            throw e;
        }

        /**
         * Only the leader that runs now hears it, after its step's entry commits, and only if it still runs then. Asked
         * for with replica groups only: reads show the durable part of the settled prefix only where writes wait.
         */
        @Override
        public void whenDurable(CompletableFuture<Void> mark, Runnable news) {
            if (processes[p] != this || groups[p].current() != term) return;
            groupStore.newsAfterStep(() -> {
                if (processes[p] == this) news.run();
            });
        }
    }
}
