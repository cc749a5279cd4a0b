package io.fastccs.core.primitives;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A key: an immutable byte string. Keys compare by content. */
public final class Key implements Comparable<Key> {
    private final byte[] bytes;
    private final int hash;

    private Key(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    public static Key of(byte[] bytes) {
        return new Key(bytes.clone());
    }

    public static Key of(String s) {
        return new Key(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Takes ownership of {@code bytes}; the caller must not modify them afterwards. */
    public static Key wrap(byte[] bytes) {
        return new Key(bytes);
    }

    public int length() {
        return bytes.length;
    }

    /** A copy of the key's bytes. */
    public byte[] toBytes() {
        return bytes.clone();
    }

    /** The key's bytes, shared: callers must not modify them. */
    public byte[] unsafeBytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Key && hash == ((Key) o).hash && Arrays.equals(bytes, ((Key) o).bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public int compareTo(Key o) {
        return Arrays.compareUnsigned(bytes, o.bytes);
    }

    /** UTF-8 text when the key is printable, hex otherwise. */
    @Override
    public String toString() {
        for (byte b : bytes)
            if (b < 0x20 || b == 0x7f) return "0x" + java.util.HexFormat.of().formatHex(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
