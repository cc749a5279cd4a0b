package io.fastccs.sim;

import io.fastccs.protocol.api.PartitionStore;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * One partition as a group of three replicas under consensus (thesis section 3.8), as its leader's host runs it: each
 * protocol step's store writes go to the group's log as one entry, and nothing the step sends (peer messages, client
 * replies) leaves before that entry, and every entry before it, has committed. A step that writes nothing still waits
 * for the entries before it, since what it sends may rest on them. The entry commits when the faster of the two
 * followers has acknowledged it; a failover loses the entries that had not committed, and with them what their steps
 * would have sent.
 */
final class ReplicaGroup {
    /** How the simulated groups behave. */
    record Settings(SplittableRandom random, boolean releaseBeforeCommit) {
    }

    private record Entry(List<Consumer<PartitionStore>> writes, List<Runnable> sends) {
    }

    private final GroupStore store = new GroupStore();
    private final EventQueue events;
    private final Settings settings;
    private final double meanDelayMicros;
    private final ArrayDeque<Entry> uncommitted = new ArrayDeque<>();
    private List<Runnable> openSends;
    private long lastCommitAt;
    private int term;
    private long entries, failovers, lostEntries;

    ReplicaGroup(EventQueue events, Settings settings, double meanDelayMicros) {
        this.events = events;
        this.settings = settings;
        this.meanDelayMicros = meanDelayMicros;
    }

    GroupStore store() {
        return store;
    }

    /** Runs one protocol step of the leader's partition and puts what it wrote and sent behind the group's log. */
    void step(Runnable partitionCall) {
        openSends = new ArrayList<>();
        try {
            partitionCall.run();
        } finally {
            List<Runnable> sends = openSends;
            openSends = null;
            List<Consumer<PartitionStore>> writes = store.closeStep();
            append(writes, sends);
        }
    }

    /** Something the partition sends: it leaves when the step it belongs to has committed. */
    void send(Runnable transmit) {
        if (openSends == null || settings.releaseBeforeCommit()) transmit.run();
        else openSends.add(transmit);
    }

    private void append(List<Consumer<PartitionStore>> writes, List<Runnable> sends) {
        if (writes.isEmpty() && uncommitted.isEmpty()) {
            sends.forEach(Runnable::run); // nothing to wait for
            return;
        }
        if (writes.isEmpty()) {
            uncommitted.peekLast().sends().addAll(sends); // leaves with the newest entry it may rest on
            return;
        }
        entries++;
        Entry entry = new Entry(writes, new ArrayList<>(sends));
        uncommitted.addLast(entry);
        long commitAt = Math.max(lastCommitAt, events.now() + majorityRoundTrip());
        lastCommitAt = commitAt;
        int termNow = term;
        events.schedule(commitAt - events.now(), () -> commit(entry, termNow));
    }

    private void commit(Entry entry, int termAtAppend) {
        if (term != termAtAppend || uncommitted.peekFirst() != entry) return; // lost in a failover
        uncommitted.removeFirst();
        store.commit(entry.writes());
        entry.sends().forEach(Runnable::run);
    }

    /** The leader died: its uncommitted entries are gone; the next leader starts from what committed. */
    void failover() {
        lostEntries += uncommitted.size();
        uncommitted.clear();
        openSends = null;
        lastCommitAt = 0;
        term++;
        failovers++;
        store.failover();
    }

    /** Leader to follower and back, for the faster of two followers. */
    private long majorityRoundTrip() {
        return Math.min(roundTrip(), roundTrip());
    }

    private long roundTrip() {
        SplittableRandom r = settings.random();
        return 1 + (long) ((-Math.log(1 - r.nextDouble()) - Math.log(1 - r.nextDouble())) * meanDelayMicros);
    }

    long entries() {
        return entries;
    }

    long failovers() {
        return failovers;
    }

    long lostEntries() {
        return lostEntries;
    }
}
