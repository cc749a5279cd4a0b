package io.fastccs.core.primitives;

/**
 * What a key holds; fixed by the first operation on the key (docs/design/commutative-operations.md, "What a write can
 * do").
 */
public enum KeyType {
    /** Plain puts: a read returns the newest value. */
    REGISTER("a plain key (put)"),
    /** {@link WriteKind#ADD}: a read returns the sum of the visible deltas. */
    COUNTER("a counter (add)"),
    /** {@link WriteKind#MAX}: a read returns the largest visible value. */
    MAX("a max register (max)"),
    /** {@link WriteKind#SET_ADD}, {@link WriteKind#SET_REMOVE}: an add-wins set. */
    SET("a set (set add and remove)"),
    /** {@link WriteKind#TOPK_INSERT}: the k items with the highest scores. */
    TOPK("a top-k (top-k insert)");

    private final String description;

    KeyType(String description) {
        this.description = description;
    }

    /** For error messages: "a counter (add)". */
    public String description() {
        return description;
    }

    /** Tag byte of this type's folded values (0 for registers, which are raw bytes). */
    public byte tag() {
        return (byte) ordinal();
    }

    /** The type of a folded value from its tag byte, or null. */
    public static KeyType ofTag(byte tag) {
        return tag > 0 && tag < values().length ? values()[tag] : null;
    }
}
