package io.fastccs.it;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.fastccs.client.CausalSession;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.ReadResult;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.protocol.messages.Abort;
import io.fastccs.protocol.messages.CheckCommit;
import io.fastccs.protocol.messages.Commit;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.Hello;
import io.fastccs.core.messages.HelloReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.messages.Prepared;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.messages.RingMember;
import io.fastccs.core.messages.RingReply;
import io.fastccs.core.messages.RingRequest;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.Stabilize;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.WireCodec;
import io.fastccs.tools.cluster.NodeStatus;
import io.fastccs.testkit.ClusterView;
import io.fastccs.testkit.CheckedWorkload;
import io.fastccs.testkit.RawClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import static io.fastccs.it.TestCluster.log;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile input on the live FastCCS port of a real 3-node cluster of its own (subnet 61): thousands of random and
 * mutated frames over real sockets (truncated, oversized or negative length prefixes, peer and server messages from a
 * client, unknown message types, huge key counts, clocks of the wrong length or beyond any sequence number, empty and
 * oversized keys and values, bad participant lists, bad handshakes). Each must get an error reply or a closed
 * connection; a well-behaved client keeps reading and writing between batches; no node dies; nothing is stored
 * (rows of fastccs.versions counted through CQL). Then: a client claiming a clock beyond anything committed never
 * sees a prepared-but-uncommitted write, and honest sessions running beside such a client stay causally consistent
 * (their history, with the hostile reads in it, checked).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FuzzIT {
    static final int SUBNET = Integer.getInteger("fastccs.it.fuzzSubnet", 61);
    static final int BATCHES = Integer.getInteger("fastccs.it.fuzzBatches", 20);
    static final int FRAMES_PER_BATCH = Integer.getInteger("fastccs.it.fuzzFrames", 150);
    static final long HUGE = 1L << 50; // the largest entry a node accepts: beyond any real sequence number
    static final String GOOD = "good:";

    private static SubnetCluster cluster;
    private static ClusterView view;
    private static int n;
    private static final AtomicLong ids = new AtomicLong(1);

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = SubnetCluster.start("fuzz", SUBNET, 3);
        view = cluster.view();
        n = view.nodes();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) cluster.close();
    }

    enum Kind {
        RANDOM_BYTES, MUTATED, TRUNCATED, OVERSIZED_LENGTH, NEGATIVE_LENGTH, PEER_MESSAGE, SERVER_MESSAGE, UNKNOWN_TYPE,
        HUGE_KEY_COUNT, BAD_CLOCK, EMPTY_KEY, OVERSIZED_KEY, EMPTY_VALUE, OVERSIZED_VALUE, BAD_PARTICIPANTS, NOT_OWNER,
        BAD_HANDSHAKE
    }

    /** What the node must do with a frame. */
    enum Expect {
        /** An error reply or a closed connection. */
        REFUSE,
        /** The connection closed (an error reply before it is fine). */
        CLOSE,
        /** It decodes as a valid request (a mutation can produce one): any answer, but an answer. */
        ANSWER
    }

    enum Got { ERROR, CLOSED, ERROR_THEN_CLOSED, ANSWERED, SILENT }

    record Frame(Kind kind, byte[] bytes, Expect expect, boolean bare, boolean truncated) {
    }

    // ------------------------------------------------------------------------------------------------ 1. frames

    @Test
    @Order(1)
    void thousandsOfHostileFramesAreRefusedAndNothingIsStored() throws Exception {
        long seed = Long.getLong("fastccs.it.seed", ThreadLocalRandom.current().nextLong());
        log("fuzz seed " + seed + " (-Dfastccs.it.seed=" + seed + ")");
        Random random = new Random(seed);
        Map<Kind, Long> sent = new EnumMap<>(Kind.class);
        Map<Got, Long> got = new EnumMap<>(Got.class);
        Map<String, Long> errorCodes = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        long skippedAcceptable = 0, writeReplies = 0, goodRounds = 0;
        long rowsBefore;
        try (CqlSession cql = cql()) {
            rowsBefore = rowsOtherThanGood(cql);
        }
        try (FastCcsClient client = FastCcsClient.builder().addContactPoints(view.fastccsAddresses()).build()) {
            CausalSession good = client.session();
            Connections connections = new Connections();
            try {
                for (int batch = 0; batch < BATCHES; batch++) {
                    for (int i = 0; i < FRAMES_PER_BATCH; i++) {
                        int node = 1 + random.nextInt(n);
                        Frame f = frame(random, view.partitionOfNode(node));
                        if (f == null) {
                            skippedAcceptable++;
                            continue;
                        }
                        sent.merge(f.kind(), 1L, Long::sum);
                        Result r = connections.exchange(node, f);
                        got.merge(r.got(), 1L, Long::sum);
                        if (r.reply() instanceof ErrorReply e) errorCodes.merge(e.code().name(), 1L, Long::sum);
                        if (r.reply() instanceof WriteReply) writeReplies++;
                        boolean ok = switch (f.expect()) {
                            case REFUSE -> r.got() == Got.ERROR || r.got() == Got.CLOSED || r.got() == Got.ERROR_THEN_CLOSED;
                            case CLOSE -> r.got() == Got.CLOSED || r.got() == Got.ERROR_THEN_CLOSED;
                            case ANSWER -> r.got() != Got.SILENT;
                        };
                        if (!ok && failures.size() < 20)
                            failures.add(f.kind() + " expecting " + f.expect() + " got " + r.got() + " " + r.reply() + " frame "
                                    + hex(f.bytes()));
                    }
                    // Between batches: every node alive, and a well-behaved session writes and reads every partition.
                    for (NodeStatus s : cluster.local().status())
                        assertThat(s.processAlive()).as("node %d alive after batch %d", s.node(), batch).isTrue();
                    List<String> keys = view.keysOnEveryPartition(GOOD + batch + ":", 1);
                    Map<String, String> values = new LinkedHashMap<>();
                    for (String k : keys) values.put(k, "g" + batch);
                    good.write(values);
                    ReadResult rr = good.read(keys);
                    for (String k : keys) assertThat(rr.getString(k)).as("good read of %s after batch %d", k, batch).isEqualTo("g" + batch);
                    goodRounds++;
                }
            } finally {
                connections.close();
            }
        }
        long rowsAfter;
        try (CqlSession cql = cql()) {
            rowsAfter = rowsOtherThanGood(cql);
        }
        long total = sent.values().stream().mapToLong(Long::longValue).sum();
        log("fuzz: " + total + " frames sent over real sockets, by kind " + sent);
        log("fuzz: answers " + got + "; error codes " + errorCodes + "; mutated frames skipped because they decoded to an "
                + "acceptable write " + skippedAcceptable + "; write replies " + writeReplies);
        log("fuzz: crashes 0 (every node alive after each of " + BATCHES + " batches); well-behaved write+read rounds "
                + goodRounds + "; rows of fastccs.versions other than the good client's: " + rowsBefore + " before, "
                + rowsAfter + " after (garbage stored: " + (rowsAfter - rowsBefore) + ")");
        assertThat(failures).as("frames not refused as they should be").isEmpty();
        assertThat(writeReplies).as("hostile frames answered as writes").isZero();
        assertThat(rowsAfter - rowsBefore).as("rows stored by hostile frames").isZero();
        assertThat(got.getOrDefault(Got.SILENT, 0L)).isZero();
        assertThat(total).isGreaterThanOrEqualTo(1000);
    }

    // ------------------------------------------------------------------------------------------------ 2. clocks

    @Test
    @Order(2)
    void aClockBeyondAnythingCommittedRevealsNoUncommittedWriteAndBreaksNoHonestSession() throws Exception {
        // A prepared write that will never commit: its client sent it to partition p only, coordinator q.
        int p = 0, q = 1;
        String stuckKey = keyOn("clock:stuck:", p), otherKey = keyOn("clock:stuck-q:", q);
        TxnId stuck = new TxnId(ThreadLocalRandom.current().nextLong() | 1L << 60, 1);
        long hostileReads = 0;
        long started = System.nanoTime();
        try (RawClient dead = view.connect(view.nodeOfPartition(p), Duration.ofSeconds(5));
             RawClient hostile = view.connect(view.nodeOfPartition(p), Duration.ofSeconds(5))) {
            dead.send(new WriteRequest(1, stuck, q, List.of(p, q), List.of(new KeyValue(Key.of(stuckKey),
                    "uncommitted".getBytes(StandardCharsets.UTF_8))), VectorClock.zero(n), 0));
            // While it is pending (transaction_timeout is 2 s), read it with clocks claiming everything is settled.
            while (System.nanoTime() - started < 1_500_000_000L) {
                for (long e : new long[]{HUGE, 1L << 40, 1_000_000}) {
                    long[] clock = new long[n];
                    Arrays.fill(clock, e);
                    Message m = hostile.exchange(new FirstRoundRead(ids.incrementAndGet(), List.of(Key.of(stuckKey)), VectorClock.of(clock)));
                    assertThat(m).isInstanceOf(ReadReply.class);
                    assertThat(((ReadReply) m).values().get(0).exists()).as("round one at clock %s", Arrays.toString(clock)).isFalse();
                    Message m2 = hostile.exchange(new SecondRoundRead(ids.incrementAndGet(), List.of(Key.of(stuckKey)),
                            VectorClock.of(clock), ((ReadReply) m).serverTime()));
                    assertThat(m2).isInstanceOf(ReadReply.class);
                    assertThat(((ReadReply) m2).values().get(0).exists()).as("round two at clock %s", Arrays.toString(clock)).isFalse();
                    hostileReads += 2;
                }
            }
        }
        Outcome outcome = Outcome.UNDECIDED;
        for (int i = 0; i < 40 && outcome == Outcome.UNDECIDED; i++) {
            try (RawClient c = view.connect(view.nodeOfPartition(q), Duration.ofSeconds(5))) {
                if (c.exchange(new OutcomeQuery(ids.incrementAndGet(), stuck)) instanceof OutcomeReply r) outcome = r.outcome();
            }
            if (outcome == Outcome.UNDECIDED) Thread.sleep(250);
        }
        assertThat(outcome).as("the stuck write").isEqualTo(Outcome.ABORTED);
        try (RawClient hostile = view.connect(view.nodeOfPartition(p), Duration.ofSeconds(5))) {
            long[] clock = new long[n];
            Arrays.fill(clock, HUGE);
            ReadReply r = (ReadReply) hostile.exchange(new FirstRoundRead(ids.incrementAndGet(), List.of(Key.of(stuckKey)), VectorClock.of(clock)));
            assertThat(r.values().get(0).exists()).as("the aborted write at a huge clock").isFalse();
        }
        log("future clocks: " + hostileReads + " reads (rounds one and two) at clocks up to 2^50 while a write was prepared "
                + "and not committed: none returned it; it was then aborted and stays invisible");

        // Forged-clock writes (a version whose commit clock claims other partitions' sequence 2^40) and forged-clock
        // reads, beside honest sessions, dead clients and a recorded history.
        long seed = ThreadLocalRandom.current().nextLong();
        log("clock workload seed " + seed);
        List<String> forgedKeys = new ArrayList<>();
        long forgedCommitted = 0, foreignReads = 0, deadClients = 0;
        try (FastCcsClient a = FastCcsClient.builder().addContactPoints(view.fastccsAddresses()).build();
             FastCcsClient b = FastCcsClient.builder().addContactPoints(view.fastccsAddresses()).build()) {
            CheckedWorkload workload = new CheckedWorkload(view, List.of(a, b), "clock:w:", 6, 60, 3, 0.4, seed);
            workload.start();
            Random random = new Random(seed);
            java.util.SplittableRandom split = new java.util.SplittableRandom(seed);
            RawClient[] raw = new RawClient[n + 1];
            try {
                for (int node = 1; node <= n; node++) raw[node] = view.connect(node, Duration.ofSeconds(5));
                long end = System.nanoTime() + Duration.ofSeconds(Long.getLong("fastccs.it.clockSeconds", 20)).toNanos();
                for (int i = 0; System.nanoTime() - end < 0; i++) {
                    int node = 1 + random.nextInt(n);
                    int part = view.partitionOfNode(node);
                    long[] clock = new long[n];
                    for (int k = 0; k < n; k++) clock[k] = random.nextBoolean() ? HUGE : (1L << (20 + random.nextInt(30)));
                    if (i % 25 == 0) {
                        // A forged write: committed on its own partition, with a commit clock no honest client reaches.
                        String fk = keyOn("clock:forged:" + i + ":", part);
                        Message m = raw[node].exchange(new WriteRequest(ids.incrementAndGet(), new TxnId(seed, i), part, List.of(part),
                                List.of(new KeyValue(Key.of(fk), "forged".getBytes(StandardCharsets.UTF_8))), VectorClock.of(clock), 0));
                        if (m instanceof WriteReply w && w.outcome() == Outcome.COMMITTED) forgedCommitted++;
                        forgedKeys.add(fk);
                    } else if (i % 40 == 1) {
                        if (workload.deadClientWrite(split) != null) deadClients++;
                    } else {
                        long k;
                        do k = random.nextInt(workload.keyCount()); while (view.ownerOf(workload.key(k)) != part);
                        Message m = raw[node].exchange(new FirstRoundRead(ids.incrementAndGet(), List.of(Key.of(workload.key(k))),
                                VectorClock.of(clock)));
                        assertThat(m).isInstanceOf(ReadReply.class);
                        ReadValue v = ((ReadReply) m).values().get(0);
                        workload.recordForeignRead(k, v.exists() ? Long.parseLong(new String(v.value(), StandardCharsets.UTF_8)) : 0);
                        foreignReads++;
                    }
                    Thread.sleep(5);
                }
            } finally {
                for (RawClient c : raw) if (c != null) c.close();
                workload.stop();
            }
            try (FastCcsClient last = FastCcsClient.builder().addContactPoints(view.fastccsAddresses()).build()) {
                CheckedWorkload.Result r = workload.finish(last, Duration.ofSeconds(2), null, TestCluster::log);
                ReadResult forged = last.session().read(forgedKeys);
                long visible = forgedKeys.stream().filter(forged::exists).count();
                log(String.format("clock workload: %d honest transactions (%d writes acknowledged), %d reads at forged clocks "
                                + "recorded in the history, %d forged-clock writes (%d committed, %d visible to an honest session "
                                + "afterwards), %d dead clients' writes (%d aborted); checker: %s; anomalies %d %s; lost "
                                + "acknowledged writes %d; violations %s", r.transactions(), r.writesAcknowledged(), foreignReads,
                        forgedKeys.size(), forgedCommitted, visible, deadClients, r.deadClientAborted(), r.check().summary(),
                        r.check().totalAnomalies(), r.check().counts(), r.lostAcknowledged(), r.violations()));
                assertThat(r.check().ok()).as("TCC anomalies: %s", r.check().anomalies().stream().limit(20).toList()).isTrue();
                assertThat(r.violations()).isEmpty();
                assertThat(r.lostAcknowledged()).isZero();
                assertThat(r.deadClientCommitted()).isZero();
                assertThat(visible).as("forged-clock versions visible to an honest session").isZero();
                assertThat(foreignReads).isPositive();
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ frames

    /** One frame of a random kind aimed at partition {@code p}; null for a mutation that became an acceptable write. */
    private static Frame frame(Random r, int p) {
        Kind kind = Kind.values()[r.nextInt(Kind.values().length)];
        if (kind == Kind.OVERSIZED_VALUE && r.nextInt(8) != 0) kind = Kind.MUTATED; // 1 MiB each: fewer of them
        String ownKey = keyOn("fuzz:" + r.nextInt(1000) + ":", p);
        int q = (p + 1) % n;
        switch (kind) {
            case RANDOM_BYTES -> {
                byte[] b = new byte[1 + r.nextInt(300)];
                r.nextBytes(b);
                return checked(kind, b, p);
            }
            case MUTATED -> {
                return checked(kind, mutate(r, WireCodec.encode(baseMessage(r, p, ownKey))), p);
            }
            case TRUNCATED -> {
                byte[] b = WireCodec.encode(baseMessage(r, p, ownKey));
                int keep = r.nextInt(b.length);
                ByteBuffer buf = ByteBuffer.allocate(4 + keep).putInt(b.length).put(b, 0, keep);
                return new Frame(kind, buf.array(), Expect.CLOSE, false, true);
            }
            case OVERSIZED_LENGTH -> {
                int length = (16 << 20) + 1 + r.nextInt(Integer.MAX_VALUE - (16 << 20) - 1);
                return new Frame(kind, ByteBuffer.allocate(12).putInt(length).putLong(r.nextLong()).array(), Expect.CLOSE, false, false);
            }
            case NEGATIVE_LENGTH -> {
                int length = -1 - r.nextInt(Integer.MAX_VALUE);
                return new Frame(kind, ByteBuffer.allocate(12).putInt(length).putLong(r.nextLong()).array(), Expect.CLOSE, false, false);
            }
            case PEER_MESSAGE -> {
                TxnId id = new TxnId(r.nextLong(), 1 + r.nextInt(1000));
                Message m = switch (r.nextInt(5)) {
                    case 0 -> new Prepared(id, q, 1 + r.nextInt(100), List.of(p, q), r.nextInt(1_000_000));
                    case 1 -> new Commit(id, VectorClock.of(clock(r, 1L << 20)), 0);
                    case 2 -> new Abort(id);
                    case 3 -> new CheckCommit(id, q);
                    default -> new Stabilize(q, HUGE);
                };
                return framed(kind, WireCodec.encode(m), Expect.REFUSE);
            }
            case SERVER_MESSAGE -> {
                Message m = switch (r.nextInt(6)) {
                    case 0 -> new HelloReply(Hello.PROTOCOL_VERSION, q, n);
                    case 1 -> new ReadReply(ids.incrementAndGet(), List.of(new ReadValue(Key.of(ownKey), new byte[]{1}, 3)),
                            VectorClock.of(clock(r, HUGE)), VectorClock.of(clock(r, HUGE)), 0, 1, List.of(), false);
                    case 2 -> new WriteReply(ids.incrementAndGet(), new TxnId(r.nextLong(), 1), Outcome.COMMITTED, VectorClock.of(clock(r, HUGE)), 0);
                    case 3 -> ErrorReply.of(ids.incrementAndGet(), ErrorCode.INTERNAL, "x");
                    case 4 -> new RingReply(ids.incrementAndGet(), List.of(new RingMember(0, "127.0.0.1", 9142, 0, true)));
                    default -> Hello.client(null, null); // a second Hello
                };
                return framed(kind, WireCodec.encode(m), Expect.REFUSE);
            }
            case UNKNOWN_TYPE -> {
                int field = 100 + r.nextInt(3000);
                ByteBuffer b = ByteBuffer.allocate(16).put((byte) 0x1c).put((byte) 0x0c);
                int zig = field << 1; // zigzag of a positive i16
                while ((zig & ~0x7f) != 0) {
                    b.put((byte) ((zig & 0x7f) | 0x80));
                    zig >>>= 7;
                }
                b.put((byte) zig).put((byte) 0).put((byte) 0).put((byte) 0);
                return framed(kind, Arrays.copyOf(b.array(), b.position()), Expect.REFUSE);
            }
            case HUGE_KEY_COUNT -> {
                if (r.nextBoolean()) {
                    List<Key> keys = new ArrayList<>();
                    int count = 1025 + r.nextInt(3000);
                    for (int i = 0; i < count; i++) keys.add(Key.of("fuzz:many:" + i));
                    return framed(kind, WireCodec.encode(new FirstRoundRead(ids.incrementAndGet(), keys, VectorClock.zero(n))), Expect.REFUSE);
                }
                List<KeyValue> writes = new ArrayList<>();
                int count = 1025 + r.nextInt(1000);
                for (int i = 0; writes.size() < count; i++) {
                    String k = "fuzz:many-w:" + i;
                    if (view.ownerOf(k) == p) writes.add(new KeyValue(Key.of(k), new byte[]{7}));
                }
                return framed(kind, WireCodec.encode(new WriteRequest(ids.incrementAndGet(), new TxnId(r.nextLong(), 1), p,
                        List.of(p), writes, VectorClock.zero(n), 0)), Expect.REFUSE);
            }
            case BAD_CLOCK -> {
                long[] clock;
                if (r.nextBoolean()) {
                    int[] sizes = {1, n - 1, n + 1, 64, 5000};
                    clock = new long[sizes[r.nextInt(sizes.length)]];
                } else {
                    clock = new long[n];
                    clock[r.nextInt(n)] = HUGE + 1 + (r.nextLong() & (Long.MAX_VALUE >>> 2));
                }
                Message m = r.nextBoolean()
                        ? new FirstRoundRead(ids.incrementAndGet(), List.of(Key.of(ownKey)), VectorClock.of(clock))
                        : write(r, p, List.of(p), p, ownKey, new byte[]{1}, VectorClock.of(clock));
                return framed(kind, WireCodec.encode(m), Expect.REFUSE);
            }
            case EMPTY_KEY -> {
                Message m = r.nextBoolean() ? new FirstRoundRead(ids.incrementAndGet(), List.of(Key.of(new byte[0])), VectorClock.zero(n))
                        : write(r, p, List.of(p), p, "", new byte[]{1}, VectorClock.zero(n));
                return framed(kind, WireCodec.encode(m), Expect.REFUSE);
            }
            case OVERSIZED_KEY -> {
                byte[] key = new byte[65536 + r.nextInt(1000)];
                Arrays.fill(key, (byte) 'k');
                Message m = r.nextBoolean() ? new FirstRoundRead(ids.incrementAndGet(), List.of(Key.of(key)), VectorClock.zero(n))
                        : new WriteRequest(ids.incrementAndGet(), new TxnId(r.nextLong(), 1), p, List.of(p),
                        List.of(new KeyValue(Key.of(key), new byte[]{1})), VectorClock.zero(n), 0);
                return framed(kind, WireCodec.encode(m), Expect.REFUSE);
            }
            case EMPTY_VALUE -> {
                return framed(kind, WireCodec.encode(write(r, p, List.of(p), p, ownKey, new byte[0], VectorClock.zero(n))), Expect.REFUSE);
            }
            case OVERSIZED_VALUE -> {
                byte[] v = new byte[(1 << 20) + 1 + r.nextInt(1000)];
                return framed(kind, WireCodec.encode(write(r, p, List.of(p), p, ownKey, v, VectorClock.zero(n))), Expect.REFUSE);
            }
            case BAD_PARTICIPANTS -> {
                List<Integer> participants;
                int coordinator = p;
                switch (r.nextInt(5)) {
                    case 0 -> participants = List.of(p, n + r.nextInt(100));
                    case 1 -> participants = List.of(p, p);
                    case 2 -> participants = List.of(q); // does not include the receiving partition
                    case 3 -> {
                        participants = List.of(p);
                        coordinator = q; // coordinator not a participant
                    }
                    default -> participants = List.of();
                }
                return framed(kind, WireCodec.encode(write(r, p, participants, coordinator, ownKey, new byte[]{1}, VectorClock.zero(n))), Expect.REFUSE);
            }
            case NOT_OWNER -> {
                String other = keyOn("fuzz:elsewhere:" + r.nextInt(1000) + ":", q);
                Message m = r.nextBoolean() ? new FirstRoundRead(ids.incrementAndGet(), List.of(Key.of(other)), VectorClock.zero(n))
                        : write(r, p, List.of(p), p, other, new byte[]{1}, VectorClock.zero(n));
                return framed(kind, WireCodec.encode(m), Expect.REFUSE);
            }
            case BAD_HANDSHAKE -> {
                Message m = switch (r.nextInt(4)) {
                    case 0 -> new FirstRoundRead(ids.incrementAndGet(), List.of(Key.of(ownKey)), VectorClock.zero(n));
                    case 1 -> new Hello(Hello.PROTOCOL_VERSION + 1 + r.nextInt(100), -1, null, null);
                    case 2 -> Hello.peer(q); // from 127.0.0.1: not that member's address
                    default -> Hello.peer(n + r.nextInt(50));
                };
                byte[] b = WireCodec.encode(m);
                return new Frame(kind, ByteBuffer.allocate(4 + b.length).putInt(b.length).put(b).array(), Expect.CLOSE, true, false);
            }
        }
        throw new AssertionError(kind);
    }

    private static Frame framed(Kind kind, byte[] body, Expect expect) {
        return new Frame(kind, ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array(), expect, false, false);
    }

    private static WriteRequest write(Random r, int p, List<Integer> participants, int coordinator, String key, byte[] value, VectorClock clock) {
        return new WriteRequest(ids.incrementAndGet(), new TxnId(r.nextLong(), 1 + r.nextInt(1000)), coordinator, participants,
                List.of(new KeyValue(Key.of(key), value)), clock, 0);
    }

    private static long[] clock(Random r, long bound) {
        long[] c = new long[n];
        for (int i = 0; i < n; i++) c[i] = (r.nextLong() & Long.MAX_VALUE) % bound;
        return c;
    }

    /** A message worth mutating: requests of every kind, including writes that the node would refuse. */
    private static Message baseMessage(Random r, int p, String ownKey) {
        int q = (p + 1) % n;
        return switch (r.nextInt(6)) {
            case 0 -> new FirstRoundRead(ids.incrementAndGet(), List.of(Key.of(ownKey), Key.of(ownKey + "x")), VectorClock.of(clock(r, 1000)));
            case 1 -> new SecondRoundRead(ids.incrementAndGet(), List.of(Key.of(ownKey)), VectorClock.of(clock(r, 1000)), r.nextLong() & Long.MAX_VALUE);
            case 2 -> write(r, p, List.of(p, q), q, ownKey, "fuzzed".getBytes(StandardCharsets.UTF_8), VectorClock.zero(n));
            case 3 -> write(r, p, List.of(p), p, ownKey, "fuzzed".getBytes(StandardCharsets.UTF_8), VectorClock.of(clock(r, 100)));
            case 4 -> new OutcomeQuery(ids.incrementAndGet(), new TxnId(r.nextLong(), r.nextInt(1000)));
            default -> new RingRequest(ids.incrementAndGet());
        };
    }

    private static byte[] mutate(Random r, byte[] b) {
        byte[] out = b;
        int mutations = 1 + r.nextInt(4);
        for (int i = 0; i < mutations; i++) {
            if (out.length == 0) out = new byte[]{(byte) r.nextInt()};
            int at = r.nextInt(out.length);
            switch (r.nextInt(6)) {
                case 0 -> out[at] ^= (byte) (1 << r.nextInt(8));
                case 1 -> out[at] = (byte) r.nextInt();
                case 2 -> { // insert
                    byte[] x = new byte[out.length + 1];
                    System.arraycopy(out, 0, x, 0, at);
                    x[at] = (byte) r.nextInt();
                    System.arraycopy(out, at, x, at + 1, out.length - at);
                    out = x;
                }
                case 3 -> { // delete
                    byte[] x = new byte[out.length - 1];
                    System.arraycopy(out, 0, x, 0, at);
                    System.arraycopy(out, at + 1, x, at, out.length - at - 1);
                    out = x;
                }
                case 4 -> out = Arrays.copyOf(out, at); // truncate the message (the length prefix stays right)
                default -> { // a varint turned huge: 0xff bytes
                    int len = Math.min(out.length - at, 1 + r.nextInt(5));
                    for (int j = 0; j < len; j++) out[at + j] = (byte) 0xff;
                }
            }
        }
        return out;
    }

    private static Message decode(byte[] b) {
        try {
            return WireCodec.decode(b);
        } catch (MalformedFrameException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Random or mutated bytes: what the node must do depends on what they decode to. Bytes that do not decode, and
     * writes the node must refuse, must be refused; a write the node could accept is not sent (null), since storing it
     * would be right; anything else that decodes (a read, an outcome query...) must be answered somehow.
     */
    private static Frame checked(Kind kind, byte[] b, int p) {
        Message m = decode(b);
        if (m instanceof WriteRequest w && plausiblyAcceptable(w, p)) return null;
        return framed(kind, b, m == null || m instanceof WriteRequest ? Expect.REFUSE : Expect.ANSWER);
    }

    /** Whether partition {@code p} could accept {@code w} as a valid write (which would then rightly be stored). */
    private static boolean plausiblyAcceptable(WriteRequest w, int p) {
        if (w.clock().size() != n || w.participants().isEmpty() || !w.participants().contains(p)) return false;
        if (!w.participants().contains(w.coordinator())) return false;
        Set<Integer> seen = new HashSet<>();
        for (Integer x : w.participants()) if (x == null || x < 0 || x >= n || !seen.add(x)) return false;
        for (int k = 0; k < n; k++) if (w.clock().get(k) > HUGE) return false;
        if (w.writes().isEmpty() || w.writes().size() > 1024) return false;
        for (KeyValue kv : w.writes()) {
            if (kv.key().length() == 0 || kv.key().length() > 65535 || view.ring().ownerOf(kv.key()) != p) return false;
            if (kv.value() == null || kv.value().length == 0 || kv.value().length > (1 << 20)) return false;
        }
        return true; // duplicate keys would be refused too; counting them as acceptable only skips more frames
    }

    private static String keyOn(String prefix, int partition) {
        for (int i = 0; ; i++) if (view.ownerOf(prefix + i) == partition) return prefix + i;
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(b.length, 48); i++) s.append(String.format("%02x", b[i]));
        return s + (b.length > 48 ? "...(" + b.length + " bytes)" : "");
    }

    // ------------------------------------------------------------------------------------------------ sockets

    record Result(Got got, Message reply) {
    }

    /** One handshaken connection per node, replaced every few frames (a node closes after 16 malformed ones). */
    private static final class Connections implements AutoCloseable {
        private final RawClient[] open = new RawClient[16];
        private final int[] used = new int[16];

        Result exchange(int node, Frame f) throws IOException {
            if (f.bare() || f.truncated() || f.expect() == Expect.CLOSE) {
                try (RawClient c = f.bare() ? RawClient.openBare(view.fastccsAddress(node), Duration.ofSeconds(5))
                        : view.connect(node, Duration.ofSeconds(5))) {
                    c.setTimeout(Duration.ofSeconds(5));
                    return sendAndRead(c, f);
                }
            }
            if (open[node] == null || used[node] >= 8) {
                if (open[node] != null) open[node].close();
                open[node] = view.connect(node, Duration.ofSeconds(5));
                open[node].setTimeout(Duration.ofSeconds(5));
                used[node] = 0;
            }
            used[node]++;
            Result r = sendAndRead(open[node], f);
            if (r.got() == Got.CLOSED || r.got() == Got.ERROR_THEN_CLOSED || r.got() == Got.SILENT) {
                open[node].close();
                open[node] = null;
            }
            return r;
        }

        private Result sendAndRead(RawClient c, Frame f) throws IOException {
            try {
                c.sendBytes(f.bytes());
            } catch (IOException e) {
                return new Result(Got.CLOSED, null);
            }
            if (f.truncated()) {
                c.shutdownOutput(); // the rest never comes: the node must give up on the frame and close
                return new Result(c.closedByNode() ? Got.CLOSED : Got.SILENT, null);
            }
            Message reply;
            try {
                reply = c.receive();
            } catch (SocketTimeoutException e) {
                return new Result(Got.SILENT, null);
            } catch (EOFException e) {
                return new Result(Got.CLOSED, null);
            } catch (IOException e) {
                return new Result(Got.CLOSED, null);
            }
            if (reply instanceof ErrorReply) {
                if (f.expect() == Expect.CLOSE) return new Result(c.closedByNode() ? Got.ERROR_THEN_CLOSED : Got.ERROR, reply);
                return new Result(Got.ERROR, reply);
            }
            return new Result(Got.ANSWERED, reply);
        }

        @Override
        public void close() {
            for (RawClient c : open) if (c != null) c.close();
        }
    }

    private static CqlSession cql() {
        return CqlSession.builder().addContactPoint(view.cqlAddress(1)).withLocalDatacenter("datacenter1").build();
    }

    /** Rows of fastccs.versions whose key is not one of the well-behaved client's. */
    private static long rowsOtherThanGood(CqlSession cql) {
        long count = 0;
        for (Row row : cql.execute("SELECT key FROM fastccs.versions")) {
            ByteBuffer k = row.getByteBuffer("key");
            byte[] bytes = new byte[k.remaining()];
            k.duplicate().get(bytes);
            if (!new String(bytes, StandardCharsets.ISO_8859_1).startsWith(GOOD)) count++;
        }
        return count;
    }
}
