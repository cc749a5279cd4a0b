package io.fastccs.it;

import io.fastccs.testkit.CheckedWorkload;
import io.fastccs.testkit.RawClient;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.fastccs.check.CheckResult;
import io.fastccs.client.CausalSession;
import io.fastccs.client.CausalToken;
import io.fastccs.client.FastCcsClient;
import io.fastccs.client.FastCcsException;
import io.fastccs.client.InvalidRequestException;
import io.fastccs.client.ReadResult;
import io.fastccs.client.WriteOutcome;
import io.fastccs.client.WriteResult;
import io.fastccs.client.WriteTimeoutException;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Message;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.messages.RingReply;
import io.fastccs.core.messages.RingRequest;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.tools.cluster.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.fastccs.it.TestCluster.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * FastCCS end to end on a real local cluster: three Cassandra 5.0.9 nodes with the plugin, the Java client over real
 * sockets, the stored versions read back through CQL, a concurrent workload checked for TCC while node 2 is
 * SIGKILLed and restarted, bad requests from raw sockets, and a client that rides out a node restart by itself.
 * One cluster for the whole class; the tests run in order and share it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealClusterIT {
    private static final int KILLED_NODE = 2;
    private static final int RESTARTED_NODE = 3;

    private static TestCluster cluster;
    private static FastCcsClient client;
    private static final AtomicLong requestIds = new AtomicLong(1);

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = TestCluster.start();
        client = newClient();
        for (int node = 1; node <= TestCluster.NODES; node++)
            log("node " + node + " is partition " + cluster.partitionOfNode(node) + " (token " + cluster.ring()
                    .token(cluster.partitionOfNode(node)) + ")");
    }

    @AfterAll
    static void stopCluster() {
        try {
            if (client != null) client.close();
        } finally {
            if (cluster != null) cluster.close();
        }
    }

    private static FastCcsClient newClient() {
        return FastCcsClient.builder()
                .addContactPoint(TestCluster.fastccsAddress(1))
                .addContactPoint(TestCluster.fastccsAddress(3))
                .withReconnectDelay(Duration.ofMillis(100), Duration.ofSeconds(2))
                .build();
    }

    private static CqlSession cql() {
        return CqlSession.builder()
                .addContactPoint(TestCluster.cqlAddress(1))
                .withLocalDatacenter("datacenter1")
                .build();
    }

    // ------------------------------------------------------------------------------------------------ 1. basics

    @Test
    @Order(1)
    void writeOnlyAndReadOnlyTransactionsAcrossThePartitionsAreStoredInCassandra() {
        CausalSession session = client.session();
        List<String> keys = keysOnEveryPartition("basic:", 3);
        Map<String, String> first = new LinkedHashMap<>();
        for (String k : keys) first.put(k, "v1-" + k);
        WriteResult w1 = session.write(first);
        assertThat(w1.partitionsTouched()).isEqualTo(3);
        assertThat(w1.size()).isEqualTo(keys.size());
        assertThat(w1.commitClock()).hasSize(3);

        ReadResult r1 = session.read(keys);
        log("read of " + keys.size() + " keys on " + r1.partitionsTouched() + " partitions after a write: " + r1.rounds()
                + " round(s), " + r1.secondRoundPartitions() + " partition(s) read again");
        for (String k : keys) assertThat(r1.getString(k)).as(k).isEqualTo(first.get(k));
        assertThat(r1.partitionsTouched()).isEqualTo(3);
        assertThat(r1.rounds()).isBetween(1, 2);

        // Overwrite one key per partition: the newer version wins, the others stay.
        Map<String, String> second = new LinkedHashMap<>();
        for (int p = 0; p < 3; p++) {
            int partition = p;
            String k = keys.stream().filter(x -> cluster.ownerOf(x) == partition).findFirst().orElseThrow();
            second.put(k, "v2-" + k);
        }
        WriteResult w2 = session.write(second);
        assertThat(w2.commitTime()).as("a later write of the session has a later commit time").isGreaterThan(w1.commitTime());
        assertThat(VectorClock.of(w1.commitClock()).leq(VectorClock.of(w2.commitClock()))).isTrue();
        ReadResult r2 = session.read(keys);
        log("read after the overwrite: " + r2.rounds() + " round(s)");
        for (String k : keys) assertThat(r2.getString(k)).as(k).isEqualTo(second.getOrDefault(k, first.get(k)));

        // A session of another client, resumed from the first one's token, sees the same.
        try (FastCcsClient other = newClient()) {
            ReadResult r3 = other.session(session.exportToken()).read(keys);
            for (String k : keys) assertThat(r3.getString(k)).as(k).isEqualTo(second.getOrDefault(k, first.get(k)));
        }

        // The versions really are rows of fastccs.versions on the owning node, with the commit clock.
        try (CqlSession cql = cql()) {
            PreparedStatement select = cql.prepare("SELECT sequence, clock, value FROM fastccs.versions WHERE key = ?");
            for (String k : keys) {
                WriteResult newest = second.containsKey(k) ? w2 : w1;
                String value = second.getOrDefault(k, first.get(k));
                long sequence = newest.commitClock()[cluster.ownerOf(k)];
                List<Row> rows = cql.execute(select.bind(bytes(k))).all();
                Row row = rows.stream().filter(x -> x.getLong("sequence") == sequence).findFirst()
                        .orElseThrow(() -> new AssertionError("no row of " + k + " with sequence " + sequence + " in " + rows.size()));
                assertThat(string(row.getByteBuffer("value"))).isEqualTo(value);
                ByteBuffer commit = row.getByteBuffer("clock").duplicate();
                assertThat(readClock(commit)).containsExactly(newest.commitClock());
                assertThat(varint(commit)).as("the commit time after the clock").isEqualTo(newest.commitTime());
                assertThat(commit.hasRemaining()).as("trailing bytes after a stored commit").isFalse();
            }
            log("CQL: fastccs.versions holds the newest version of each of the " + keys.size() + " keys with its commit clock and time");
        }
    }

    // ------------------------------------------------------------------------------------------------ 2. tokens

    @Test
    @Order(2)
    void causalityCarriesAcrossClientsThroughAnExportedToken() {
        try (FastCcsClient other = newClient()) {
            int rounds = 10;
            int oneRound = 0;
            for (int i = 0; i < rounds; i++) {
                List<String> keys = keysOnEveryPartition("token:" + i + ":", 1);
                Map<String, String> values = new LinkedHashMap<>();
                for (String k : keys) values.put(k, "a" + i);
                CausalSession a = client.session();
                a.write(values);
                String token = a.exportToken().toString();
                // Another client, another session, nothing shared but the token's text.
                CausalSession b = other.session(CausalToken.parse(token));
                ReadResult r = b.read(keys);
                for (String k : keys) assertThat(r.getString(k)).as("round %d, %s", i, k).isEqualTo("a" + i);
                if (r.rounds() == 1) oneRound++;
                // And back: b writes over it, a session of the first client resumes from b's token.
                Map<String, String> next = new LinkedHashMap<>();
                for (String k : keys) next.put(k, "b" + i);
                b.write(next);
                ReadResult back = client.session(CausalToken.parse(b.exportToken().toString())).read(keys);
                for (String k : keys) assertThat(back.getString(k)).as("round %d back, %s", i, k).isEqualTo("b" + i);
            }
            log("token handover: " + rounds + " of " + rounds + " resumed sessions saw the exporter's write at once ("
                    + oneRound + " in one round)");
        }
    }

    // ------------------------------------------------------------------------------------------------ 3. bad requests

    @Test
    @Order(3)
    void badRequestsAreRefusedClearlyWhileTheNodesServeOthers() throws Exception {
        WellBehaved good = new WellBehaved(client, keysOnEveryPartition("good:", 1));
        good.start();
        try {
            // Through the client: refused before anything is sent; the session stays usable.
            CausalSession session = client.session();
            assertThatThrownBy(() -> session.read("")).isInstanceOf(InvalidRequestException.class);
            assertThatThrownBy(() -> session.write(Map.of("", "v"))).isInstanceOf(InvalidRequestException.class);
            String big = "x".repeat((1 << 20) + 1);
            assertThatThrownBy(() -> session.write(Map.of("bad:big-client", big)))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("value");
            assertThatThrownBy(() -> session.write(Map.of("bad:empty-client", ""))).isInstanceOf(InvalidRequestException.class);
            assertThat(session.hasUnconfirmedWrite()).isFalse();
            session.write(Map.of("bad:after", "fine"));
            assertThat(session.read("bad:after").getString("bad:after")).isEqualTo("fine");
            log("client refused the empty key, the empty and the oversized value before sending; the session went on");

            // A key owned by another node: NOT_OWNER, naming the owner.
            String elsewhere = "bad:elsewhere";
            int owner = cluster.ownerOf(elsewhere);
            int wrongPartition = (owner + 1) % 3;
            int wrongNode = cluster.nodeOfPartition(wrongPartition);
            try (RawClient c = cluster.connect(wrongNode)) {
                ErrorReply e = error(c.exchange(new FirstRoundRead(77, List.of(Key.of(elsewhere)), VectorClock.zero(3))));
                assertThat(e.code()).isEqualTo(ErrorCode.NOT_OWNER);
                assertThat(e.owner()).isEqualTo(owner);
                assertThat(e.requestId()).isEqualTo(77);
                assertThat(e.message()).contains("partition " + owner);
                log("node " + wrongNode + " refused a read of a key of partition " + owner + ": " + e.code() + " owner="
                        + e.owner() + " \"" + e.message() + "\"");
                ErrorReply w = error(c.exchange(write(78, wrongPartition, elsewhere, "x".getBytes(StandardCharsets.UTF_8))));
                assertThat(w.code()).isEqualTo(ErrorCode.NOT_OWNER);
                assertThat(w.owner()).isEqualTo(owner);
                assertUsable(c, wrongPartition);
            }

            // The node's own checks: empty key, empty value, oversized value.
            int p = cluster.ownerOf("bad:big");
            try (RawClient c = cluster.connect(cluster.nodeOfPartition(p))) {
                ErrorReply emptyRead = error(c.exchange(new FirstRoundRead(80, List.of(Key.of(new byte[0])), VectorClock.zero(3))));
                assertThat(emptyRead.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
                assertThat(emptyRead.message()).contains("empty key");
                ErrorReply emptyWrite = error(c.exchange(write(81, p, "", "v".getBytes(StandardCharsets.UTF_8))));
                assertThat(emptyWrite.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
                ErrorReply emptyValue = error(c.exchange(write(82, p, "bad:big", new byte[0])));
                assertThat(emptyValue.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
                assertThat(emptyValue.message()).contains("empty value");
                ErrorReply oversized = error(c.exchange(write(83, p, "bad:big", new byte[(1 << 20) + 1])));
                assertThat(oversized.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
                assertThat(oversized.message()).contains("more than the maximum");
                log("node " + cluster.nodeOfPartition(p) + " refused: empty key \"" + emptyRead.message() + "\"; empty value \""
                        + emptyValue.message() + "\"; oversized value \"" + oversized.message() + "\"");
                assertUsable(c, p);
            }

            // Garbage bytes: MALFORMED_FRAME, and the connection stays usable.
            try (RawClient c = cluster.connect(1)) {
                c.sendFrame(new byte[]{1, 2, 3, 4, 5});
                ErrorReply e = error(c.receive());
                assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_FRAME);
                c.sendFrame(new byte[]{(byte) 0xff, (byte) 0xfe, 0x00, 0x7f, 0x13, 0x37, 0x42});
                assertThat(error(c.receive()).code()).isEqualTo(ErrorCode.MALFORMED_FRAME);
                assertUsable(c, cluster.partitionOfNode(1));
                log("garbage frames: " + e.code() + " \"" + e.message() + "\"; the connection still serves");
            }

            // A well-formed frame of a message type the node does not know (Body union field 99): UNKNOWN_MESSAGE.
            try (RawClient c = cluster.connect(2)) {
                // Compact protocol: Frame.body (field 1, struct) { field 99, struct {} } stop, stop.
                c.sendFrame(new byte[]{0x1c, 0x0c, (byte) 0xc6, 0x01, 0x00, 0x00, 0x00});
                ErrorReply e = error(c.receive());
                assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_MESSAGE);
                assertUsable(c, cluster.partitionOfNode(2));
                log("unknown message type: " + e.code() + " \"" + e.message() + "\"; the connection still serves");
            }

            // A length prefix beyond the node's frame limit: that connection is closed, the node serves on.
            try (RawClient c = cluster.connect(3)) {
                c.sendBytes(ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE - 15).array());
                assertThat(c.closedByNode()).as("connection closed after an oversized length prefix").isTrue();
            }
            try (RawClient c = cluster.connect(3)) {
                assertUsable(c, cluster.partitionOfNode(3));
            }
            log("oversized length prefix: connection closed; node 3 accepts new connections and serves");
            Thread.sleep(500);
        } finally {
            good.stop();
        }
        log("the well-behaved client meanwhile: " + good.successes() + " write+read rounds, " + good.failures() + " failures");
        assertThat(good.failures()).as("failures of the well-behaved client: %s", good.firstFailure()).isZero();
        assertThat(good.successes()).isPositive();

        // Nothing of the refused requests was stored.
        ReadResult r = client.session().read("bad:elsewhere", "bad:big", "bad:big-client", "bad:empty-client");
        for (Key k : List.of(Key.of("bad:elsewhere"), Key.of("bad:big"), Key.of("bad:big-client"), Key.of("bad:empty-client")))
            assertThat(r.exists(k.toBytes())).as("%s exists", k).isFalse();
        try (CqlSession cql = cql()) {
            PreparedStatement select = cql.prepare("SELECT sequence FROM fastccs.versions WHERE key = ?");
            for (String k : List.of("bad:elsewhere", "bad:big", "bad:big-client", "bad:empty-client"))
                assertThat(cql.execute(select.bind(bytes(k))).all()).as("rows of %s", k).isEmpty();
            long total = cql.execute("SELECT key FROM fastccs.versions").all().stream()
                    .filter(row -> row.getByteBuffer("key").remaining() == 0).count();
            assertThat(total).as("rows with an empty key").isZero();
        }
        log("no row of any refused key in fastccs.versions");
    }

    // ------------------------------------------------------------------------------------------------ 4. workload

    @Test
    @Order(4)
    void concurrentWorkloadKeepsCausalConsistencyAndLosesNoWriteWhenNode2IsKilled() throws Exception {
        int p2 = cluster.partitionOfNode(KILLED_NODE);
        try (FastCcsClient second = newClient()) {
            long seed = Long.getLong("fastccs.it.seed", ThreadLocalRandom.current().nextLong());
            log("workload seed " + seed + " (-Dfastccs.it.seed=" + seed + " repeats its choice of keys and operations)");
            CheckedWorkload workload = new CheckedWorkload(cluster.view(), List.of(client, second), "w:", 8, 300, 5, 0.25, seed);
            int[] ownerOfKey = new int[workload.keyCount()];
            for (int k = 0; k < ownerOfKey.length; k++) ownerOfKey[k] = cluster.ownerOf(workload.key(k));
            FailoverWatch watch = new FailoverWatch(ownerOfKey);
            workload.observe(watch);
            long startNanos = System.nanoTime();
            workload.start();
            Thread.sleep(12_000);

            long beforeKill = workload.transactionsAttempted();
            watch.phase("outage");
            int inFlightAtKill = watch.markKill();
            long killNanos = System.nanoTime();
            cluster.local().kill(KILLED_NODE);
            log("SIGKILLed node " + KILLED_NODE + " (partition " + p2 + ") after " + beforeKill + " transactions, "
                    + inFlightAtKill + " in flight");
            Thread.sleep(5_000);

            long restartNanos = System.nanoTime();
            watch.watchPartition(p2, restartNanos);
            var handshake = TestCluster.firstHandshake(KILLED_NODE, Duration.ofMinutes(3));
            LocalCluster.StartReport report = cluster.local().restart(KILLED_NODE);
            watch.phase("after restart");
            long servingNanos = handshake.get();
            log(String.format("node %d: FastCCS answered again %.1f s after its restart began (%.1f s after the kill); "
                            + "CQL and FastCCS both up after %.1f s, ring converged after %.1f s", KILLED_NODE,
                    (servingNanos - restartNanos) / 1e9, (servingNanos - killNanos) / 1e9,
                    report.toServing().toMillis() / 1000.0, report.toRing().toMillis() / 1000.0));

            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (watch.firstWatchedSuccessNanos() == 0 && System.nanoTime() < deadline) Thread.sleep(100);
            long firstOnP2 = watch.firstWatchedSuccessNanos();
            assertThat(firstOnP2).as("a transaction on partition %d succeeded within 60 s of the restart", p2).isPositive();
            Thread.sleep(8_000);
            workload.stop();
            double ranFor = (System.nanoTime() - startNanos) / 1e9;

            CheckedWorkload.Result result = workload.finish(client, Duration.ofSeconds(6), null, TestCluster::log);
            CheckResult check = result.check();

            log(String.format("workload: 8 sessions on 2 clients, 300 keys, 5 keys a transaction, 25%% writes, %.1f s", ranFor));
            log(String.format("transactions run: %d (reads %d, %d ok, %d in two rounds; writes %d, %d acknowledged, "
                            + "%d aborted as the client knew; %d unconfirmed: %d committed, %d aborted, %d unsettled)",
                    result.readsAttempted() + result.writesAttempted(), result.readsAttempted(), result.readsOk(),
                    result.readsInTwoRounds(), result.writesAttempted(), result.writesAcknowledged(),
                    result.writesAbortedKnown(), result.unknown(), result.unknownCommitted(), result.unknownAborted(),
                    result.unknownUnsettled()));
            log("in flight at the kill: " + inFlightAtKill + "; how they ended: " + watch.endOfInFlightAtKill());
            watch.errors().forEach((type, n) -> log("errors " + type + ": " + n));
            log(String.format("recovery: node %d's FastCCS port answered %.1f s after the restart began (%.1f s after "
                            + "the kill); the clients' first successful transaction on partition %d came %.1f s after the "
                            + "restart began (%.1f s after the port answered, %.1f s after the kill)", KILLED_NODE,
                    (servingNanos - restartNanos) / 1e9, (servingNanos - killNanos) / 1e9, p2,
                    (firstOnP2 - restartNanos) / 1e9, (firstOnP2 - servingNanos) / 1e9, (firstOnP2 - killNanos) / 1e9));
            log("history: " + result.historySessions() + " sessions (besides the final one), " + result.keysWritten()
                    + " keys written; checker: " + check.summary());
            log("anomalies: " + check.totalAnomalies() + " " + check.counts());
            log("lost acknowledged writes: " + result.lostAcknowledged() + "; violations of the newest-write check: "
                    + result.violations().size());
            log("client metrics: reconnects " + client.metrics().reconnects() + " + " + second.metrics().reconnects()
                    + ", unconfirmed writes " + client.metrics().unconfirmedWrites() + " + " + second.metrics().unconfirmedWrites()
                    + ", connected partitions " + client.metrics().connectedPartitions() + " and "
                    + second.metrics().connectedPartitions());

            assertThat(result.errors().keySet()).as("unexpected exceptions").noneMatch(type -> type.endsWith("(unexpected)"));
            assertThat(check.ok()).as("TCC anomalies: %s", check.anomalies().stream().limit(20).toList()).isTrue();
            assertThat(result.violations()).as("lost or misplaced writes").isEmpty();
            assertThat(result.lostAcknowledged()).isZero();
            assertThat(result.writesAcknowledged()).isPositive();
            assertThat(result.readsOk()).isPositive();
            // Both clients came back to partition 2 by themselves: nobody rebuilt them.
            assertThat(client.metrics().connectedPartitions()).isEqualTo(3);
            assertThat(second.metrics().connectedPartitions()).isEqualTo(3);
        }
    }

    // ------------------------------------------------------------------------------------------------ 5. restart

    @Test
    @Order(5)
    void aSessionRidesOutANodeRestartByItself() throws Exception {
        int p3 = cluster.partitionOfNode(RESTARTED_NODE);
        Rider rider = new Rider(client.session(), keysOnEveryPartition("ride:", 1));
        rider.start();
        try {
            Thread.sleep(3_000);
            long before = rider.successes();
            long killNanos = System.nanoTime();
            cluster.local().kill(RESTARTED_NODE);
            Thread.sleep(3_000);
            long restartNanos = System.nanoTime();
            rider.markRestart(restartNanos);
            var handshake = TestCluster.firstHandshake(RESTARTED_NODE, Duration.ofMinutes(3));
            LocalCluster.StartReport report = cluster.local().restart(RESTARTED_NODE);
            long servingNanos = handshake.get();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (rider.firstSuccessAfterRestart() == 0 && System.nanoTime() < deadline) Thread.sleep(100);
            long first = rider.firstSuccessAfterRestart();
            assertThat(first).as("the session wrote and read all partitions again within 60 s of the restart").isPositive();
            Thread.sleep(2_000);
            rider.stop();
            log(String.format("rider: %d write+read rounds before the kill of node %d (partition %d), %d in all, %d failed "
                            + "while it was down (%s), %d unconfirmed writes continued past; FastCCS answered %.1f s after "
                            + "the restart began (CQL too after %.1f s), the same session's first full round came %.1f s "
                            + "after the port answered (%.1f s after the kill)",
                    before, RESTARTED_NODE, p3, rider.successes(), rider.failures(), rider.failureTypes(),
                    rider.unconfirmed(), (servingNanos - restartNanos) / 1e9, report.toServing().toMillis() / 1000.0,
                    (first - servingNanos) / 1e9, (first - killNanos) / 1e9));
        } finally {
            rider.stop();
        }
        assertThat(rider.violations()).as("read-your-writes / atomicity violations").isEmpty();
        assertThat(rider.unexpected()).as("unexpected exceptions").isNull();
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** {@code perPartition} keys {@code prefix + i} on each partition. */
    private static List<String> keysOnEveryPartition(String prefix, int perPartition) {
        int[] counts = new int[3];
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < 3 * perPartition; i++) {
            String k = prefix + i;
            int p = cluster.ownerOf(k);
            if (counts[p] < perPartition) {
                counts[p]++;
                keys.add(k);
            }
        }
        return keys;
    }

    private static WriteRequest write(long requestId, int partition, String key, byte[] value) {
        TxnId id = new TxnId(ThreadLocalRandom.current().nextLong(), requestIds.incrementAndGet());
        return new WriteRequest(requestId, id, partition, List.of(partition),
                List.of(new KeyValue(Key.of(key), value)), VectorClock.zero(3), 0);
    }

    private static ErrorReply error(Message m) {
        assertThat(m).isInstanceOf(ErrorReply.class);
        return (ErrorReply) m;
    }

    /** The connection still answers a ring request and a read of a key of {@code partition}. */
    private static void assertUsable(RawClient c, int partition) throws IOException {
        assertThat(c.exchange(new RingRequest(requestIds.incrementAndGet()))).isInstanceOf(RingReply.class);
        String k = keysOnEveryPartition("probe:", 1).stream().filter(x -> cluster.ownerOf(x) == partition).findFirst().orElseThrow();
        assertThat(c.exchange(new FirstRoundRead(requestIds.incrementAndGet(), List.of(Key.of(k)), VectorClock.zero(3))))
                .isInstanceOf(ReadReply.class);
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String string(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return new String(a, StandardCharsets.UTF_8);
    }

    /** The stored clock blob: LEB128 varints, the entry count then the entries (server-patch's RecordCodec). */
    /** Reads a stored vector clock (RecordCodec's encoding) from {@code b}'s position, leaving it after the clock. */
    private static long[] readClock(ByteBuffer b) {
        long n = varint(b);
        long[] clock = new long[(int) n];
        for (int i = 0; i < n; i++) clock[i] = varint(b);
        return clock;
    }

    private static long varint(ByteBuffer b) {
        long v = 0;
        for (int shift = 0; ; shift += 7) {
            byte x = b.get();
            v |= (long) (x & 0x7f) << shift;
            if ((x & 0x80) == 0) return v;
        }
    }

    /** A client that only sends good requests: writes one key per partition, reads them back, expects its values. */
    private static final class WellBehaved {
        private final FastCcsClient client;
        private final List<String> keys;
        private final AtomicLong successes = new AtomicLong();
        private final AtomicLong failures = new AtomicLong();
        private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        private volatile boolean stop;
        private Thread thread;

        WellBehaved(FastCcsClient client, List<String> keys) {
            this.client = client;
            this.keys = keys;
        }

        void start() {
            thread = new Thread(() -> {
                CausalSession session = client.session();
                for (int i = 0; !stop; i++) {
                    try {
                        Map<String, String> values = new LinkedHashMap<>();
                        for (String k : keys) values.put(k, "g" + i);
                        session.write(values);
                        ReadResult r = session.read(keys);
                        for (String k : keys)
                            if (!("g" + i).equals(r.getString(k)))
                                throw new AssertionError(k + " read " + r.getString(k) + " after writing g" + i);
                        successes.incrementAndGet();
                    } catch (RuntimeException | AssertionError e) {
                        failures.incrementAndGet();
                        firstFailure.compareAndSet(null, e);
                        if (session.hasUnconfirmedWrite()) session.continueWithoutUnconfirmedWrite();
                    }
                }
            }, "well-behaved-client");
            thread.start();
        }

        void stop() throws InterruptedException {
            stop = true;
            thread.join(30_000);
        }

        long successes() {
            return successes.get();
        }

        long failures() {
            return failures.get();
        }

        Throwable firstFailure() {
            return firstFailure.get();
        }
    }

    /**
     * One session writing the same value to one key per partition and reading the keys back, over and over, whatever
     * fails. Every read must return one value on all keys (atomic writes) and, unless a write of the session is
     * unconfirmed, the value of its last confirmed write (read your writes).
     */
    private static final class Rider {
        private final CausalSession session;
        private final List<String> keys;
        private final AtomicLong successes = new AtomicLong();
        private final AtomicLong failures = new AtomicLong();
        private final AtomicLong unconfirmed = new AtomicLong();
        private final AtomicLong firstSuccessAfterRestart = new AtomicLong();
        private final Map<String, Long> failureTypes = new java.util.concurrent.ConcurrentSkipListMap<>();
        private final List<String> violations = new java.util.concurrent.CopyOnWriteArrayList<>();
        private volatile Throwable unexpected;
        private volatile long restartNanos = Long.MAX_VALUE;
        private volatile boolean stop;
        private Thread thread;

        Rider(CausalSession session, List<String> keys) {
            this.session = session;
            this.keys = keys;
        }

        void start() {
            thread = new Thread(this::run, "rider");
            thread.start();
        }

        private void run() {
            long lastConfirmed = 0;
            Set<Long> maybeVisible = new HashSet<>(); // unconfirmed writes that are not known aborted
            for (long i = 1; !stop; i++) {
                try {
                    Map<String, String> values = new LinkedHashMap<>();
                    for (String k : keys) values.put(k, Long.toString(i));
                    boolean wrote = false;
                    try {
                        session.write(values);
                        lastConfirmed = i;
                        wrote = true;
                    } catch (WriteTimeoutException e) {
                        fail(e);
                        if (e.outcome() != WriteOutcome.ABORTED) maybeVisible.add(i);
                        if (session.hasUnconfirmedWrite()) {
                            unconfirmed.incrementAndGet();
                            session.continueWithoutUnconfirmedWrite();
                        }
                    } catch (FastCcsException e) {
                        fail(e);
                    }
                    ReadResult r;
                    try {
                        r = session.read(keys);
                    } catch (FastCcsException e) {
                        fail(e);
                        Thread.sleep(50);
                        continue;
                    }
                    String[] got = keys.stream().map(r::getString).toArray(String[]::new);
                    if (Arrays.stream(got).distinct().count() != 1) {
                        violations.add("not atomic: " + keys + " read " + Arrays.toString(got));
                    } else if (lastConfirmed > 0) {
                        long v = got[0] == null ? 0 : Long.parseLong(got[0]);
                        if (v != lastConfirmed && !maybeVisible.contains(v))
                            violations.add("read " + v + " after the confirmed write of " + lastConfirmed
                                    + " (unconfirmed ones: " + maybeVisible + ")");
                    }
                    if (wrote) {
                        successes.incrementAndGet();
                        long now = System.nanoTime();
                        if (now - restartNanos >= 0) firstSuccessAfterRestart.compareAndSet(0, now);
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    unexpected = e;
                    return;
                }
            }
        }

        private void fail(FastCcsException e) {
            failures.incrementAndGet();
            String type = e.getClass().getSimpleName() + (e instanceof WriteTimeoutException w ? "(" + w.outcome() + ")" : "");
            failureTypes.merge(type, 1L, Long::sum);
        }

        void markRestart(long nanos) {
            restartNanos = nanos;
        }

        void stop() throws InterruptedException {
            stop = true;
            if (thread != null) thread.join(30_000);
        }

        long successes() {
            return successes.get();
        }

        long failures() {
            return failures.get();
        }

        long unconfirmed() {
            return unconfirmed.get();
        }

        long firstSuccessAfterRestart() {
            return firstSuccessAfterRestart.get();
        }

        Map<String, Long> failureTypes() {
            return failureTypes;
        }

        List<String> violations() {
            return violations;
        }

        Throwable unexpected() {
            return unexpected;
        }
    }
}
