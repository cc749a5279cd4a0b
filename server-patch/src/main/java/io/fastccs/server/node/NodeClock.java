package io.fastccs.server.node;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The wall clock FastCCS uses on a node, in microseconds: the protocol's time and the store's write timestamps. It
 * never goes back while the process runs: when the wall clock steps back (an NTP step, or the test-only offset made
 * smaller) it stands still until the wall clock catches up. The protocol compares times it gave out earlier (round-two
 * expiry against garbage collection, timeouts against first sight), and those comparisons are safe only on a clock
 * that does not go back; standing still only delays periodic work by the size of the step.
 *
 * <p>{@link #setOffsetMicros} shifts it, for tests only (setting {@code test_clock_offset}): a forward shift is a
 * forward step at once, a backward one a pause of that length.
 */
public final class NodeClock implements LongSupplier {
    private final LongSupplier wallMicros;
    private final AtomicLong lastGiven = new AtomicLong(Long.MIN_VALUE);
    private volatile long offsetMicros;

    /** @param wallMicros the host's wall clock in microseconds (Cassandra's {@code FBUtilities::timestampMicros}) */
    public NodeClock(LongSupplier wallMicros, long offsetMicros) {
        this.wallMicros = wallMicros;
        this.offsetMicros = offsetMicros;
    }

    /** The wall clock plus the offset, or the last time given if that is later. */
    @Override
    public long getAsLong() {
        long now = wallMicros.getAsLong() + offsetMicros;
        return lastGiven.accumulateAndGet(now, Math::max);
    }

    public long offsetMicros() {
        return offsetMicros;
    }

    /** Test only: from now on the clock reads the wall clock plus {@code micros} (never less than it gave before). */
    public void setOffsetMicros(long micros) {
        this.offsetMicros = micros;
    }
}
