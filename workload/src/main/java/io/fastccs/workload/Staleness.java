package io.fastccs.workload;

import org.HdrHistogram.Recorder;
import org.HdrHistogram.Histogram;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How stale the values a run reads are, in real time, as a user would see it: a key read returned a value although a
 * write to that key had been acknowledged a while before the read began, and that write had itself begun only after
 * the returned value's write was acknowledged (so it is newer in any protocol's order that respects real time, and
 * from the user's side certainly). The key read's staleness is how long before the read began the first such write was
 * acknowledged; zero when there is none. It is measured beside the second-round share because fewer second rounds
 * must not be bought by answering from an ever older snapshot.
 *
 * <p>Each key keeps its last {@value #KEPT} acknowledged writes. Value ids grow in the order writes begin: a returned
 * value with an id below every kept one (the population's, or a write pushed out of the window) counts as acknowledged
 * before all of them; a returned value that is not kept but newer than some kept one (a write not acknowledged yet when
 * the read saw it) counts as fresh. So staleness is never overstated, and may be understated where a value from an
 * earlier run (whose ids started again at 1) is still the newest a key shows. Times are
 * microseconds on any one clock (the stress tool's nanosecond clock, the simulator's virtual time). Thread safe.
 */
public final class Staleness {
    public static final int KEPT = 16;
    private static final long MAX_STALENESS_US = 3_600_000_000L;

    /** The recent acknowledged writes of one key, oldest first (a ring). */
    private static final class KeyLog {
        final long[] valueId = new long[KEPT], began = new long[KEPT], acked = new long[KEPT];
        int next, size;

        synchronized void acked(long id, long beganNanos, long ackedNanos) {
            valueId[next] = id;
            began[next] = beganNanos;
            acked[next] = ackedNanos;
            next = (next + 1) % KEPT;
            if (size < KEPT) size++;
        }

        /** Microseconds between the first acknowledgement of a write newer than {@code id} and {@code readBegan}; 0 if none. */
        synchronized long staleness(long id, long readBegan) {
            long returnedAcked = Long.MIN_VALUE;
            boolean kept = false, olderThanAllKept = true;
            for (int i = 0; i < size; i++) {
                int at = (next - size + i + KEPT) % KEPT;
                if (valueId[at] == id) {
                    returnedAcked = acked[at];
                    kept = true;
                }
                if (valueId[at] <= id) olderThanAllKept = false;
            }
            // Not kept: a value from before every kept write (ids grow in the order writes begin) counts as acknowledged
            // before all of them; any other (a write not acknowledged yet, or in doubt) is given the benefit of the doubt.
            if (!kept && !olderThanAllKept) return 0;
            long firstNewer = Long.MAX_VALUE;
            for (int i = 0; i < size; i++) {
                int at = (next - size + i + KEPT) % KEPT;
                if (valueId[at] != id && began[at] > returnedAcked && acked[at] < readBegan) firstNewer = Math.min(firstNewer, acked[at]);
            }
            return firstNewer == Long.MAX_VALUE ? 0 : readBegan - firstNewer;
        }
    }

    private final ConcurrentHashMap<Long, KeyLog> keys = new ConcurrentHashMap<>();
    private final Recorder staleReads = new Recorder(MAX_STALENESS_US, 2);
    private final AtomicLong keyReads = new AtomicLong(), staleKeyReads = new AtomicLong();

    /** A write of {@code valueIds[i]} to {@code keyIds[i]}, begun and acknowledged at these times, is known committed. */
    public void written(long[] keyIds, long[] valueIds, long beganMicros, long ackedMicros) {
        for (int i = 0; i < keyIds.length; i++)
            keys.computeIfAbsent(keyIds[i], k -> new KeyLog()).acked(valueIds[i], beganMicros, ackedMicros);
    }

    /** A read begun at {@code beganMicros} returned value {@code valueIds[i]} for {@code keyIds[i]} (0: none). */
    public void read(long[] keyIds, long[] valueIds, long beganMicros) {
        for (int i = 0; i < keyIds.length; i++) {
            keyReads.incrementAndGet();
            KeyLog log = keys.get(keyIds[i]);
            long micros = log == null ? 0 : log.staleness(valueIds[i], beganMicros);
            if (micros <= 0) continue;
            staleKeyReads.incrementAndGet();
            staleReads.recordValue(Math.min(MAX_STALENESS_US, micros));
        }
    }

    /** Forgets what was counted so far (the warm-up), keeping the writes known. */
    public void reset() {
        keyReads.set(0);
        staleKeyReads.set(0);
        staleReads.reset();
    }

    /** What was counted since the last reset (once: it starts the next count of staleness figures). */
    public Summary summary() {
        Histogram h = staleReads.getIntervalHistogram();
        return new Summary(keyReads.get(), staleKeyReads.get(), h.getTotalCount() == 0 ? 0 : h.getMean() / 1000,
                h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99) / 1000.0, h.getTotalCount() == 0 ? 0 : h.getMaxValue() / 1000.0);
    }

    /**
     * Of the keys read (a read of five keys counts five), how many returned a value staler than an acknowledged newer
     * write, and by how long, in milliseconds.
     */
    public record Summary(long keyReads, long staleKeyReads, double meanMs, double p99Ms, double maxMs) {
        public static final Summary NONE = new Summary(0, 0, 0, 0, 0);

        public double staleShare() {
            return keyReads == 0 ? 0 : (double) staleKeyReads / keyReads;
        }
    }
}
