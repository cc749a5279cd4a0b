package io.fastccs.check;

import java.util.Arrays;
import java.util.Objects;

/**
 * One operation of a transaction: a read or write of a register, or a typed commutative operation
 * (counter, max register, add-wins set, top-k) or a read of such a key's folded value.
 *
 * <p>Keys and values are integers. Value {@code 0} is the initial value of every register key; a read
 * that found nothing is recorded as a read of {@code 0}, and transactions never write {@code 0}.
 *
 * <p>A key has one {@link DataType}, fixed by its first operation. What {@link #value()} holds
 * depends on the kind: the value read or written ({@code READ}, {@code WRITE}, {@code MAX},
 * {@code READ_COUNTER}, {@code READ_MAX}), the delta ({@code ADD}), the element
 * ({@code SET_ADD}, {@code SET_REMOVE}), the item ({@code TOPK_INSERT}), the read's k
 * ({@code READ_TOPK}); it is 0 for {@code READ_SET}. {@link #elements()} holds a set read's members
 * (sorted, distinct) or a top-k read's items (in the order returned); {@link #scores()} holds a top-k
 * read's scores, or the one score of a top-k insert. Both are empty for the other kinds.
 *
 * @param kind     the kind of operation
 * @param key      the key
 * @param value    see above
 * @param elements see above (never null; copied, and sorted for a set read)
 * @param scores   see above (never null; copied)
 */
public record Op(Kind kind, long key, long value, long[] elements, long[] scores) {

    private static final long[] NONE = new long[0];

    /** The data type of a key, fixed by the first operation on it. */
    public enum DataType {
        /** Read/write register: a read returns the last write visible to it. */
        REGISTER,
        /** Counter: a read returns the sum of the visible adds. */
        COUNTER,
        /** Max register: a read returns the largest visible value, 0 if there is none (or all are negative). */
        MAX_REGISTER,
        /** Add-wins (observed-remove) set of elements. */
        SET,
        /** Top-k: per item the largest visible score; a read returns the k best items. */
        TOP_K
    }

    /** Operation kind. */
    public enum Kind {
        READ(DataType.REGISTER, true),
        WRITE(DataType.REGISTER, false),
        /** Adds a delta (any sign) to a counter. */
        ADD(DataType.COUNTER, false),
        /** Raises a max register to a value. */
        MAX(DataType.MAX_REGISTER, false),
        /** Adds an element to a set. */
        SET_ADD(DataType.SET, false),
        /** Removes an element from a set: exactly the adds of it in this transaction's causal past. */
        SET_REMOVE(DataType.SET, false),
        /** Inserts an item with a score into a top-k key. */
        TOPK_INSERT(DataType.TOP_K, false),
        READ_COUNTER(DataType.COUNTER, true),
        READ_MAX(DataType.MAX_REGISTER, true),
        READ_SET(DataType.SET, true),
        READ_TOPK(DataType.TOP_K, true);

        private final DataType dataType;
        private final boolean read;

        Kind(DataType dataType, boolean read) {
            this.dataType = dataType;
            this.read = read;
        }

        /** The data type of the keys this kind of operation applies to. */
        public DataType dataType() {
            return dataType;
        }

        /** Whether this kind reads. */
        public boolean isRead() {
            return read;
        }
    }

    public Op {
        Objects.requireNonNull(kind, "kind");
        elements = elements == null || elements.length == 0 ? NONE : elements.clone();
        scores = scores == null || scores.length == 0 ? NONE : scores.clone();
        switch (kind) {
            case READ_SET -> {
                Arrays.sort(elements);
                elements = distinct(elements);
                require(scores.length == 0, "a set read has no scores");
            }
            case READ_TOPK -> {
                require(value >= 0 && value <= Integer.MAX_VALUE, "top-k read with k = " + value);
                require(elements.length == scores.length, "top-k read with " + elements.length + " items but "
                        + scores.length + " scores");
            }
            case TOPK_INSERT -> require(elements.length == 0 && scores.length == 1,
                    "a top-k insert has exactly one score");
            default -> require(elements.length == 0 && scores.length == 0, kind + " has no elements or scores");
        }
    }

    /** A register operation (the original three-component form). */
    public Op(Kind kind, long key, long value) {
        this(kind, key, value, NONE, NONE);
    }

    // ---------------------------------------------------------------- registers

    /** A read of {@code key} that returned {@code value}. */
    public static Op read(long key, long value) {
        return new Op(Kind.READ, key, value);
    }

    /** A write of {@code value} to {@code key}. */
    public static Op write(long key, long value) {
        return new Op(Kind.WRITE, key, value);
    }

    // ---------------------------------------------------------------- typed updates

    /** Adds {@code delta} to counter {@code key}. */
    public static Op add(long key, long delta) {
        return new Op(Kind.ADD, key, delta);
    }

    /** Raises max register {@code key} to {@code value} (if it is larger). */
    public static Op max(long key, long value) {
        return new Op(Kind.MAX, key, value);
    }

    /** Adds {@code element} to set {@code key}. */
    public static Op setAdd(long key, long element) {
        return new Op(Kind.SET_ADD, key, element);
    }

    /** Removes {@code element} from set {@code key} (the adds of it in this transaction's causal past). */
    public static Op setRemove(long key, long element) {
        return new Op(Kind.SET_REMOVE, key, element);
    }

    /** Inserts {@code item} with {@code score} into top-k key {@code key}. */
    public static Op topkInsert(long key, long item, long score) {
        return new Op(Kind.TOPK_INSERT, key, item, NONE, new long[] {score});
    }

    // ---------------------------------------------------------------- typed reads

    /** A read of counter {@code key} that returned the sum {@code value}. */
    public static Op readCounter(long key, long value) {
        return new Op(Kind.READ_COUNTER, key, value);
    }

    /** A read of max register {@code key} that returned {@code value} (0: no visible value). */
    public static Op readMax(long key, long value) {
        return new Op(Kind.READ_MAX, key, value);
    }

    /** A read of set {@code key} that returned {@code elements} (any order; stored sorted and distinct). */
    public static Op readSet(long key, long... elements) {
        return new Op(Kind.READ_SET, key, 0, elements, NONE);
    }

    /**
     * A top-k read of {@code key} with parameter {@code k} that returned the pairs
     * {@code (items[i], scores[i])}, as the store listed them (highest score first, ties by smaller
     * item first, at most k, if the store is right).
     */
    public static Op readTopk(long key, int k, long[] items, long[] scores) {
        return new Op(Kind.READ_TOPK, key, k, items, scores);
    }

    // ---------------------------------------------------------------- queries

    /** Whether this is a read (of a register or of a typed key). */
    public boolean isRead() {
        return kind.isRead();
    }

    /** Whether this is a typed operation (anything but a register read or write). */
    public boolean isTyped() {
        return kind.dataType() != DataType.REGISTER;
    }

    /** The data type of the key this operation applies to. */
    public DataType dataType() {
        return kind.dataType();
    }

    /** A set read's members (sorted) or a top-k read's items (as listed); a copy. */
    @Override
    public long[] elements() {
        return elements.clone();
    }

    /** A top-k read's scores (parallel to {@link #elements()}), or a top-k insert's one score; a copy. */
    @Override
    public long[] scores() {
        return scores.clone();
    }

    /** An add's delta. */
    public long delta() {
        requireKind(Kind.ADD);
        return value;
    }

    /** The element of a set add or remove. */
    public long element() {
        if (kind != Kind.SET_ADD && kind != Kind.SET_REMOVE) {
            throw new IllegalStateException("element() called on " + this);
        }
        return value;
    }

    /** The item of a top-k insert. */
    public long item() {
        requireKind(Kind.TOPK_INSERT);
        return value;
    }

    /** The score of a top-k insert. */
    public long score() {
        requireKind(Kind.TOPK_INSERT);
        return scores[0];
    }

    /** A top-k read's k. */
    public int k() {
        requireKind(Kind.READ_TOPK);
        return (int) value;
    }

    /** A top-k read's items, as listed; a copy. */
    public long[] items() {
        requireKind(Kind.READ_TOPK);
        return elements.clone();
    }

    /** Number of elements (set read) or pairs (top-k read), without copying. */
    int size() {
        return elements.length;
    }

    /** Whether a set read's members include {@code element}. */
    boolean hasElement(long element) {
        return Arrays.binarySearch(elements, element) >= 0;
    }

    /** The i-th element or item, without copying. */
    long elementAt(int i) {
        return elements[i];
    }

    /** The i-th score, without copying. */
    long scoreAt(int i) {
        return scores[i];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Op op && kind == op.kind && key == op.key && value == op.value
                && Arrays.equals(elements, op.elements) && Arrays.equals(scores, op.scores);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, key, value, Arrays.hashCode(elements), Arrays.hashCode(scores));
    }

    /** The operation as in the (extended) Plume text format, without session and transaction. */
    @Override
    public String toString() {
        return switch (kind) {
            case READ -> "r(" + key + "," + value + ")";
            case WRITE -> "w(" + key + "," + value + ")";
            case ADD -> "add(" + key + "," + value + ")";
            case MAX -> "max(" + key + "," + value + ")";
            case SET_ADD -> "sadd(" + key + "," + value + ")";
            case SET_REMOVE -> "srem(" + key + "," + value + ")";
            case TOPK_INSERT -> "topk(" + key + "," + value + ":" + scores[0] + ")";
            case READ_COUNTER -> "rc(" + key + "," + value + ")";
            case READ_MAX -> "rm(" + key + "," + value + ")";
            case READ_SET -> "rs(" + key + "," + listed() + ")";
            case READ_TOPK -> "rt(" + key + "," + value + "," + listed() + ")";
        };
    }

    /** {@code [e1 e2]} for a set read, {@code [item:score ...]} for a top-k read. */
    String listed() {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < elements.length; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(elements[i]);
            if (kind == Kind.READ_TOPK) {
                sb.append(':').append(scores[i]);
            }
        }
        return sb.append(']').toString();
    }

    private void requireKind(Kind k) {
        if (kind != k) {
            throw new IllegalStateException("an accessor of " + k + " called on " + this);
        }
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    private static long[] distinct(long[] sorted) {
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                sorted[n++] = sorted[i];
            }
        }
        return n == sorted.length ? sorted : Arrays.copyOf(sorted, n);
    }
}
