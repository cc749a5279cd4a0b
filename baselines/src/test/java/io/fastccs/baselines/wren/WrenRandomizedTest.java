package io.fastccs.baselines.wren;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import io.fastccs.core.spi.ReadResult;
import io.fastccs.core.spi.ReadStep;
import io.fastccs.core.spi.WriteStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several partitions and sessions, random delivery order, lost peer messages and ticks; checks directly that no read
 * is fractured and that sessions read their own writes.
 */
class WrenRandomizedTest {
    static final PartitionConfig CONFIG = PartitionConfig.builder()
            .transactionTimeoutMicros(40_000).checkIntervalMicros(8_000).stabilizationIntervalMicros(2_000)
            .gcIntervalMicros(10_000).versionRetentionMicros(300_000).build();

    record Txn(TxnId id, Map<Key, String> writes) {
    }

    record ReadRecord(int session, List<Key> keys, Map<Key, ReadValue> values, Map<Key, WrenStamp> ownBefore) {
    }

    static final class Slot {
        final int index;
        final WrenSession session;
        ReadStep read;
        List<Key> readKeys;
        Map<Key, WrenStamp> ownAtReadStart;
        WriteStep write;
        Txn writing;
        int startedStep;
        final Map<Key, WrenStamp> own = new HashMap<>();

        Slot(int index, WrenSession session) {
            this.index = index;
            this.session = session;
        }

        boolean idle() {
            return read == null && write == null;
        }
    }

    static final class Result {
        final List<String> violations = new ArrayList<>();
        int reads, writes, committed, aborted, foreignValues, abandonedReads, outcomeQueries;
    }

    static Result run(long seed, Set<WrenBug> bugs) {
        WrenSim sim = new WrenSim(4, CONFIG, bugs, seed);
        sim.randomOrder = true;
        sim.peerLoss = 0.03;
        sim.clientLoss = 0.005;
        Random rnd = new Random(seed * 31 + 7);
        SplittableRandom coordinators = new SplittableRandom(seed);
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < 10; i++) keys.add(Key.of("k" + i));
        List<Slot> slots = new ArrayList<>();
        for (int i = 0; i < 5; i++) slots.add(new Slot(i, sim.newSession()));

        Map<String, Txn> byValue = new HashMap<>();
        Map<TxnId, Outcome> outcomes = new HashMap<>();
        Map<TxnId, WrenStamp> stamps = new HashMap<>();
        List<ReadRecord> reads = new ArrayList<>();
        Result result = new Result();
        int txnSeq = 0;

        int steps = 6_000;
        for (int step = 0; ; step++) {
            boolean starting = step < steps;
            if (starting)
                for (Slot s : slots) {
                    if (!s.idle() || rnd.nextInt(4) != 0) continue;
                    s.startedStep = step;
                    List<Key> shuffled = new ArrayList<>(keys);
                    Collections.shuffle(shuffled, rnd);
                    if (rnd.nextInt(3) == 0) {
                        Map<Key, byte[]> w = new LinkedHashMap<>();
                        Map<Key, String> ws = new LinkedHashMap<>();
                        int n = 1 + rnd.nextInt(3);
                        txnSeq++;
                        for (Key k : shuffled.subList(0, n)) {
                            String v = "s" + s.index + "-t" + txnSeq + "-" + k;
                            w.put(k, v.getBytes(StandardCharsets.UTF_8));
                            ws.put(k, v);
                        }
                        s.write = s.session.write(w, coordinators);
                        s.writing = new Txn(s.write.txnId(), ws);
                        for (String v : ws.values()) byValue.put(v, s.writing);
                        sim.submit(s.write);
                    } else {
                        s.readKeys = List.copyOf(shuffled.subList(0, 1 + rnd.nextInt(4)));
                        s.ownAtReadStart = new HashMap<>(s.own);
                        s.read = s.session.read(s.readKeys);
                        sim.submit(s.read);
                    }
                }
            for (Slot s : slots) {
                // A client that waited long gives up on a read, and asks the coordinator about a write.
                if (s.read != null && step - s.startedStep > 800) {
                    s.read = null;
                    result.abandonedReads++;
                } else if (s.write != null && step - s.startedStep >= 600 && (step - s.startedStep) % 300 == 0) {
                    sim.send(s.write::onResponse, List.of(s.write.queryOutcome()));
                    result.outcomeQueries++;
                }
            }
            if (!sim.deliverOne() || rnd.nextInt(5) == 0) {
                sim.advance(50 + rnd.nextInt(600));
                sim.tickAll();
            }
            for (Slot s : slots) {
                if (s.write != null && s.write.isFinished()) {
                    result.writes++;
                    outcomes.put(s.writing.id(), s.write.outcome());
                    if (s.write.isConfirmed()) {
                        result.committed++;
                        WrenStamp st = (WrenStamp) s.write.commitStamp();
                        stamps.put(s.writing.id(), st);
                        for (Key k : s.writing.writes().keySet()) s.own.merge(k, st, (a, b) -> a.compareTo(b) >= 0 ? a : b);
                    } else {
                        result.aborted++;
                    }
                    s.write = null;
                }
                if (s.read != null && s.read.isFinished()) {
                    if (!s.read.succeeded()) result.violations.add("read failed: " + s.read.failure());
                    else {
                        ReadResult r = s.read.result();
                        if (r.rounds() < 1 || r.rounds() > 2) result.violations.add("rounds " + r.rounds());
                        reads.add(new ReadRecord(s.index, s.readKeys, r.values(), s.ownAtReadStart));
                    }
                    result.reads++;
                    s.read = null;
                }
            }
            if (!starting && slots.stream().allMatch(Slot::idle)) break;
            if (step > steps + 1_000_000) {
                result.violations.add("operations did not finish");
                break;
            }
        }

        for (ReadRecord r : reads) {
            for (Key k : r.keys()) {
                String v = str(r.values().get(k));
                WrenStamp mineBefore = r.ownBefore().get(k);
                Txn t = v == null ? null : byValue.get(v);
                if (v != null && t == null) {
                    result.violations.add("unknown value " + v);
                    continue;
                }
                if (t != null && outcomes.get(t.id()) != Outcome.COMMITTED) {
                    result.violations.add("read " + v + " of a transaction that " + outcomes.get(t.id()));
                    continue;
                }
                if (t != null && t.id().client() != r.session() + 1) result.foreignValues++;
                // read your writes: at least the session's last confirmed write of k before the read started
                if (mineBefore != null && (t == null || stamps.get(t.id()).compareTo(mineBefore) < 0))
                    result.violations.add("session " + r.session() + " read " + k + "=" + v + " after writing it at " + mineBefore);
                if (t == null) continue;
                WrenStamp ts = stamps.get(t.id());
                for (Key k2 : r.keys()) {
                    if (k2.equals(k) || !t.writes().containsKey(k2)) continue;
                    String v2 = str(r.values().get(k2));
                    Txn t2 = v2 == null ? null : byValue.get(v2);
                    if (t2 == null || (!t2.id().equals(t.id()) && (stamps.get(t2.id()) == null || stamps.get(t2.id()).compareTo(ts) < 0)))
                        result.violations.add("fractured read by session " + r.session() + ": " + k + "=" + v + " but " + k2 + "=" + v2
                                + " (" + (t2 == null ? "none" : stamps.get(t2.id())) + " < " + ts + ")");
                }
            }
        }
        return result;
    }

    static String str(ReadValue rv) {
        return rv == null || rv.value() == null ? null : new String(rv.value(), StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void noFracturedReadsAndSessionsReadTheirWrites(long seed) {
        Result r = run(seed, Set.of());
        System.out.printf("wren randomized seed %d: %d reads (%d values of other sessions, %d abandoned), %d writes, %d committed,"
                + " %d aborted, %d outcome queries%n", seed, r.reads, r.foreignValues, r.abandonedReads, r.writes, r.committed,
                r.aborted, r.outcomeQueries);
        assertThat(r.violations).as("seed %d: violations", seed).isEmpty();
        assertThat(r.reads).as("seed %d: reads", seed).isGreaterThan(200);
        assertThat(r.committed).as("seed %d: commits", seed).isGreaterThan(100);
        assertThat(r.foreignValues).as("seed %d: reads of other sessions' writes", seed).isGreaterThan(50);
    }

    @Test
    void forgettingTheWriteCacheIsNoticed() {
        int noticed = 0;
        for (long seed = 1; seed <= 3; seed++) {
            Result r = run(seed, Set.of(WrenBug.NO_WRITE_CACHE));
            if (r.violations.stream().anyMatch(v -> v.contains("after writing it"))) noticed++;
        }
        assertThat(noticed).isPositive();
    }
}
