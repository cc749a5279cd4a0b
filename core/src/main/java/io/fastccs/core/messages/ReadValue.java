package io.fastccs.core.messages;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.KeyType;

import java.util.Arrays;

/**
 * The version of one key a read returned.
 *
 * @param value the value, or {@code null} when the key has no version in the snapshot
 * @param sequence the owning partition's sequence number of that version (its commit clock's own entry), 0 if none;
 *                 of a typed key's fold, the largest of its operations'
 * @param type     what the key holds: for a typed key the value is the fold of its operations in the snapshot
 *                 ({@link io.fastccs.core.typed.TypedValues}), an empty fold with sequence 0 when none is in it
 *                 yet (a key never written reads as a plain key without value)
 */
public record ReadValue(Key key, byte[] value, long sequence, KeyType type) {
    /** A plain key's value. */
    public ReadValue(Key key, byte[] value, long sequence) {
        this(key, value, sequence, KeyType.REGISTER);
    }

    public boolean exists() {
        return value != null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReadValue rv && key.equals(rv.key) && Arrays.equals(value, rv.value) && sequence == rv.sequence
                && type == rv.type;
    }

    @Override
    public int hashCode() {
        return key.hashCode() * 31 + Long.hashCode(sequence);
    }

    @Override
    public String toString() {
        return key + "@" + sequence + (value == null ? "=∅" : "=" + value.length + "B");
    }
}
