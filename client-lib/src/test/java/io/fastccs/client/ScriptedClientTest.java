package io.fastccs.client;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.protocol.messages.FirstRoundRead;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.messages.ReadReply;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.protocol.messages.SecondRoundRead;
import io.fastccs.protocol.messages.WriteReply;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.core.ring.Murmur3Token;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The client against scripted nodes: routing, failures and how each is reported. */
class ScriptedClientTest {
    private static final int N = 4;
    private ScriptedCluster cluster;
    private FastCcsClient client;

    private FastCcsClient connect(ScriptedCluster.Script script) throws InterruptedException {
        cluster = ScriptedCluster.start(N, script);
        client = builder().build();
        return client;
    }

    private FastCcsClientBuilder builder() {
        return FastCcsClient.builder()
                .addContactPoint(cluster.contactPoints().get(1))
                .withRequestTimeout(Duration.ofMillis(300))
                .withReconnectDelay(Duration.ofMillis(20), Duration.ofMillis(200))
                .withIoThreads(2);
    }

    @AfterEach
    void tearDown() {
        if (client != null) client.close();
        if (cluster != null) cluster.close();
    }

    @Test
    void connectsToEveryPartition() throws Exception {
        connect(ScriptedCluster.emptyStore(N));
        assertThat(client.partitions()).isEqualTo(N);
        assertThat(client.metrics().connectedPartitions()).isEqualTo(N);
    }

    @Test
    void withoutAStalenessBoundEveryReadAsksItsPartitions() throws Exception {
        assertThat(FastCcsClientBuilder.DEFAULT_MAX_STALENESS).isZero();
        assertThatThrownBy(() -> FastCcsClient.builder().withMaxStaleness(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        connect(ScriptedCluster.emptyStore(N));
        CausalSession s = client.session();
        s.read("a");
        ReadResult again = s.read("a");
        assertThat(again.fromCache()).isFalse();
        assertThat(again.rounds()).isEqualTo(1);
        assertThat(client.metrics().cacheHits()).isZero();
        assertThat(client.metrics().zeroRoundReads()).isZero();
        assertThat(client.metrics().cacheServedAge().count()).isZero();
    }

    @Test
    void aCachedReadTakesNoRoundUntilTheSessionWritesTheKey() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        client = builder().withMaxStaleness(Duration.ofSeconds(30)).build();
        CausalSession alice = client.session();
        assertThat(alice.read("a", "b").fromCache()).isFalse();
        long asked = readsAsked();
        ReadResult cached = alice.read("a", "b");
        assertThat(cached.fromCache()).isTrue();
        assertThat(cached.rounds()).isZero();
        assertThat(cached.exists("a")).isFalse();
        assertThat(readsAsked()).isEqualTo(asked);
        assertThat(client.metrics().zeroRoundReads()).isEqualTo(1);
        assertThat(client.metrics().cacheHits()).isEqualTo(2);

        alice.write(Map.of("a", "1")); // beyond every entry's clock: alice's next read of "a" asks
        assertThat(alice.read("a").fromCache()).isFalse();
        assertThat(readsAsked()).isEqualTo(asked + 1);
        assertThat(client.session().read("b").fromCache()).isTrue(); // shared with other sessions
    }

    @Test
    void aPartialHitReadsOnlyTheKeysTheCacheDoesNotHold() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        client = builder().withMaxStaleness(Duration.ofSeconds(30)).build();
        String other = null;
        for (int i = 0; other == null; i++)
            if (cluster.ring().ownerOf(Key.of("k" + i)) != cluster.ring().ownerOf(Key.of("a"))) other = "k" + i;
        CausalSession s = client.session();
        s.read("a");
        long asked = readsAsked();
        ReadResult r = s.read("a", other);
        assertThat(r.fromCache()).isFalse();
        assertThat(r.rounds()).isEqualTo(1);
        assertThat(readsAsked()).isEqualTo(asked + 1); // only the other key's partition
        assertThat(client.metrics().partialCacheHits()).isEqualTo(1);
        assertThat(s.read("a", other).fromCache()).isTrue();
    }

    /** Round one reads the scripted nodes received. */
    private long readsAsked() {
        long n = 0;
        for (int p = 0; p < N; p++) n += cluster.node(p).requests.stream().filter(r -> r instanceof FirstRoundRead).count();
        return n;
    }

    @Test
    void routesEveryKeyToThePartitionOwningItsToken() throws Exception {
        connect(ScriptedCluster.emptyStore(N));
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 500; i++) keys.add("user:" + i);
        ReadResult r = client.session().read(keys);
        assertThat(r.size()).isEqualTo(500);
        assertThat(r.partitionsTouched()).isEqualTo(N);
        Set<Key> seen = new HashSet<>();
        for (int p = 0; p < N; p++) {
            long low = p == 0 ? cluster.ring().token(N - 1) : cluster.ring().token(p - 1);
            long high = cluster.ring().token(p);
            for (ClientRequest req : cluster.node(p).requests) {
                for (Key k : ((FirstRoundRead) req).keys()) {
                    long t = Murmur3Token.tokenOf(k.unsafeBytes());
                    if (p == 0) assertThat(t <= high || t > low).as("key %s on partition 0", k).isTrue();
                    else assertThat(t).as("key %s on partition %d", k, p).isGreaterThan(low).isLessThanOrEqualTo(high);
                    assertThat(seen.add(k)).isTrue();
                }
            }
        }
        assertThat(seen).hasSize(500);
    }

    @Test
    void invalidInputIsRefusedBeforeAnythingIsSent() throws Exception {
        cluster = ScriptedCluster.start(N, ScriptedCluster.emptyStore(N));
        client = builder().withMaxKeysPerTransaction(4).withMaxKeySize(10).withMaxValueSize(20).build();
        CausalSession s = client.session();
        List<Runnable> bad = List.of(
                () -> s.read(List.of()),
                () -> s.read("a", "b", "c", "d", "e"),
                () -> s.read(""),
                () -> s.read("a", "a"),
                () -> s.read("01234567890"),
                () -> s.readBytes(List.of(new byte[]{1}, new byte[]{1})),
                () -> s.write(Map.of()),
                () -> s.write(Map.of("k", "")),
                () -> s.write(Map.of("k", "x".repeat(21))),
                () -> s.write(Map.of("", "v")),
                () -> s.write(Map.of("a", "1", "b", "2", "c", "3", "d", "4", "e", "5")),
                () -> s.writeBytes(twoArraysSameKey()));
        for (Runnable r : bad) assertThatThrownBy(r::run).isInstanceOf(InvalidRequestException.class);
        assertThat(s.readAsync(List.of("")).toCompletableFuture()).isCompletedExceptionally();
        assertThat(cluster.allRequests()).isEmpty();
        assertThat(client.metrics().reads().invalidRequests()).isEqualTo(7);
        assertThat(client.metrics().writes().invalidRequests()).isEqualTo(6);
        assertThat(s.exportToken().clock()).containsOnly(0);
    }

    private static Map<byte[], byte[]> twoArraysSameKey() {
        Map<byte[], byte[]> m = new LinkedHashMap<>();
        m.put("k".getBytes(StandardCharsets.UTF_8), new byte[]{1});
        m.put("k".getBytes(StandardCharsets.UTF_8), new byte[]{2});
        return m;
    }

    @Test
    void sessionAdoptsTheCommitClockAndSendsItWithLaterRequests() throws Exception {
        connect(ScriptedCluster.emptyStore(N));
        CausalSession s = client.session();
        WriteResult w = s.write(Map.of("a", "1", "b", "2", "c", "3", "d", "4", "e", "5"));
        assertThat(w.size()).isEqualTo(5);
        long[] afterWrite = s.exportToken().clock();
        assertThat(afterWrite).isNotEqualTo(new long[N]);
        assertThat(w.commitClock()).isEqualTo(afterWrite); // from a zero clock, the session's clock is the commit clock
        for (int p = 0; p < N; p++) {
            for (ClientRequest r : cluster.node(p).requests) {
                WriteRequest req = (WriteRequest) r;
                assertThat(req.clock()).isEqualTo(VectorClock.zero(N));
                assertThat(req.participants()).contains(p).contains(req.coordinator());
                assertThat(afterWrite[p]).isPositive();
            }
        }
        s.read("a");
        FirstRoundRead read = (FirstRoundRead) cluster.allRequests().stream().filter(r -> r instanceof FirstRoundRead)
                .findFirst().orElseThrow();
        assertThat(read.clock().toArray()).isEqualTo(afterWrite);
        // A second write sends the advanced clock and advances it further.
        s.write(Map.of("a", "2"));
        assertThat(VectorClock.of(afterWrite).leq(VectorClock.of(s.exportToken().clock()))).isTrue();
        assertThat(s.exportToken().clock()).isNotEqualTo(afterWrite);
    }

    @Test
    void authenticationFailureFailsTheBuild() throws Exception {
        cluster = ScriptedCluster.start(2, ScriptedCluster.emptyStore(2));
        cluster.requireCredentials("app", "secret");
        assertThatThrownBy(() -> builder().withCredentials("app", "wrong").build())
                .isInstanceOf(AuthenticationException.class).hasMessageContaining("bad credentials");
        assertThatThrownBy(() -> builder().build()).isInstanceOf(AuthenticationException.class);
        client = builder().withCredentials("app", "secret").build();
        assertThat(client.session().read("x").exists("x")).isFalse();
    }

    @Test
    void unreachableContactPointsFailTheBuild() throws Exception {
        cluster = ScriptedCluster.start(1, ScriptedCluster.emptyStore(1));
        cluster.node(0).stop();
        assertThatThrownBy(() -> FastCcsClient.builder().addContactPoint(cluster.contactPoints().get(0))
                .withConnectTimeout(Duration.ofMillis(500)).build())
                .isInstanceOf(FastCcsException.class).hasMessageContaining("no contact point");
    }

    @Test
    void readTimeoutLeavesTheSessionUsable() throws Exception {
        AtomicBoolean silent = new AtomicBoolean(true);
        ScriptedCluster.Script store = ScriptedCluster.emptyStore(N);
        connect((node, request, out) -> {
            if (!silent.get()) store.onRequest(node, request, out);
        });
        CausalSession s = client.session();
        assertThatThrownBy(() -> s.read("k")).isInstanceOf(ReadTimeoutException.class);
        assertThat(client.metrics().reads().timeouts()).isEqualTo(1);
        silent.set(false);
        assertThat(s.read("k").exists("k")).isFalse();
    }

    @Test
    void malformedReplyIsAProtocolErrorAndTheConnectionIsReopened() throws Exception {
        AtomicBoolean garbage = new AtomicBoolean(true);
        ScriptedCluster.Script store = ScriptedCluster.emptyStore(N);
        connect((node, request, out) -> {
            if (garbage.getAndSet(false)) out.replyRaw(new byte[]{(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef});
            else store.onRequest(node, request, out);
        });
        CausalSession s = client.session();
        assertThatThrownBy(() -> s.read("k")).isInstanceOf(ProtocolException.class).hasMessageContaining("malformed");
        Eventually.within(Duration.ofSeconds(5), () -> client.metrics().connectedPartitions() == N);
        assertThat(client.metrics().reconnects()).isEqualTo(1);
        assertThat(s.read("k").rounds()).isEqualTo(1);
    }

    @Test
    void nodeErrorsMapToExceptions() throws Exception {
        AtomicReference<ErrorCode> code = new AtomicReference<>();
        connect((node, request, out) -> out.reply(new ErrorReply(request.requestId(), code.get(), "scripted", 2)));
        CausalSession s = client.session();
        Map<ErrorCode, Class<? extends FastCcsException>> expected = Map.of(
                ErrorCode.INVALID_REQUEST, InvalidRequestException.class,
                ErrorCode.UNAUTHORIZED, UnauthorizedException.class,
                ErrorCode.OVERLOADED, PartitionUnavailableException.class,
                ErrorCode.NOT_OWNER, ProtocolException.class,
                ErrorCode.INTERNAL, ProtocolException.class,
                ErrorCode.MALFORMED_FRAME, ProtocolException.class,
                ErrorCode.UNKNOWN_MESSAGE, ProtocolException.class);
        for (Map.Entry<ErrorCode, Class<? extends FastCcsException>> e : expected.entrySet()) {
            code.set(e.getKey());
            assertThatThrownBy(() -> s.read("k")).as("read refused with %s", e.getKey()).isInstanceOf(e.getValue());
            assertThatThrownBy(() -> s.write(Map.of("k", "v"))).as("write refused with %s", e.getKey()).isInstanceOf(e.getValue());
            assertThat(s.hasUnconfirmedWrite()).isFalse(); // a refused write is aborted for sure
        }
        long before = client.metrics().ringRefreshes();
        code.set(ErrorCode.NOT_OWNER);
        assertThatThrownBy(() -> s.read("k")).isInstanceOf(ProtocolException.class);
        Eventually.within(Duration.ofSeconds(5), () -> client.metrics().ringRefreshes() > before);
    }

    /** Two partitions: 0 returns a version whose commit clock names partition 1 beyond 1's snapshot. */
    private static ScriptedCluster.Script twoRoundScript(AtomicInteger expiredReplies) {
        return (node, request, out) -> {
            VectorClock zero = VectorClock.zero(2);
            if (request instanceof FirstRoundRead r) {
                VectorClock ctm = node.partition == 0 ? VectorClock.of(1, 1) : zero;
                VectorClock svc = node.partition == 0 ? VectorClock.of(1, 1) : zero;
                List<ReadValue> values = new ArrayList<>();
                for (Key k : r.keys()) values.add(new ReadValue(k, node.partition == 0 ? new byte[]{'v'} : null, node.partition == 0 ? 1 : 0));
                out.reply(new ReadReply(r.requestId(), values, svc, ctm, 0, 1000, List.of(), false));
            } else if (request instanceof SecondRoundRead r) {
                if (expiredReplies.getAndDecrement() > 0) {
                    out.reply(ErrorReply.of(r.requestId(), ErrorCode.SNAPSHOT_EXPIRED, "too late"));
                } else {
                    List<ReadValue> values = new ArrayList<>();
                    for (Key k : r.keys()) values.add(new ReadValue(k, new byte[]{'w'}, 1));
                    out.reply(new ReadReply(r.requestId(), values, VectorClock.of(1, 1), VectorClock.of(1, 1), 0, 2000, List.of(), false));
                }
            }
        };
    }

    private static List<String> keysOnBothPartitions(ScriptedCluster c) {
        String k0 = null, k1 = null;
        for (int i = 0; k0 == null || k1 == null; i++) {
            String k = "key" + i;
            if (c.ring().ownerOf(Key.of(k)) == 0) k0 = k0 == null ? k : k0;
            else k1 = k1 == null ? k : k1;
        }
        return List.of(k0, k1);
    }

    @Test
    void secondRoundIsCountedAndAnExpiredSnapshotRestartsTheReadOnce() throws Exception {
        AtomicInteger expired = new AtomicInteger(0);
        cluster = ScriptedCluster.start(2, twoRoundScript(expired));
        client = builder().build();
        List<String> keys = keysOnBothPartitions(cluster);
        CausalSession s = client.session();

        ReadResult r = s.read(keys);
        assertThat(r.rounds()).isEqualTo(2);
        assertThat(r.secondRoundPartitions()).isEqualTo(1);
        assertThat(r.getString(keys.get(1))).isEqualTo("w");
        assertThat(client.metrics().twoRoundReads()).isEqualTo(1);
        assertThat(client.metrics().readRounds()).isEqualTo(2);
        assertThat(client.metrics().secondRoundShare()).isEqualTo(1.0);

        expired.set(1);
        assertThat(s.read(keys).rounds()).isEqualTo(2);
        assertThat(client.metrics().snapshotRestarts()).isEqualTo(1);

        expired.set(2);
        assertThatThrownBy(() -> s.read(keys)).isInstanceOf(ReadTimeoutException.class).hasMessageContaining("twice");
        assertThat(client.metrics().snapshotRestarts()).isEqualTo(2);
        assertThat(client.metrics().reads().timeouts()).isEqualTo(1);
    }

    /** Writes: participant 1 never answers; the coordinator answers the outcome query with {@code answer}. */
    private void writeWithSilentParticipant(ScriptedCluster.Script outcomeAnswer) throws InterruptedException {
        ScriptedCluster.Script store = ScriptedCluster.emptyStore(2);
        cluster = ScriptedCluster.start(2, (node, request, out) -> {
            if (request instanceof OutcomeQuery) outcomeAnswer.onRequest(node, request, out);
            else if (request instanceof WriteRequest && node.partition == 1) return;
            else store.onRequest(node, request, out);
        });
        client = builder().build();
    }

    private static ScriptedCluster.Script outcome(Outcome o) {
        return (node, request, out) -> {
            OutcomeQuery q = (OutcomeQuery) request;
            out.reply(new OutcomeReply(q.requestId(), q.txnId(), o, o == Outcome.COMMITTED ? VectorClock.of(7, 7) : null, 0));
        };
    }

    @Test
    void unconfirmedCommitPutsTheSessionInDoubtUntilTheUserContinues() throws Exception {
        writeWithSilentParticipant(outcome(Outcome.COMMITTED));
        Map<String, String> writes = Map.of(keysOnBothPartitions(cluster).get(0), "1", keysOnBothPartitions(cluster).get(1), "2");
        CausalSession s = client.session();
        assertThatThrownBy(() -> s.write(writes)).isInstanceOfSatisfying(WriteTimeoutException.class, e -> {
            assertThat(e.outcome()).isEqualTo(WriteOutcome.COMMITTED_UNCONFIRMED);
            assertThat(e.transactionId()).isNotBlank();
            // The commit clock as first reported: by the participant that confirmed, or else by the coordinator.
            assertThat(e.commitClock()).hasSize(2).containsAnyOf(1L, 7L);
            assertThat(e.coordinator()).isBetween(0, 1);
            assertThat(e).isInstanceOf(TransactionTimeoutException.class);
        });
        assertThat(cluster.allRequests()).filteredOn(r -> r instanceof OutcomeQuery).hasSize(1);
        assertThat(s.hasUnconfirmedWrite()).isTrue();
        assertThat(s.exportToken().clock()).containsOnly(0); // the unconfirmed commit clock is not adopted
        assertThatThrownBy(() -> s.read("x")).isInstanceOfSatisfying(SessionInDoubtException.class,
                e -> assertThat(e.unconfirmedWrite().outcome()).isEqualTo(WriteOutcome.COMMITTED_UNCONFIRMED));
        s.continueWithoutUnconfirmedWrite();
        assertThat(s.hasUnconfirmedWrite()).isFalse();
        assertThat(s.read("x").exists("x")).isFalse();
        assertThat(client.metrics().unconfirmedWrites()).isEqualTo(1);
        assertThat(client.metrics().writes().timeouts()).isEqualTo(1);
        // Other sessions are independent.
        assertThat(client.session().read("x").size()).isEqualTo(1);
    }

    @Test
    void abortedOutcomeLeavesTheSessionUsable() throws Exception {
        writeWithSilentParticipant(outcome(Outcome.ABORTED));
        Map<String, String> writes = Map.of(keysOnBothPartitions(cluster).get(0), "1", keysOnBothPartitions(cluster).get(1), "2");
        CausalSession s = client.session();
        assertThatThrownBy(() -> s.write(writes)).isInstanceOfSatisfying(WriteTimeoutException.class,
                e -> assertThat(e.outcome()).isEqualTo(WriteOutcome.ABORTED));
        assertThat(s.hasUnconfirmedWrite()).isFalse();
        assertThat(s.read("x").size()).isEqualTo(1);
    }

    @Test
    void undecidedOrRefusedOutcomeQueryIsUnknown() throws Exception {
        AtomicBoolean refuse = new AtomicBoolean();
        ScriptedCluster.Script undecided = outcome(Outcome.UNDECIDED);
        writeWithSilentParticipant((node, request, out) -> {
            if (refuse.get()) out.reply(ErrorReply.of(request.requestId(), ErrorCode.OVERLOADED, "busy"));
            else undecided.onRequest(node, request, out);
        });
        Map<String, String> writes = Map.of(keysOnBothPartitions(cluster).get(0), "1", keysOnBothPartitions(cluster).get(1), "2");
        CausalSession s = client.session();
        assertThatThrownBy(() -> s.write(writes)).isInstanceOfSatisfying(WriteTimeoutException.class, e -> {
            assertThat(e.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
            assertThat(e.commitClock()).isNull();
            assertThat(e.coordinator()).isBetween(0, 1); // whom to ask again
        });
        s.continueWithoutUnconfirmedWrite();
        refuse.set(true);
        // A refused query says nothing about the write: never reported as aborted.
        assertThatThrownBy(() -> s.write(writes)).isInstanceOfSatisfying(WriteTimeoutException.class,
                e -> assertThat(e.outcome()).isEqualTo(WriteOutcome.UNKNOWN));
        assertThat(s.hasUnconfirmedWrite()).isTrue();
    }

    @Test
    void aWriteTheNodesKeepAbortingIsRunAgainUntilTheRequestTimeoutThenReportedAborted() throws Exception {
        connect((node, request, out) -> {
            if (request instanceof WriteRequest w) out.reply(new WriteReply(w.requestId(), w.txnId(), Outcome.ABORTED, null, 0));
        });
        CausalSession s = client.session();
        assertThatThrownBy(() -> s.write(Map.of("k", "v"))).isInstanceOfSatisfying(WriteTimeoutException.class, e -> {
            assertThat(e.outcome()).isEqualTo(WriteOutcome.ABORTED);
            assertThat(e).hasMessageContaining("each earlier one aborted too");
        });
        List<WriteRequest> sent = cluster.allRequests().stream().filter(r -> r instanceof WriteRequest).map(r -> (WriteRequest) r).toList();
        assertThat(sent).hasSizeGreaterThan(1);
        assertThat(sent.stream().map(WriteRequest::txnId).distinct().count()).as("each run a new transaction").isEqualTo(sent.size());
        assertThat(client.metrics().writesRunAgain()).isEqualTo(sent.size() - 1);
        assertThat(client.metrics().writes().attempts()).isEqualTo(1);
        assertThat(client.metrics().writes().timeouts()).isEqualTo(1);
        assertThat(s.hasUnconfirmedWrite()).isFalse();
    }

    @Test
    void aWriteAbortedWithNoEffectSucceedsWhenRunAgain() throws Exception {
        ScriptedCluster.Script store = ScriptedCluster.emptyStore(N);
        AtomicInteger writesSeen = new AtomicInteger();
        connect((node, request, out) -> {
            if (request instanceof WriteRequest w && writesSeen.incrementAndGet() == 1)
                out.reply(new WriteReply(w.requestId(), w.txnId(), Outcome.ABORTED, null, 0)); // as while a leader moves
            else store.onRequest(node, request, out);
        });
        CausalSession s = client.session();
        WriteResult w = s.write(Map.of("k", "v"));
        assertThat(w.size()).isEqualTo(1);
        assertThat(writesSeen.get()).isEqualTo(2);
        assertThat(client.metrics().writesRunAgain()).isEqualTo(1);
        assertThat(client.metrics().writes().successes()).isEqualTo(1);
        assertThat(client.metrics().writes().attempts()).isEqualTo(1);
        assertThat(client.metrics().writes().timeouts()).isZero();
        assertThat(s.exportToken().clock()).isEqualTo(w.commitClock());
    }

    /**
     * Two participants: partition 0 answers a write ABORTED at once (the coordinator aborted it), partition 1, which
     * caused the abort by refusing the write, answers {@code refusal} after 100 ms (null: never).
     */
    private void abortBeforeTheRefusalThatCausedIt(java.util.function.LongFunction<ErrorReply> refusal) throws InterruptedException {
        ScriptedCluster.Script store = ScriptedCluster.emptyStore(2);
        cluster = ScriptedCluster.start(2, (node, request, out) -> {
            if (!(request instanceof WriteRequest w)) {
                store.onRequest(node, request, out);
            } else if (node.partition == 0) {
                out.reply(new WriteReply(w.requestId(), w.txnId(), Outcome.ABORTED, null, 0));
            } else if (refusal != null) {
                CompletableFuture.delayedExecutor(100, java.util.concurrent.TimeUnit.MILLISECONDS)
                        .execute(() -> out.reply(refusal.apply(w.requestId())));
            }
        });
        client = builder().build();
    }

    @Test
    void aRefusalThatArrivesAfterTheAbortItCausedIsWhatTheWriteFailsWith() throws Exception {
        abortBeforeTheRefusalThatCausedIt(id -> ErrorReply.of(id, ErrorCode.INVALID_REQUEST,
                "key k is a counter (add): PUT refused (a key keeps the type of its first operation)"));
        List<String> keys = keysOnBothPartitions(cluster);
        CausalSession s = client.session();
        assertThatThrownBy(() -> s.write(Map.of(keys.get(0), "1", keys.get(1), "2")))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("partition 1 refused the request: INVALID_REQUEST (key k is a counter (add): PUT refused (a key "
                        + "keeps the type of its first operation))");
        assertThat(s.hasUnconfirmedWrite()).isFalse();
    }

    @Test
    void anAbortWithoutARefusalIsReportedOnceTheOtherParticipantsRequestTimesOut() throws Exception {
        abortBeforeTheRefusalThatCausedIt(null);
        List<String> keys = keysOnBothPartitions(cluster);
        CausalSession s = client.session();
        assertThatThrownBy(() -> s.write(Map.of(keys.get(0), "1", keys.get(1), "2")))
                .isInstanceOfSatisfying(WriteTimeoutException.class, e -> assertThat(e.outcome()).isEqualTo(WriteOutcome.ABORTED));
        assertThat(s.hasUnconfirmedWrite()).isFalse();
        assertThat(cluster.allRequests()).filteredOn(r -> r instanceof OutcomeQuery).as("the outcome is known").isEmpty();
    }

    @Test
    void repliesWithImpossibleClocksFailInsteadOfHanging() throws Exception {
        connect((node, request, out) -> {
            VectorClock wrongSize = VectorClock.zero(N + 1);
            if (request instanceof FirstRoundRead r) {
                ReadReply ok = ScriptedCluster.emptyRead(r.requestId(), r.keys(), VectorClock.zero(N));
                out.reply(new ReadReply(r.requestId(), ok.values(), ok.snapshot(), wrongSize, 0, 0, List.of(), false));
            } else if (request instanceof WriteRequest w) {
                out.reply(new WriteReply(w.requestId(), w.txnId(), Outcome.COMMITTED, wrongSize, 0));
            }
        });
        CausalSession s = client.session();
        assertThatThrownBy(() -> s.read("k")).isInstanceOf(ProtocolException.class);
        assertThatThrownBy(() -> s.write(Map.of("k", "v"))).isInstanceOfSatisfying(WriteTimeoutException.class, e -> {
            assertThat(e.outcome()).isEqualTo(WriteOutcome.UNKNOWN);
            assertThat(e.getCause()).isInstanceOf(ProtocolException.class);
        });
        assertThat(s.exportToken().clock()).containsOnly(0);
    }

    @Test
    void downPartitionFailsOnceTheTimeoutPassesAndTheClientReconnectsByItself() throws Exception {
        connect(ScriptedCluster.emptyStore(N));
        List<String> onOne = new ArrayList<>();
        for (int i = 0; onOne.size() < 3; i++) if (cluster.ring().ownerOf(Key.of("k" + i)) == 1) onOne.add("k" + i);
        CausalSession s = client.session();
        cluster.node(1).stop();
        Eventually.within(Duration.ofSeconds(5), () -> client.metrics().connectedPartitions() == N - 1);
        int before = cluster.allRequests().size();
        assertThatThrownBy(() -> s.write(Map.of(onOne.get(0), "v", "other", "w")))
                .isInstanceOfSatisfying(PartitionUnavailableException.class, e -> assertThat(e.partition()).isEqualTo(1));
        assertThat(cluster.allRequests()).hasSize(before); // nothing sent
        assertThatThrownBy(() -> s.read(onOne)).isInstanceOf(PartitionUnavailableException.class);
        assertThat(s.hasUnconfirmedWrite()).isFalse();

        cluster.node(1).restart();
        Eventually.within(Duration.ofSeconds(5), () -> client.metrics().connectedPartitions() == N);
        assertThat(s.read(onOne).size()).isEqualTo(3);
        assertThat(client.metrics().reconnects()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void nodeThatComesBackElsewhereIsFoundThroughTheRing() throws Exception {
        connect(ScriptedCluster.emptyStore(N));
        long refreshes = client.metrics().ringRefreshes();
        cluster.move(2);
        Eventually.within(Duration.ofSeconds(5), () -> client.metrics().connectedPartitions() == N
                && client.metrics().ringRefreshes() > refreshes);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) keys.add("k" + i);
        assertThat(client.session().read(keys).partitionsTouched()).isEqualTo(N);
        assertThat(cluster.node(2).requests).isNotEmpty();
    }

    @Test
    void transactionsOfOneSessionRunOneAtATimeInCallOrder() throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
        ScriptedCluster.Script store = ScriptedCluster.emptyStore(N);
        cluster = ScriptedCluster.start(N, (node, request, out) -> {
            if (!(request instanceof WriteRequest w)) {
                store.onRequest(node, request, out);
                return;
            }
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            order.add(new String(w.writes().get(0).value(), StandardCharsets.UTF_8));
            CompletableFuture.delayedExecutor(5, java.util.concurrent.TimeUnit.MILLISECONDS).execute(() -> {
                inFlight.decrementAndGet();
                store.onRequest(node, request, out);
            });
        });
        client = builder().build();
        CausalSession s = client.session();
        List<CompletionStage<WriteResult>> results = new ArrayList<>();
        for (int i = 0; i < 20; i++) results.add(s.writeAsync(Map.of("same-key", Integer.toString(i))));
        for (CompletionStage<WriteResult> r : results) r.toCompletableFuture().get();
        assertThat(maxInFlight.get()).isEqualTo(1);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) expected.add(Integer.toString(i));
        assertThat(order).isEqualTo(expected);
    }

    @Test
    void blockingCallsOnIoThreadsAreRefused() throws Exception {
        ScriptedCluster.Script store = ScriptedCluster.emptyStore(N);
        // Late replies, so the callback below is attached before the read completes and runs on an I/O thread.
        connect((node, request, out) -> CompletableFuture.delayedExecutor(100, java.util.concurrent.TimeUnit.MILLISECONDS)
                .execute(() -> store.onRequest(node, request, out)));
        CausalSession s = client.session();
        CompletableFuture<Throwable> caught = new CompletableFuture<>();
        s.readAsync(List.of("a")).whenComplete((r, e) -> {
            try {
                s.read("b");
                caught.complete(null);
            } catch (Throwable t) {
                caught.complete(t);
            }
        });
        assertThat(caught.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("I/O thread");
    }

    @Test
    void asyncFailuresAreNotWrapped() throws Exception {
        connect(ScriptedCluster.emptyStore(N));
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        client.session().readAsync(List.of("")).whenComplete((r, e) -> failure.complete(e));
        assertThat(failure.get()).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void tokenFromAnotherClusterIsRefused() throws Exception {
        connect(ScriptedCluster.emptyStore(N));
        CausalToken mine = client.session().exportToken();
        assertThat(client.session(CausalToken.parse(mine.toString())).exportToken()).isEqualTo(mine);
        assertThatThrownBy(() -> client.session(CausalToken.of(new long[N], mine.ringFingerprint() + 1)))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("another cluster");
        assertThatThrownBy(() -> client.session(CausalToken.of(new long[N + 1], mine.ringFingerprint())))
                .isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void metricsCountAndTime() throws Exception {
        connect(ScriptedCluster.emptyStore(N));
        CausalSession s = client.session();
        for (int i = 0; i < 10; i++) s.read("k" + i);
        for (int i = 0; i < 5; i++) s.write(Map.of("k" + i, "v"));
        ClientMetrics m = client.metrics();
        assertThat(m.reads().attempts()).isEqualTo(10);
        assertThat(m.reads().successes()).isEqualTo(10);
        assertThat(m.reads().errors() + m.reads().timeouts() + m.reads().invalidRequests()).isZero();
        assertThat(m.reads().latency().count()).isEqualTo(10);
        assertThat(m.reads().latency().percentileMicros(50)).isPositive();
        assertThat(m.reads().latency().maxMicros()).isGreaterThanOrEqualTo(m.reads().latency().minMicros());
        assertThat(m.reads().latency().meanMicros()).isPositive();
        assertThat(m.writes().successes()).isEqualTo(5);
        assertThat(m.writes().latency().count()).isEqualTo(5);
        assertThat(m.readRounds()).isEqualTo(10);
        assertThat(m.secondRoundShare()).isZero();
        assertThat(m.toString()).contains("reads{");
    }

    @Test
    void closedClientRefusesWork() throws Exception {
        connect(ScriptedCluster.emptyStore(N));
        CausalSession s = client.session();
        client.close();
        client.close(); // idempotent
        assertThat(client.isClosed()).isTrue();
        assertThatThrownBy(client::session).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> s.read("k")).isInstanceOf(IllegalStateException.class);
        assertThat(client.metrics().connectedPartitions()).isZero();
    }
}
