package io.fastccs.protocol;

import io.fastccs.core.Outgoing;
import io.fastccs.core.PartitionConfig;
import io.fastccs.protocol.partition.Partition;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.primitives.Version;
import io.fastccs.core.api.ClientReply;
import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.core.impl.HashTopology;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.core.messages.PeerMessage;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A deterministic in-test cluster: N real {@link Partition}s on {@link InMemoryPartitionStore}s, a manual clock, a
 * queue of undelivered peer messages and a record of every client request with the responses it got. Nothing is
 * delivered unless the test says so, in the order the test chooses, so interleavings are exact.
 *
 * <p>A crash drops the partition object and starts a new one on the same store. A store can also be told to "die"
 * right after a given durable write: from then on that incarnation's writes, peer messages and client replies are
 * lost, exactly as if the process had stopped at that instant.
 */
final class TestCluster {
    static final long TIMEOUT = 1_000;
    static final long CHECK_INTERVAL = 100;
    static final long STABILIZATION_INTERVAL = 10;
    static final long HEARTBEAT = 100_000;
    static final long GC_INTERVAL = 100;
    static final long RETENTION = 1_000;
    static final long DECISION_RETENTION = 5_000;
    static final int MAX_KEYS = 4;
    static final int MAX_KEY_BYTES = 16;
    static final int MAX_VALUE_BYTES = 32;

    static PartitionConfig defaultConfig() {
        return PartitionConfig.builder()
                .transactionTimeoutMicros(TIMEOUT)
                .checkIntervalMicros(CHECK_INTERVAL)
                .stabilizationIntervalMicros(STABILIZATION_INTERVAL)
                .stabilizationHeartbeatMicros(HEARTBEAT)
                .gcIntervalMicros(GC_INTERVAL)
                .versionRetentionMicros(RETENTION)
                .decisionRetentionMicros(DECISION_RETENTION)
                .maxKeysPerRequest(MAX_KEYS)
                .maxKeyBytes(MAX_KEY_BYTES)
                .maxValueBytes(MAX_VALUE_BYTES)
                .build();
    }

    /** A peer message in flight. */
    record Envelope(int from, int to, PeerMessage message) {
        TxnId txnId() {
            if (message instanceof Prepared p) return p.txnId();
            if (message instanceof Commit c) return c.txnId();
            if (message instanceof io.fastccs.protocol.messages.CompactCommit c) return c.txnId();
            if (message instanceof Abort a) return a.txnId();
            if (message instanceof CheckCommit c) return c.txnId();
            return null;
        }
    }

    static Predicate<Envelope> type(Class<? extends PeerMessage> type) {
        return e -> type.isInstance(e.message());
    }

    static Predicate<Envelope> to(int partition) {
        return e -> e.to() == partition;
    }

    static Predicate<Envelope> from(int partition) {
        return e -> e.from() == partition;
    }

    static Predicate<Envelope> about(TxnId id) {
        return e -> id.equals(e.txnId());
    }

    static Predicate<Envelope> any() {
        return e -> true;
    }

    /** One client request and every response the partition gave it, in order. */
    final class ReplyBox {
        final int partition;
        final ClientRequest request;
        final List<ClientResponse> responses = new ArrayList<>();
        private int taken;

        ReplyBox(int partition, ClientRequest request) {
            this.partition = partition;
            this.request = request;
        }

        private void add(ClientResponse r) {
            responses.add(r);
            answerLog.add(this);
        }

        boolean answered() {
            return !responses.isEmpty();
        }

        /** The single response; fails if there is none or more than one. */
        ClientResponse only() {
            if (responses.size() != 1)
                throw new AssertionError("expected exactly one response to " + request + " on partition " + partition
                        + ", got " + responses);
            return responses.get(0);
        }

        WriteReply write() {
            return (WriteReply) only();
        }

        ReadReply read() {
            return (ReadReply) only();
        }

        ErrorReply error() {
            return (ErrorReply) only();
        }

        OutcomeReply outcome() {
            return (OutcomeReply) only();
        }

        /** Responses not yet handed out by an earlier call. */
        List<ClientResponse> take() {
            List<ClientResponse> out = List.copyOf(responses.subList(taken, responses.size()));
            taken = responses.size();
            return out;
        }

        @Override
        public String toString() {
            return "ReplyBox{p" + partition + " " + request + " -> " + responses + "}";
        }
    }

    /** A partition's durable store as seen by one incarnation; a dead incarnation's writes are lost. */
    static final class Incarnation implements PartitionStore {
        final InMemoryPartitionStore disk;
        boolean dead;
        /** Die right after the decision for this transaction was made durable. */
        TxnId dieAfterDecisionOf;
        /** Die as the decision for this transaction is being saved, before it is durable. */
        TxnId dieAtDecisionOf;
        /**
         * Only the writes messages rest on (prepares and aborts) reach the disk: the others are lost in a crash, as the
         * writes a batching host had not made durable yet (PartitionStore, "What a message waits for").
         */
        boolean onlyRequiredWritesDurable;
        /** Keys whose versions are "on disk only": reading them would block, so the partition must not ask. */
        final java.util.Set<Key> notInMemory = new java.util.HashSet<>();

        Incarnation(InMemoryPartitionStore disk) {
            this.disk = disk;
        }

        @Override
        public void savePrepared(TxnRecord record) {
            if (!dead) disk.savePrepared(record);
        }

        @Override
        public void saveOutcome(TxnId txnId, long sequence, io.fastccs.core.messages.Outcome outcome,
                                VectorClock commitClock, long commitTime) {
            if (!dead && !onlyRequiredWritesDurable) disk.saveOutcome(txnId, sequence, outcome, commitClock, commitTime);
        }

        @Override
        public void saveSnapshot(VectorClock snapshot, int self, long recordsUpTo) {
            if (!dead && !onlyRequiredWritesDurable) disk.saveSnapshot(snapshot, self, recordsUpTo);
        }

        @Override
        public void saveDecision(Decision decision) {
            if (decision.txnId().equals(dieAtDecisionOf)) dead = true;
            if (dead || onlyRequiredWritesDurable && decision.outcome() != io.fastccs.core.messages.Outcome.ABORTED) return;
            disk.saveDecision(decision);
            if (decision.txnId().equals(dieAfterDecisionOf)) dead = true;
        }

        @Override
        public void forgetDecision(TxnId txnId) {
            if (!dead && !onlyRequiredWritesDurable) disk.forgetDecision(txnId);
        }

        @Override
        public List<Version> versions(Key key) {
            if (notInMemory.contains(key)) throw new AssertionError("read " + key + " while its versions are not in memory");
            return disk.versions(key);
        }

        @Override
        public boolean versionsInMemory(Key key) {
            return !notInMemory.contains(key);
        }

        @Override
        public void putVersion(Key key, Version version) {
            if (!dead && !onlyRequiredWritesDurable) disk.putVersion(key, version);
        }

        @Override
        public void removeVersionsOlderThan(Key key, Version newestKept) {
            if (!dead) disk.removeVersionsOlderThan(key, newestKept);
        }

        @Override
        public void replaceVersions(Key key, List<Version> folded, Version base) {
            if (!dead) disk.replaceVersions(key, folded, base);
        }

        @Override
        public java.util.Collection<io.fastccs.core.primitives.Key> keysWithOlderVersions() {
            return disk.keysWithOlderVersions();
        }

        @Override
        public Recovered recover() {
            return disk.recover();
        }
    }

    /** A raw write-only transaction, for tests that pick coordinator, participants and delivery order by hand. */
    final class Txn {
        final TxnId id;
        final int coordinator;
        final List<Integer> participants;
        final VectorClock clock;
        final TreeMap<Integer, List<KeyValue>> writes;

        Txn(TxnId id, int coordinator, List<Integer> participants, VectorClock clock, TreeMap<Integer, List<KeyValue>> writes) {
            this.id = id;
            this.coordinator = coordinator;
            this.participants = participants;
            this.clock = clock;
            this.writes = writes;
        }

        WriteRequest requestFor(int partition) {
            return new WriteRequest(nextRequestId(), id, coordinator, participants,
                    writes.getOrDefault(partition, List.of()), clock, 0);
        }

        /** Sends this transaction's write request to one participant. */
        ReplyBox sendTo(int partition) {
            return send(partition, requestFor(partition));
        }

        @Override
        public String toString() {
            return "Txn{" + id + " coord=" + coordinator + " participants=" + participants + "}";
        }
    }

    final int n;
    final HashTopology topology;
    final PartitionConfig config;
    final long[] now = {0};
    /** How far each partition's clock is ahead of {@link #now} (negative: behind), for clocks that disagree. */
    final long[] clockOffset;
    final InMemoryPartitionStore[] disks;
    private final Incarnation[] incarnations;
    private final Partition[] partitions;
    final List<Envelope> inFlight = new ArrayList<>();
    final List<ReplyBox> requests = new ArrayList<>();
    /** A box is appended each time it receives a response: the order in which clients were answered. */
    final List<ReplyBox> answerLog = new ArrayList<>();
    private long nextRequestId = 1;
    private long nextTxn = 1;
    private final Map<List<Integer>, Key> keys = new HashMap<>();

    TestCluster(int n) {
        this(n, defaultConfig());
    }

    TestCluster(int n, PartitionConfig config) {
        this.n = n;
        this.topology = new HashTopology(n);
        this.config = config;
        this.disks = new InMemoryPartitionStore[n];
        this.incarnations = new Incarnation[n];
        this.partitions = new Partition[n];
        this.clockOffset = new long[n];
        for (int i = 0; i < n; i++) {
            disks[i] = new InMemoryPartitionStore();
            startIncarnation(i);
        }
    }

    private void startIncarnation(int i) {
        Incarnation inc = new Incarnation(disks[i]);
        incarnations[i] = inc;
        partitions[i] = Partition.start(i, config, topology, inc, (to, m) -> {
            if (!inc.dead) inFlight.add(new Envelope(i, to, m));
        }, () -> now[0] + clockOffset[i]);
    }

    Partition p(int i) {
        return partitions[i];
    }

    long now() {
        return now[0];
    }

    void advanceTo(long t) {
        if (t < now[0]) throw new IllegalArgumentException("time goes forward: " + now[0] + " -> " + t);
        now[0] = t;
    }

    void tick(int i) {
        partitions[i].tick();
    }

    void tickAll() {
        for (Partition p : partitions) p.tick();
    }

    /** Advances time step by step to {@code t}, ticking the given partitions at every step (and at t). */
    void tickUntil(long t, long step, int... which) {
        while (true) {
            for (int i : which) partitions[i].tick();
            if (now[0] >= t) return;
            advanceTo(Math.min(t, now[0] + step));
        }
    }

    /** Crashes partition i (its object is dropped; messages it already sent stay in flight) and restarts it. */
    Partition restart(int i) {
        incarnations[i].dead = true;
        startIncarnation(i);
        return partitions[i];
    }

    /**
     * From now on until its next restart, partition i's store keeps only the writes messages rest on (prepares, aborts):
     * a crash then loses its outcomes, versions and commit decisions, as a batching host's unsynced writes.
     */
    void onlyRequiredWritesDurable(int i) {
        incarnations[i].onlyRequiredWritesDurable = true;
    }

    /** Makes partition i stop as it records the decision for {@code id}, before that is durable. */
    void dieAtDecision(int i, TxnId id) {
        incarnations[i].dieAtDecisionOf = id;
    }

    /** Makes partition i stop right after it durably records the decision for {@code id}. */
    void dieAfterDecision(int i, TxnId id) {
        incarnations[i].dieAfterDecisionOf = id;
    }

    boolean isDead(int i) {
        return incarnations[i].dead;
    }

    /** Partition {@code i}'s store keeps {@code key}'s versions on disk only ({@code true}) or in memory again. */
    void versionsOnDiskOnly(int i, Key key, boolean onDisk) {
        if (onDisk) incarnations[i].notInMemory.add(key);
        else incarnations[i].notInMemory.remove(key);
    }

    // ------------------------------------------------------------------------------------------------ clients

    long nextRequestId() {
        return nextRequestId++;
    }

    ReplyBox send(int partition, ClientRequest request) {
        ReplyBox box = new ReplyBox(partition, request);
        requests.add(box);
        Incarnation inc = incarnations[partition];
        ClientReply reply = r -> {
            if (!inc.dead) box.add(r);
        };
        partitions[partition].onClientRequest(reply, request);
        return box;
    }

    List<ReplyBox> send(List<Outgoing> out) {
        List<ReplyBox> boxes = new ArrayList<>();
        for (Outgoing o : out) boxes.add(send(o.partition(), o.request()));
        return boxes;
    }

    ClientSession session(long clientId) {
        return new ClientSession(topology, clientId, VectorClock.zero(n), 0, this::nextRequestId);
    }

    ClientSession session(long clientId, VectorClock clock) {
        return new ClientSession(topology, clientId, clock, 0, this::nextRequestId);
    }

    /** Feeds every response not fed before from {@code boxes} to {@code consumer}. */
    static void feed(List<ReplyBox> boxes, Consumer<ClientResponse> consumer) {
        for (ReplyBox b : boxes) for (ClientResponse r : b.take()) consumer.accept(r);
    }

    /**
     * Runs a read to its end: sends each round, feeds back what the partitions answered. Peer messages are not
     * touched (reads never wait for them).
     */
    ReadTransaction runRead(ReadTransaction read) {
        List<Outgoing> out = read.start();
        int rounds = 0;
        while (!out.isEmpty()) {
            if (++rounds > 2) throw new AssertionError("a read asked for a third round: " + out);
            List<ReplyBox> boxes = send(out);
            List<Outgoing> next = new ArrayList<>();
            for (ReplyBox b : boxes) for (ClientResponse r : b.take()) next.addAll(read.onResponse(r));
            out = next;
        }
        return read;
    }

    /** Runs a write to its end, delivering every peer message about it in queue order. */
    WriteTransaction runWrite(WriteTransaction write) {
        List<ReplyBox> boxes = send(write.start());
        deliverAll(about(write.txnId()));
        feed(boxes, write::onResponse);
        return write;
    }

    ReplyBox read1(int partition, VectorClock clock, Key... keys) {
        return send(partition, new FirstRoundRead(nextRequestId(), List.of(keys), clock));
    }

    ReplyBox read2(int partition, VectorClock clock, long firstRoundTime, Key... keys) {
        return send(partition, new SecondRoundRead(nextRequestId(), List.of(keys), clock, firstRoundTime));
    }

    /** Round one with a zero clock on one key: what a new client sees. */
    ReadValue readNow(int partition, Key key) {
        return read1(partition, VectorClock.zero(n), key).read().values().get(0);
    }

    ReplyBox queryOutcome(int coordinator, TxnId id) {
        return send(coordinator, new OutcomeQuery(nextRequestId(), id));
    }

    // ------------------------------------------------------------------------------------------------ raw writes

    TxnId newTxnId() {
        return new TxnId(0xC0FFEE, nextTxn++);
    }

    /**
     * A transaction writing the given (Key, String value) pairs; participants are the owners of the keys, sorted.
     */
    Txn txn(int coordinator, VectorClock clock, Object... keyValues) {
        TreeMap<Integer, List<KeyValue>> writes = new TreeMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            Key k = (Key) keyValues[i];
            writes.computeIfAbsent(topology.ownerOf(k), p -> new ArrayList<>()).add(new KeyValue(k, bytes((String) keyValues[i + 1])));
        }
        return new Txn(newTxnId(), coordinator, List.copyOf(writes.keySet()), clock, writes);
    }

    Txn txn(int coordinator, Object... keyValues) {
        return txn(coordinator, VectorClock.zero(n), keyValues);
    }

    /** A single-partition write on key k's owner, coordinated there; commits and settles at once if nothing is in the way. */
    ReplyBox writeLocal(Key k, String value) {
        int owner = topology.ownerOf(k);
        return txn(owner, k, value).sendTo(owner);
    }

    // ------------------------------------------------------------------------------------------------ peer messages

    List<Envelope> inFlight(Predicate<Envelope> which) {
        return inFlight.stream().filter(which).toList();
    }

    private void deliver(Envelope e) {
        partitions[e.to()].onPeerMessage(e.from(), e.message());
    }

    /** Delivers the first matching message in queue order; false if none matches. */
    boolean deliverOne(Predicate<Envelope> which) {
        for (int i = 0; i < inFlight.size(); i++) {
            if (which.test(inFlight.get(i))) {
                deliver(inFlight.remove(i));
                return true;
            }
        }
        return false;
    }

    /** Delivers matching messages, including ones sent meanwhile, until none is left; returns how many. */
    int deliverAll(Predicate<Envelope> which) {
        int count = 0;
        while (deliverOne(which)) {
            if (++count > 100_000) throw new AssertionError("message storm");
        }
        return count;
    }

    int deliverAll() {
        return deliverAll(any());
    }

    int drop(Predicate<Envelope> which) {
        int before = inFlight.size();
        inFlight.removeIf(which);
        return before - inFlight.size();
    }

    /** Injects the stabilization message partition {@code from} would send now (its settled prefix) into {@code to}. */
    void stabilize(int from, int to) {
        partitions[to].onPeerMessage(from, new Stabilize(from, partitions[from].snapshot().get(from)));
    }

    void stabilizeAll() {
        for (int from = 0; from < n; from++)
            for (int to = 0; to < n; to++)
                if (from != to) stabilize(from, to);
    }

    // ------------------------------------------------------------------------------------------------ keys, values

    /** The index-th test key owned by {@code owner}; deterministic, at most 12 bytes. */
    Key key(int owner, int index) {
        return keys.computeIfAbsent(List.of(owner, index), x -> {
            for (int s = 0; ; s++) {
                Key k = Key.of("k" + owner + "." + index + "." + s);
                if (topology.ownerOf(k) == owner) return k;
            }
        });
    }

    /** A key owned by {@code owner} of exactly {@code length} bytes. */
    Key keyOfLength(int owner, int length) {
        for (int s = 0; ; s++) {
            String base = "L" + s + "-";
            StringBuilder sb = new StringBuilder(base);
            while (sb.length() < length) sb.append('x');
            Key k = Key.of(sb.substring(0, length));
            if (k.length() == length && topology.ownerOf(k) == owner) return k;
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A read value as a string, or null when the key had no version in the snapshot. */
    static String str(ReadValue v) {
        return v == null || !v.exists() ? null : new String(v.value(), StandardCharsets.UTF_8);
    }

    static VectorClock clock(long... entries) {
        return VectorClock.of(entries);
    }

    static Set<Integer> setOf(List<Integer> l) {
        return Set.copyOf(l);
    }

    @Override
    public String toString() {
        return "TestCluster{now=" + now[0] + " " + Arrays.toString(partitions) + " inFlight=" + inFlight + "}";
    }
}
