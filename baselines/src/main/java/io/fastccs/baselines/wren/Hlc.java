package io.fastccs.baselines.wren;

/**
 * Hybrid logical timestamps packed in one long: physical microseconds in the high 53 bits, a logical counter in the
 * low {@link #LOGICAL_BITS} bits. Not Wren's 48 + 16 split: hosts may give epoch microseconds (51 bits today), which
 * do not fit in 48. A logical counter that overflows carries into the physical part, so the clock stays strictly
 * monotonic (it then runs a microsecond ahead, like any HLC under a burst).
 */
final class Hlc {
    static final int LOGICAL_BITS = 11;

    private Hlc() {
    }

    /** The timestamp of physical time {@code micros} with logical part 0. */
    static long ofMicros(long micros) {
        return Math.max(0, micros) << LOGICAL_BITS;
    }

    static long physical(long ts) {
        return ts >>> LOGICAL_BITS;
    }

    static long logical(long ts) {
        return ts & ((1L << LOGICAL_BITS) - 1);
    }

    static String format(long ts) {
        return physical(ts) + "." + logical(ts);
    }
}
