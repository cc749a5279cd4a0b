package io.fastccs.baselines.eiger;

import io.fastccs.core.PartitionConfig;
import io.fastccs.core.messages.Outcome;
import io.fastccs.core.messages.ReadValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.spi.ReadResult;
import io.fastccs.core.spi.ReadStep;
import io.fastccs.core.spi.WriteStep;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random delivery order (and, for odd seeds, lost peer messages) with several partitions and sessions. Every read is
 * checked directly: no fractured reads (if it sees transaction T's write on one key and T wrote another key it read,
 * it shows T's write or a later one there), read-your-writes and monotonic reads per session; at the end every key
 * shows its newest committed write at its partition.
 */
class EigerRandomizedTest {
    static final int PARTITIONS = 3;
    static final int KEYS_PER_PARTITION = 3;
    static final int SESSIONS = 5;
    static final int OPS_PER_SESSION = 60;

    static PartitionConfig config() {
        return PartitionConfig.builder().transactionTimeoutMicros(20_000).checkIntervalMicros(5_000)
                .decisionRetentionMicros(200_000).versionRetentionMicros(10_000_000).gcIntervalMicros(50_000).build();
    }

    /** One run's outcome: violations found, and counts of rounds. */
    record Run(List<String> violations, int[] rounds, int committed, int aborted) {
    }

    static final class Driver {
        final int id;
        final EigerSession session;
        int opsLeft = OPS_PER_SESSION;
        ReadStep read;
        WriteStep write;
        Map<Key, String> writing;
        int writes;
        /** Per key, the lowest version this session may read (its own committed writes and what it read). */
        final Map<Key, Long> floor = new HashMap<>();

        Driver(int id, EigerSession session) {
            this.id = id;
            this.session = session;
        }

        boolean idle() {
            return read == null && write == null;
        }
    }

    static Run run(long seed, Set<EigerBug> bugs, double dropRate) {
        Random rnd = new Random(seed);
        EigerTestCluster c = new EigerTestCluster(PARTITIONS, config(), bugs);
        List<Key> keys = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++)
            for (int k = 0; k < KEYS_PER_PARTITION; k++) keys.add(Key.of(p + ":k" + k));
        List<Driver> drivers = new ArrayList<>();
        for (int s = 0; s < SESSIONS; s++) drivers.add(new Driver(s, c.session(1000 + s)));
        Map<String, Set<Key>> txnKeys = new HashMap<>();
        Map<Key, Long> newestCommitted = new HashMap<>();
        List<String> violations = new ArrayList<>();
        int[] rounds = new int[4];
        int committed = 0, aborted = 0;

        for (int step = 0; step < 500_000; step++) {
            boolean work = false;
            for (Driver d : drivers) work |= d.opsLeft > 0 || !d.idle();
            if (!work && c.inFlight.isEmpty()) break;
            int choice = rnd.nextInt(10);
            if (choice < 2) {
                List<Driver> idle = new ArrayList<>();
                for (Driver d : drivers) if (d.idle() && d.opsLeft > 0) idle.add(d);
                if (!idle.isEmpty()) {
                    Driver d = idle.get(rnd.nextInt(idle.size()));
                    d.opsLeft--;
                    List<Key> shuffled = new ArrayList<>(keys);
                    Collections.shuffle(shuffled, rnd);
                    if (rnd.nextInt(3) == 0) {
                        int n = 1 + rnd.nextInt(3);
                        String value = "s" + d.id + "w" + (++d.writes);
                        Map<Key, byte[]> w = new LinkedHashMap<>();
                        d.writing = new LinkedHashMap<>();
                        for (Key k : shuffled.subList(0, n)) {
                            w.put(k, value.getBytes(StandardCharsets.UTF_8));
                            d.writing.put(k, value);
                        }
                        txnKeys.put(value, w.keySet());
                        d.write = c.startWrite(d.session, w, rnd);
                    } else {
                        d.read = c.startRead(d.session, List.copyOf(shuffled.subList(0, 2 + rnd.nextInt(3))));
                    }
                }
            } else if (choice < 3 || c.inFlight.isEmpty()) {
                c.tick(rnd.nextInt(3_000));
            } else {
                EigerTestCluster.Envelope e = c.inFlight.get(rnd.nextInt(c.inFlight.size()));
                if (e instanceof EigerTestCluster.Peer && rnd.nextDouble() < dropRate) c.inFlight.remove(e);
                else c.deliver(e);
            }
            for (Driver d : drivers) {
                if (d.write != null && d.write.isFinished()) {
                    if (d.write.outcome() == Outcome.COMMITTED) {
                        committed++;
                        long stamp = (Long) d.write.commitStamp();
                        for (Key k : d.writing.keySet()) {
                            d.floor.merge(k, stamp, Math::max);
                            newestCommitted.merge(k, stamp, Math::max);
                        }
                    } else if (d.write.outcome() == Outcome.ABORTED) {
                        aborted++;
                    } else {
                        violations.add("session " + d.id + ": write finished undecided: " + d.write.failure());
                    }
                    d.write = null;
                }
                if (d.read != null && d.read.isFinished()) {
                    if (!d.read.succeeded()) violations.add("session " + d.id + ": read failed: " + d.read.failure());
                    else check(d, d.read.result(), txnKeys, violations, rounds);
                    d.read = null;
                }
            }
        }
        for (Driver d : drivers)
            if (d.opsLeft > 0 || !d.idle()) violations.add("session " + d.id + " did not finish");
        // Convergence: after the dust settles, every partition shows every key's newest committed write.
        for (int i = 0; i < 20; i++) c.tick(10_000);
        c.deliverAll();
        EigerSession fresh = c.session(99);
        for (Key k : keys) {
            ReadStep r = c.startRead(fresh, List.of(k));
            c.deliverAll();
            long got = r.result().values().get(k).sequence();
            long want = newestCommitted.getOrDefault(k, 0L);
            if (got != want) violations.add("key " + k + " converged to " + got + ", newest committed is " + want);
        }
        return new Run(violations, rounds, committed, aborted);
    }

    static void check(Driver d, ReadResult r, Map<String, Set<Key>> txnKeys, List<String> violations, int[] rounds) {
        rounds[r.rounds()]++;
        Map<Key, ReadValue> values = r.values();
        for (ReadValue rv : values.values()) {
            if (rv.sequence() < d.floor.getOrDefault(rv.key(), 0L))
                violations.add("session " + d.id + " read " + rv.key() + "@" + rv.sequence() + " below its own write or an earlier read "
                        + d.floor.get(rv.key()) + " in " + values);
            if (rv.value() == null) continue;
            Set<Key> written = txnKeys.get(new String(rv.value(), StandardCharsets.UTF_8));
            for (Key other : written) {
                ReadValue o = values.get(other);
                if (o != null && o.sequence() < rv.sequence())
                    violations.add("session " + d.id + " fractured read: " + rv.key() + " shows transaction "
                            + new String(rv.value(), StandardCharsets.UTF_8) + " but " + other + " shows an older version: " + values);
            }
        }
        for (ReadValue rv : values.values()) d.floor.merge(rv.key(), rv.sequence(), Math::max);
    }

    @Test
    void noFracturedReadsAndSessionsReadTheirWrites() {
        int[] total = new int[4];
        int committed = 0, aborted = 0;
        for (long seed = 1; seed <= 8; seed++) {
            Run run = run(seed, Set.of(), seed % 2 == 1 ? 0.05 : 0);
            assertThat(run.violations()).as("seed %d", seed).isEmpty();
            for (int i = 0; i < 4; i++) total[i] += run.rounds()[i];
            committed += run.committed();
            aborted += run.aborted();
        }
        System.out.printf("eiger randomized: reads in 1/2/3 rounds %d/%d/%d, writes committed %d aborted %d%n",
                total[1], total[2], total[3], committed, aborted);
        // the runs exercise the interesting paths
        assertThat(total[2] + total[3]).isPositive();
        assertThat(total[3]).isPositive();
        assertThat(committed).isPositive();
    }

    @Test
    void brokenVariantsAreCaughtByTheSameCheck() {
        for (EigerBug bug : EigerBug.values()) {
            int found = 0;
            for (long seed = 1; seed <= 8 && found == 0; seed++) found += run(seed, EnumSet.of(bug), 0).violations().size();
            assertThat(found).as("violations found with %s", bug).isPositive();
        }
    }
}
