package io.fastccs.check;

import java.util.Objects;

/**
 * One operation of a transaction on a key-value (read/write register) store.
 *
 * <p>Keys and values are integers. Value {@code 0} is the initial value of every key; a read that
 * found nothing is recorded as a read of {@code 0}, and transactions never write {@code 0}.
 *
 * @param kind  read or write
 * @param key   the key
 * @param value the value read or written
 */
public record Op(Kind kind, long key, long value) {

    /** Operation kind. */
    public enum Kind { READ, WRITE }

    public Op {
        Objects.requireNonNull(kind, "kind");
    }

    /** A read of {@code key} that returned {@code value}. */
    public static Op read(long key, long value) {
        return new Op(Kind.READ, key, value);
    }

    /** A write of {@code value} to {@code key}. */
    public static Op write(long key, long value) {
        return new Op(Kind.WRITE, key, value);
    }

    /** Whether this is a read. */
    public boolean isRead() {
        return kind == Kind.READ;
    }

    @Override
    public String toString() {
        return (kind == Kind.READ ? "r(" : "w(") + key + "," + value + ")";
    }
}
