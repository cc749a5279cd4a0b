package io.fastccs.check;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What a later read of a typed key must return inside one transaction: its earlier read of the key
 * with the transaction's own operations since then applied (a transaction reads one snapshot, plus its
 * own operations). Exact for counters, max registers and sets (an own remove removes every add the
 * transaction can see, an own add after it is seen); for top-k only as deep as earlier reads showed:
 * a read of k entries pins the best k items, the ones after them are unknown.
 */
final class LaterReads {

    private final Op.Kind readKind;
    private final long key;
    private long value;
    private TreeSet<Long> members;
    private Map<Long, Long> top;
    /** Top-k: the best this-many known entries are the best of all (Integer.MAX_VALUE: every item is known). */
    private int exactDepth;

    private LaterReads(Op read) {
        readKind = read.kind();
        key = read.key();
        reset(read);
    }

    /** The view after a transaction's first read of a typed key. */
    static LaterReads after(Op firstRead) {
        return new LaterReads(firstRead);
    }

    private void reset(Op read) {
        switch (readKind) {
            case READ_SET -> {
                members = new TreeSet<>();
                for (int i = 0; i < read.size(); i++) {
                    members.add(read.elementAt(i));
                }
            }
            case READ_TOPK -> {
                top = new HashMap<>();
                for (int i = 0; i < read.size(); i++) {
                    top.merge(read.elementAt(i), read.scoreAt(i), Math::max);
                }
                exactDepth = read.size() < read.k() ? Integer.MAX_VALUE : read.k();
            }
            default -> value = read.value();
        }
    }

    /**
     * Applies the transaction's own operations {@code since} the previous read of the key, and returns
     * what {@code read} must return, or null if that is unknown (then {@code read} becomes the new base).
     * After a mismatch the expected value stays the base, so every deviating read is reported.
     */
    Op next(List<Op> since, Op read) {
        switch (readKind) {
            case READ_COUNTER -> {
                for (Op op : since) {
                    value += op.value();
                }
                return Op.readCounter(key, value);
            }
            case READ_MAX -> {
                for (Op op : since) {
                    value = Math.max(value, op.value());
                }
                return Op.readMax(key, value);
            }
            case READ_SET -> {
                for (Op op : since) {
                    if (op.kind() == Op.Kind.SET_ADD) {
                        members.add(op.value());
                    } else {
                        members.remove(op.value());
                    }
                }
                return Op.readSet(key, members.stream().mapToLong(Long::longValue).toArray());
            }
            default -> {
                for (Op op : since) {
                    top.merge(op.value(), op.score(), Math::max);
                }
                if (read.k() > exactDepth) {
                    reset(read);
                    return null;
                }
                long[][] best = TopK.best(top, read.k());
                return Op.readTopk(key, read.k(), best[0], best[1]);
            }
        }
    }

    /** Whether a read returned what {@link #next} expected. */
    static boolean same(Op expected, Op read) {
        return expected.value() == read.value() && Arrays.equals(expected.elements(), read.elements())
                && Arrays.equals(expected.scores(), read.scores());
    }
}
