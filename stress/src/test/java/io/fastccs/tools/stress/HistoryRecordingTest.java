package io.fastccs.tools.stress;

import io.fastccs.check.CheckResult;
import io.fastccs.check.History;
import io.fastccs.check.PlumeText;
import io.fastccs.check.TccChecker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class HistoryRecordingTest {
    /** An in-memory store; atomic (serializable) unless {@code lossy}, which drops all but the first key of a write. */
    static final class MemoryBackend implements StressBackend {
        final Map<Long, Long> store = new HashMap<>();
        final boolean lossy;

        MemoryBackend(boolean lossy) { this.lossy = lossy; }

        @Override public String name() { return lossy ? "lossy" : "memory"; }

        @Override public Session session() {
            return new Session() {
                @Override public long[] read(long[] keys) {
                    synchronized (store) {
                        long[] v = new long[keys.length];
                        for (int i = 0; i < keys.length; i++) v[i] = store.getOrDefault(keys[i], 0L);
                        return v;
                    }
                }
                @Override public int lastRounds() { return 1; }
                @Override public WriteStatus write(long[] keys, long[] values) {
                    synchronized (store) {
                        for (int i = 0; i < (lossy ? 1 : keys.length); i++) store.put(keys[i], values[i]);
                    }
                    return WriteStatus.OK;
                }
                @Override public boolean takeReset() { return false; }
            };
        }

        @Override public void populate(long from, long to, long firstValue, HistoryRecorder history, java.util.function.LongConsumer written) {
            long s = history.newSession();
            for (long k = from; k <= to; k++) {
                synchronized (store) { store.put(k, firstValue + k - from); }
                history.write(s, new long[] {k}, new long[] {firstValue + k - from}, true);
            }
        }

        @Override public void close() {}
    }

    private static StressResult run(StressBackend b, Path history) throws Exception {
        StressOptions o = StressOptions.parse("mixed", "n=3000", "-rate", "threads=4", "-pop", "dist=uniform(1..50)",
                "-txn", "write-fraction=0.3", "-log", "interval=100ms", "-check", "--history", history.toString());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StressResult r = new StressRun(o, b, new PrintStream(bytes, true), PacedClock.SYSTEM).run();
        String out = bytes.toString();
        assertThat(out).contains("Op rate", "Latency 99.9th percentile", "Total errors", "Total operation time", "Second-round reads");
        return r;
    }

    @Test
    void recordsEveryTransactionAndFinalReadsInThePlumeFormat(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("h.txt");
        StressResult r = run(new MemoryBackend(false), file);
        assertThat(r.reads() + r.writes()).isEqualTo(3000);
        assertThat(r.writes()).isBetween(600L, 1200L);
        assertThat(r.check().ok()).as(r.check().summary()).isTrue();
        History h = PlumeText.read(file, Set.of(HistoryRecorder.FINAL_SESSION));
        // populate (50) + the run + final reads of 50 keys (one transaction)
        assertThat(h.transactions()).hasSize(50 + 3000 + 1);
        assertThat(TccChecker.check(h).ok()).isTrue();
        assertThat(Files.readString(file)).contains(",0,"); // final session 0
    }

    @Test
    void writesAnHdrHistogramLogPerInterval(@TempDir Path dir) throws Exception {
        Path hdr = dir.resolve("lat.hdr");
        StressOptions o = StressOptions.parse("mixed", "duration=1s", "-rate", "threads=2", "fixed=2000/s", "-pop", "dist=uniform(1..50)",
                "-log", "interval=200ms", "hdrfile=" + hdr);
        StressResult r = new StressRun(o, new MemoryBackend(false), new PrintStream(new ByteArrayOutputStream()), PacedClock.SYSTEM).run();
        assertThat(r.opRate()).isBetween(1500.0, 2500.0);
        org.HdrHistogram.HistogramLogReader reader = new org.HdrHistogram.HistogramLogReader(hdr.toFile());
        int intervals = 0;
        long count = 0;
        for (org.HdrHistogram.EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; intervals++)
            count += ((org.HdrHistogram.Histogram) h).getTotalCount();
        assertThat(intervals).isGreaterThanOrEqualTo(8); // READ and WRITE per interval, 5 intervals
        assertThat(count).isEqualTo(r.reads() + r.writes());
    }

    @Test
    void aFracturedStoreIsCaught(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("h.txt");
        StressResult r = run(new MemoryBackend(true), file);
        assertThat(r.check().ok()).isFalse();
        CheckResult again = TccChecker.check(PlumeText.read(file, Set.of(0L)));
        assertThat(again.ok()).isFalse();
    }
}
