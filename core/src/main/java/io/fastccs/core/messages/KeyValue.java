package io.fastccs.core.messages;

import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.WriteKind;

import java.util.Arrays;

/**
 * One key and what is written to it: a value ({@link WriteKind#PUT}), or a commutative operation and its operand
 * ({@link io.fastccs.core.typed.Operands}).
 */
public record KeyValue(Key key, byte[] value, WriteKind kind) {
    /** A put. */
    public KeyValue(Key key, byte[] value) {
        this(key, value, WriteKind.PUT);
    }

    public KeyValue {
        java.util.Objects.requireNonNull(kind, "kind");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyValue kv && key.equals(kv.key) && Arrays.equals(value, kv.value) && kind == kv.kind;
    }

    @Override
    public int hashCode() {
        return 31 * key.hashCode() + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return key + (kind == WriteKind.PUT ? "=" : " " + kind + " ") + value.length + "B";
    }
}
