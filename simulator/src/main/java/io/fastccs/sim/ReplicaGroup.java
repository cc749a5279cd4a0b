package io.fastccs.sim;

import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.protocol.impl.InMemoryPartitionStore;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * One partition as a group of three replicas under consensus (thesis section 3.8), as its leaders' hosts run it:
 * each protocol step's store writes go to the group's log as one entry, and nothing the step sends (peer messages,
 * client replies) leaves before that entry, and every entry before it, has committed. A step that writes nothing
 * still waits for the entries before it, since what it sends may rest on them. An entry commits when the faster of
 * the two followers has acknowledged it.
 *
 * <p>Each leader runs in a {@link Term}. A crash ends the term: its uncommitted entries, and what their steps would
 * have sent, are gone, and the next leader starts from the committed store. A leader cut off from its followers keeps
 * running without knowing: nothing of its commits any more, and once its lease has run out its host serves nobody;
 * meanwhile the followers elect a new leader, which starts only after that lease could have run out.
 */
final class ReplicaGroup {
    /**
     * How the simulated groups behave.
     *
     * @param releaseBeforeCommit broken variant: what a step sends leaves before its entry commits
     * @param servesWithoutLease  broken variant: a leader cut off from its followers keeps serving after its lease
     * @param durableBeforeCommit broken variant: the host tells its partition that writes are durable as soon as they
     *                            are appended, so reads show what a failover then loses
     */
    record Settings(SplittableRandom random, boolean releaseBeforeCommit, boolean servesWithoutLease,
                    boolean durableBeforeCommit) {
        Settings(SplittableRandom random, boolean releaseBeforeCommit, boolean servesWithoutLease) {
            this(random, releaseBeforeCommit, servesWithoutLease, false);
        }
    }

    private record Entry(List<Consumer<PartitionStore>> writes, List<Runnable> sends) {
    }

    private final InMemoryPartitionStore committed = new InMemoryPartitionStore();
    private final EventQueue events;
    private final Settings settings;
    private final double meanDelayMicros;
    private Term current;
    private long entries, lostEntries;

    ReplicaGroup(EventQueue events, Settings settings, double meanDelayMicros) {
        this.events = events;
        this.settings = settings;
        this.meanDelayMicros = meanDelayMicros;
        this.current = new Term();
    }

    /** What every replica holds. */
    InMemoryPartitionStore committed() {
        return committed;
    }

    /** The term of the leader that runs now (or will, after a failover). */
    Term current() {
        return current;
    }

    /** The leader is gone (crashed, or deposed while cut off): the next one starts from what committed. */
    void failover() {
        lostEntries += current.uncommitted.size();
        current.uncommitted.clear();
        current.ended = true;
        current = new Term();
    }

    /** One leader's time at the head of the group. */
    final class Term {
        private final GroupStore store = new GroupStore(committed);
        private final ArrayDeque<Entry> uncommitted = new ArrayDeque<>();
        private List<Runnable> openSends;
        private long lastCommitAt;
        private boolean cutOff, ended;
        private long leaseUntil = Long.MAX_VALUE;

        GroupStore store() {
            return store;
        }

        /** Whether its host may still hand requests and messages to the partition. */
        boolean mayServe() {
            return !cutOff || settings.servesWithoutLease() || events.now() < leaseUntil;
        }

        /** Cut off from its followers: nothing more commits; it may serve for {@code leaseMicros} more. */
        void cutOff(long leaseMicros) {
            cutOff = true;
            leaseUntil = events.now() + leaseMicros;
        }

        boolean isCutOff() {
            return cutOff;
        }

        /** Runs one protocol step of this term's partition and puts what it wrote and sent behind the log. */
        void step(Runnable partitionCall) {
            if (!mayServe()) return; // a leader whose lease ran out: its host drops everything
            openSends = new ArrayList<>();
            try {
                partitionCall.run();
            } finally {
                List<Runnable> sends = openSends;
                openSends = null;
                append(store.closeStep(), sends);
            }
        }

        /** Runs {@code then} once every write made so far has committed (at once if none is pending). */
        void afterCommit(Runnable then) {
            if (uncommitted.isEmpty() || settings.durableBeforeCommit()) then.run();
            else uncommitted.peekLast().sends().add(then);
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
            events.schedule(commitAt - events.now(), () -> commit(entry));
        }

        private void commit(Entry entry) {
            if (ended || cutOff || uncommitted.peekFirst() != entry) return; // lost, or no follower hears this leader
            uncommitted.removeFirst();
            store.commitToGroup(entry.writes());
            entry.sends().forEach(Runnable::run);
        }
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

    long lostEntries() {
        return lostEntries;
    }
}
