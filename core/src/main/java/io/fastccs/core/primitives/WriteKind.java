package io.fastccs.core.primitives;

/**
 * What a write does to its key: replace the value ({@link #PUT}, a register), or one of the commutative operations
 * whose effects add up instead of replacing each other (docs/design/commutative-operations.md, "What a write can do").
 * A key has one {@link KeyType}, fixed by its first operation.
 *
 * <p>Operands (the write's value bytes): {@link #ADD} and {@link #MAX} an 8-byte big-endian number; {@link #SET_ADD}
 * and {@link #SET_REMOVE} the element; {@link #TOPK_INSERT} {@code [k: 4 bytes][score: 8 bytes][item]}. See
 * {@code typed.Operands}. {@link #FOLDED} is never sent: it marks a stored version that holds the fold of collected
 * operations (garbage collection folds old operations into one base instead of dropping them).
 */
public enum WriteKind {
    PUT(KeyType.REGISTER),
    ADD(KeyType.COUNTER),
    MAX(KeyType.MAX),
    SET_ADD(KeyType.SET),
    SET_REMOVE(KeyType.SET),
    TOPK_INSERT(KeyType.TOPK),
    FOLDED(null);

    private final KeyType type;

    WriteKind(KeyType type) {
        this.type = type;
    }

    /** The type of key this operation applies to ({@code null} for {@link #FOLDED}: the folded state says). */
    public KeyType keyType() {
        return type;
    }

    /** Whether this is a commutative operation (or a fold of them), not a plain put. */
    public boolean isTyped() {
        return this != PUT;
    }

    private static final WriteKind[] VALUES = values();

    /** The kind numbered {@code ordinal} (the wire and the store's number), or null. */
    public static WriteKind ofOrdinal(int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}
