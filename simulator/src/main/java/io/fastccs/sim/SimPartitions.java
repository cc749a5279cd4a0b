package io.fastccs.sim;

import io.fastccs.protocol.Partition;
import io.fastccs.protocol.api.PeerSink;
import io.fastccs.protocol.api.Topology;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.protocol.messages.ClientRequest;
import io.fastccs.protocol.messages.ClientResponse;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.protocol.messages.PeerMessage;

import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The partitions as processes: each runs a real {@link Partition} on a store that survives it, ticks, crashes
 * (volatile state and in-flight connections gone) and restarts from its store. Partition p is network node p.
 */
final class SimPartitions {
    private final SimConfig cfg;
    private final Topology topology;
    private final EventQueue events;
    private final SimNetwork network;
    private final SplittableRandom random;
    private final SimStats stats;
    private final InMemoryPartitionStore[] stores;
    private final Partition[] partitions;
    private final int[] epochs;
    private final boolean[] down;
    /** Each partition's replica group, or null: one process per partition with a store of its own. */
    private ReplicaGroup[] groups;

    SimPartitions(SimConfig cfg, Topology topology, EventQueue events, SimNetwork network, SplittableRandom random, SimStats stats) {
        this.cfg = cfg;
        this.topology = topology;
        this.events = events;
        this.network = network;
        this.random = random;
        this.stats = stats;
        int n = cfg.partitions();
        this.stores = new InMemoryPartitionStore[n];
        this.partitions = new Partition[n];
        this.epochs = new int[n];
        this.down = new boolean[n];
    }

    /** Makes every partition a replica group (call before {@link #startAll()}). */
    void replicate(ReplicaGroup.Settings settings) {
        groups = new ReplicaGroup[partitions.length];
        for (int p = 0; p < groups.length; p++) groups[p] = new ReplicaGroup(events, settings, cfg.meanDelayMicros());
    }

    void startAll() {
        for (int p = 0; p < partitions.length; p++) {
            stores[p] = groups == null ? new InMemoryPartitionStore() : groups[p].store().committed();
            start(p);
        }
    }

    /** Partition p's replica group, or null when partitions are not replicated. */
    ReplicaGroup group(int p) {
        return groups == null ? null : groups[p];
    }

    /** A protocol step of partition p: with replica groups, what it writes and sends goes behind the group's log. */
    private void step(int p, Runnable call) {
        if (groups == null) call.run();
        else groups[p].step(call);
    }

    /** Something partition p sends: with replica groups, it leaves once its step has committed. */
    private void send(int p, Runnable transmit) {
        if (groups == null) transmit.run();
        else groups[p].send(transmit);
    }

    int count() {
        return partitions.length;
    }

    boolean isDown(int p) {
        return down[p];
    }

    /** The running partition p (null while it is down). */
    Partition partition(int p) {
        return partitions[p];
    }

    InMemoryPartitionStore store(int p) {
        return stores[p];
    }

    private void start(int p) {
        int epoch = ++epochs[p];
        down[p] = false;
        PeerSink sink = (to, message) -> send(p, () -> sendFromPartition(p, to, message));
        if (groups == null) {
            partitions[p] = Partition.start(p, cfg.partition(), topology, stores[p], sink, events::now);
        } else {
            groups[p].step(() -> partitions[p] = Partition.start(p, cfg.partition(), topology, groups[p].store(), sink, events::now));
        }
        long tick = Math.min(cfg.partition().stabilizationIntervalMicros(), 5_000);
        events.schedule(random.nextLong(tick) + 1, () -> tick(p, epoch, tick));
    }

    private void tick(int p, int epoch, long interval) {
        if (down[p] || epochs[p] != epoch) return;
        step(p, partitions[p]::tick);
        events.schedule(interval, () -> tick(p, epoch, interval));
    }

    /** The process dies for {@code downtime}: volatile state and in-flight connections are gone, the store stays. */
    void crash(int p, long downtime) {
        down[p] = true;
        epochs[p]++;
        partitions[p] = null;
        if (groups != null) groups[p].failover(); // another replica leads after the downtime
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

    private void sendFromPartition(int from, int to, PeerMessage message) {
        int toEpoch = epochs[to];
        network.transmit(from, to, message, () -> {
            if (!down[to] && epochs[to] == toEpoch) step(to, () -> partitions[to].onPeerMessage(from, message));
        });
    }

    /** A client request from network node {@code fromNode}; the reply comes back over the network, if any. */
    void sendToPartition(int fromNode, int partition, ClientRequest request, Consumer<ClientResponse> onReply) {
        int epoch = epochs[partition];
        network.transmit(fromNode, partition, request, () -> {
            if (down[partition] || epochs[partition] != epoch) return;
            io.fastccs.protocol.api.ClientReply reply = response -> send(partition, () -> {
                if (epochs[partition] == epoch) network.transmit(partition, fromNode, response, () -> onReply.accept(response));
            });
            if (heldBack != null && request instanceof FirstRoundRead r && heldBack.holdsBack()) {
                // As a node does while it loads the keys from disk: answered later, at the snapshot it arrived at.
                Partition.ReadSnapshot arrival = partitions[partition].readSnapshotNow();
                events.schedule(heldBack.delay(), () -> {
                    if (!down[partition] && epochs[partition] == epoch)
                        step(partition, () -> partitions[partition].onFirstRoundRead(reply, r, arrival));
                });
                return;
            }
            step(partition, () -> partitions[partition].onClientRequest(reply, request));
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

    private HeldBackReads heldBack;

    /** Holds back some round ones (off by default: then nothing is drawn and runs are as before). */
    void holdBackReads(HeldBackReads heldBack) {
        this.heldBack = heldBack;
    }
}
