package io.fastccs.sim;

import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.replication.GroupMember;
import io.fastccs.replication.GroupSpec;
import io.fastccs.replication.NotLeaderException;
import io.fastccs.replication.ReplicatedLog;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One partition as a group of three replicas under consensus (thesis section 3.8), behind the {@link ReplicatedLog} a
 * node's store feeds on Ratis. Its leader's host puts each protocol step's store writes into the log as one entry
 * ({@link GroupStore}), and nothing the step sends leaves before that entry, and every entry before it, has committed.
 * An entry commits when the faster of the two followers has acknowledged it.
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

    private static final List<GroupMember> MEMBERS = List.of(new GroupMember("replica-0", "sim", 1, 1),
            new GroupMember("replica-1", "sim", 1, 0), new GroupMember("replica-2", "sim", 1, 0));

    private final GroupSpec spec;
    private final InMemoryPartitionStore committed = new InMemoryPartitionStore();
    private final EventQueue events;
    private final Settings settings;
    private final double meanDelayMicros;
    /** The batches the log carries, by number: nothing leaves the process, so an entry names its batch, not encodes it. */
    private final Map<Long, List<Consumer<PartitionStore>>> batches = new HashMap<>();
    private long nextBatch, lastIndex, terms;
    private Term current;
    private long entries, lostEntries;

    ReplicaGroup(int partition, EventQueue events, Settings settings, double meanDelayMicros) {
        this.spec = new GroupSpec(partition, MEMBERS);
        this.events = events;
        this.settings = settings;
        this.meanDelayMicros = meanDelayMicros;
        this.current = new Term();
    }

    /** What every replica holds. */
    InMemoryPartitionStore committed() {
        return committed;
    }

    Settings settings() {
        return settings;
    }

    /** The term of the leader that runs now (or will, after a failover). */
    Term current() {
        return current;
    }

    /**
     * The leader is gone (crashed, or deposed while cut off): the next one starts from what committed. Returns the
     * marks its store had waiting on the lost entries (see {@link GroupStore#termEnded()}).
     */
    List<CompletableFuture<Void>> failover() {
        lostEntries += current.uncommitted.size();
        for (Entry e : current.uncommitted) batches.remove(batchNumber(e.batch()));
        current.uncommitted.clear();
        current.ended = true;
        List<CompletableFuture<Void>> lost = current.store == null ? List.of() : current.store.termEnded();
        current = new Term();
        return lost;
    }

    /** A step's writes as the log carries them. */
    byte[] carry(List<Consumer<PartitionStore>> writes) {
        long number = nextBatch++;
        batches.put(number, writes);
        return ByteBuffer.allocate(Long.BYTES).putLong(number).array();
    }

    /** How long the settled-prefix news of a step takes to reach its partition after the step's entry commits. */
    long newsDelay() {
        return settings.random().nextLong((long) (4 * meanDelayMicros) + 1);
    }

    private static long batchNumber(byte[] batch) {
        return ByteBuffer.wrap(batch).getLong();
    }

    private record Entry(long index, byte[] batch, CompletableFuture<Long> committed) {
    }

    /** One leader's time at the head of the group: its handle on the log. */
    final class Term implements ReplicatedLog {
        private final long number = ++terms;
        private final ArrayDeque<Entry> uncommitted = new ArrayDeque<>();
        private GroupStore store;
        private long lastCommitAt, appliedIndex;
        private boolean cutOff, ended;
        private long leaseUntil = Long.MAX_VALUE;

        /** The leader's store, starting from what the group has committed; for the one process that leads this term. */
        GroupStore openStore(BooleanSupplier alive) {
            store = new GroupStore(committed.copy(), ReplicaGroup.this, this, events, alive);
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

        @Override
        public GroupSpec group() {
            return spec;
        }

        /** Commits after a majority round trip and every entry before it; never once the term ended or is cut off. */
        @Override
        public CompletableFuture<Long> append(byte[] batch) {
            entries++;
            Entry entry = new Entry(++lastIndex, batch, new CompletableFuture<>());
            uncommitted.addLast(entry);
            long commitAt = Math.max(lastCommitAt, events.now() + majorityRoundTrip());
            lastCommitAt = commitAt;
            events.schedule(commitAt - events.now(), () -> commit(entry));
            return entry.committed();
        }

        private void commit(Entry entry) {
            if (ended || cutOff || uncommitted.peekFirst() != entry) return; // lost, or no follower hears this leader
            uncommitted.removeFirst();
            for (Consumer<PartitionStore> w : batches.remove(batchNumber(entry.batch()))) w.accept(committed);
            appliedIndex = entry.index();
            entry.committed().complete(entry.index());
        }

        /** The lease (broken variant {@code servesWithoutLease}: valid however long the leader has been cut off). */
        @Override
        public CompletableFuture<Void> readBarrier() {
            return mayServe() ? SimStore.DONE
                    : CompletableFuture.failedFuture(new NotLeaderException("the lease of term " + number + " ran out", null));
        }

        @Override
        public boolean isLeaderReady() {
            return !ended;
        }

        @Override
        public long term() {
            return number;
        }

        @Override
        public Optional<String> leaderId() {
            return ended ? Optional.empty() : Optional.of(MEMBERS.get(0).nodeId());
        }

        @Override
        public long appliedIndex() {
            return appliedIndex;
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
