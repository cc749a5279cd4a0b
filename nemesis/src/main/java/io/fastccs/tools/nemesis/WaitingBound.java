package io.fastccs.tools.nemesis;

import io.fastccs.testkit.RawClient;
import io.fastccs.testkit.ClusterView;

import io.fastccs.client.FastCcsClient;
import io.fastccs.client.ReadResult;
import io.fastccs.client.WriteResult;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.primitives.VectorClock;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.messages.Message;
import io.fastccs.core.messages.Outcome;
import io.fastccs.protocol.messages.OutcomeQuery;
import io.fastccs.protocol.messages.OutcomeReply;
import io.fastccs.protocol.messages.WriteRequest;
import io.fastccs.tools.cluster.LocalCluster;
import io.fastccs.tools.cluster.ToolClock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * Bounded waiting on a real cluster: leaves a write-only transaction prepared on partition P and never committed (its
 * client died after sending the request to P only; optionally its coordinator Q is paused or killed before it can
 * decide), then times a well-behaved write on P, which gets a later sequence number and can only be answered once
 * the stuck one is settled. Design bound: transaction_timeout (2 s) + check_interval (200 ms) + a round trip after
 * the stuck write was prepared; 2 x transaction_timeout in the worst case (docs/design/pitfalls.md, "Pitfall 6:
 * blocking"). A paused or dead coordinator adds its downtime: a participant cannot settle what only the coordinator may
 * decide.
 */
public final class WaitingBound {
    /** How the stuck transaction is left behind. */
    public enum Variant {
        /** The client sent the request to P only; Q (coordinator) learns of it from P's vote and aborts it on timeout. */
        COORDINATOR_ELSEWHERE,
        /** The client sent the request to P, which coordinates, but never to Q: P aborts it when Q's vote does not come. */
        SELF_COORDINATED,
        /** As COORDINATOR_ELSEWHERE, and Q is SIGSTOPped for 3 s right after. */
        COORDINATOR_PAUSED,
        /** As COORDINATOR_ELSEWHERE, and Q is SIGKILLed right after, restarted 2 s later. */
        COORDINATOR_KILLED
    }

    /** One trial: how long the well-behaved write took, from its start and from the stuck write's request. */
    public record Trial(int trial, Variant variant, int stuckPartition, int coordinator, long faultMillis,
                        long goodWriteMillis, long sincePrepareMillis, Outcome stuckOutcome, boolean stuckVisible,
                        boolean goodCommitted, boolean behindStuck) {
        public static String csvHeader() {
            return "trial,variant,stuck_partition,coordinator_partition,fault_ms,good_write_ms,since_stuck_request_ms,stuck_outcome,stuck_visible,good_committed,behind_stuck";
        }

        public String csv() {
            return trial + "," + variant + "," + stuckPartition + "," + coordinator + "," + faultMillis + "," + goodWriteMillis
                    + "," + sincePrepareMillis + "," + stuckOutcome + "," + stuckVisible + "," + goodCommitted + "," + behindStuck;
        }
    }

    private final LocalCluster cluster;
    private final ClusterView view;
    private final Consumer<String> log;

    public WaitingBound(LocalCluster cluster, ClusterView view, Consumer<String> log) {
        this.cluster = cluster;
        this.view = view;
        this.log = log;
    }

    public Trial trial(int trial, Variant variant, String runTag) throws Exception {
        int n = view.nodes();
        if (n < 2) throw new IllegalArgumentException("bounded waiting needs at least two partitions");
        int p = trial % n;
        int q = (p + 1) % n;
        String prefix = "wb:" + runTag + ":" + trial + ":";
        String stuckKeyP = keyOn(prefix + "stuck-p-", p);
        String stuckKeyQ = keyOn(prefix + "stuck-q-", q);
        String goodKey = keyOn(prefix + "good-", p);
        int coordinator = variant == Variant.SELF_COORDINATED ? p : q;
        TxnId txnId = new TxnId(ThreadLocalRandom.current().nextLong() | 1L << 61, trial + 1);
        byte[] stuckValue = "stuck".getBytes(StandardCharsets.UTF_8);

        try (FastCcsClient client = FastCcsClient.builder().addContactPoints(view.fastccsAddresses())
                .withRequestTimeout(Duration.ofMinutes(10)).withReconnectDelay(Duration.ofMillis(100), Duration.ofSeconds(1)).build()) {
            // A probe write on P: its sequence number s0 tells whether the timed write came after the stuck one
            // (sequence s0 + 2 or more) or overtook it on the way in (s0 + 1: the trial says nothing, and is redone).
            long s0 = client.session().write(Map.of(goodKey, "probe-" + trial)).commitClock()[p];
            long t0 = ToolClock.nanoTime();
            try (RawClient c = view.connect(view.nodeOfPartition(p), Duration.ofSeconds(5))) {
                c.send(new WriteRequest(1, txnId, coordinator, List.of(Math.min(p, q), Math.max(p, q)),
                        List.of(new KeyValue(Key.of(stuckKeyP), stuckValue)), VectorClock.zero(n), 0));
                Thread.sleep(20); // the node reads it; then the client dies
            }
            long faultMillis = 0;
            int qNode = view.nodeOfPartition(q);
            Thread fault = null;
            if (variant == Variant.COORDINATOR_PAUSED) {
                cluster.pause(qNode);
                faultMillis = 3_000;
                fault = new Thread(() -> {
                    sleep(3_000);
                    cluster.resume(qNode);
                });
            } else if (variant == Variant.COORDINATOR_KILLED) {
                long killedAt = ToolClock.nanoTime();
                cluster.kill(qNode);
                long[] down = new long[1];
                fault = new Thread(() -> {
                    sleep(2_000);
                    NemesisRun.restartWhenFree(cluster, List.of(qNode), Duration.ofMinutes(8), log);
                    down[0] = (ToolClock.nanoTime() - killedAt) / 1_000_000;
                });
            }
            if (fault != null) fault.start();
            long t1 = ToolClock.nanoTime();
            boolean goodCommitted;
            boolean behind = false;
            try {
                WriteResult w = client.session().write(Map.of(goodKey, "good-" + trial));
                goodCommitted = w.commitClock() != null;
                behind = goodCommitted && w.commitClock()[p] >= s0 + 2;
            } catch (RuntimeException e) {
                log.accept("trial " + trial + ": the well-behaved write failed: " + e);
                goodCommitted = false;
            }
            long t2 = ToolClock.nanoTime();
            if (fault != null) fault.join();
            if (variant == Variant.COORDINATOR_KILLED) faultMillis = (ToolClock.nanoTime() - t0) / 1_000_000; // upper bound
            Outcome outcome = outcome(txnId, coordinator);
            ReadResult r = client.session().read(stuckKeyP, stuckKeyQ, goodKey);
            boolean visible = r.exists(stuckKeyP) || r.exists(stuckKeyQ);
            Trial t = new Trial(trial, variant, p, coordinator, faultMillis, (t2 - t1) / 1_000_000, (t2 - t0) / 1_000_000,
                    outcome, visible, goodCommitted && "good-".concat(Integer.toString(trial)).equals(r.getString(goodKey)), behind);
            log.accept(String.format("trial %d %s: stuck write on partition %d (coordinator %d); the later write on it took %d ms "
                    + "(%d ms after the stuck request); stuck one %s%s%s", trial, variant, p, coordinator, t.goodWriteMillis(),
                    t.sincePrepareMillis(), outcome, visible ? ", VISIBLE" : "", behind ? "" : "; the later write overtook it (redo)"));
            return t;
        }
    }

    private Outcome outcome(TxnId txnId, int coordinator) throws IOException, InterruptedException {
        for (int attempt = 0; attempt < 120; attempt++) {
            try (RawClient c = view.connect(view.nodeOfPartition(coordinator), Duration.ofSeconds(5))) {
                Message m = c.exchange(new OutcomeQuery(7, txnId));
                if (m instanceof OutcomeReply r && r.outcome() != Outcome.UNDECIDED) return r.outcome();
            } catch (IOException e) {
                // restarting: again
            }
            Thread.sleep(500);
        }
        return Outcome.UNDECIDED;
    }

    private String keyOn(String prefix, int partition) {
        for (int i = 0; ; i++) if (view.ownerOf(prefix + i) == partition) return prefix + i;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
